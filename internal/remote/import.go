package remote

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
)

// maxUpload is the largest transcript the client sends, the gateway's
// default limit.
const maxUpload = 64 << 20

// Upload is one transcript to send: a client's file, or an OpenCode
// session exported on this machine.
type Upload struct {
	Provider memory.Provider
	// Source is what the report names (the local path, or the session).
	Source string
	// Name is the file name the gateway keeps it under.
	Name string
	// Read produces the bytes to send and the places of the directories
	// its sessions ran in, resolved on this machine.
	Read func(ctx context.Context) (data []byte, places []memory.Place, err error)
}

// Planner expands an import request into uploads on this machine: the
// client formats and default locations are the app's to know.
type Planner func(ctx context.Context, req engine.ImportRequest) ([]Upload, error)

// filePlan treats each path as a transcript file of req.Provider: what a
// hook names.
func filePlan(_ context.Context, req engine.ImportRequest) ([]Upload, error) {
	if len(req.Paths) == 0 || req.Provider == "" {
		return nil, memory.Errorf(memory.CodeInvalid, "in remote mode, import names a client and its transcript files")
	}
	var out []Upload
	for _, p := range req.Paths {
		out = append(out, Upload{Provider: req.Provider, Source: p, Name: filepath.Base(p),
			Read: func(context.Context) ([]byte, []memory.Place, error) {
				b, err := os.ReadFile(p)
				return b, nil, err
			}})
	}
	return out, nil
}

// Import uploads each transcript the request names for the gateway to
// import, as a local import would read them. A source that cannot be read
// or that the gateway refuses is reported and the others go on; a gateway
// that cannot be reached stops the import.
func (c *Client) Import(ctx context.Context, req engine.ImportRequest) ([]engine.SourceReport, error) {
	ups, err := c.plan(ctx, req)
	if err != nil {
		return nil, err
	}
	wd, _ := os.Getwd()
	here, _ := c.placeOf(wd, nil)
	var out []engine.SourceReport
	for i, u := range ups {
		reps, err := c.upload(ctx, u, req, wd, here)
		if err != nil && !memory.IsCode(err, memory.CodeInvalid) && !memory.IsCode(err, memory.CodeNotFound) {
			return out, err
		}
		if err != nil {
			reps = []engine.SourceReport{{Provider: u.Provider, Error: describe(err)}}
		}
		for j := range reps {
			reps[j].Source = u.Source
			out = append(out, reps[j])
			if req.Progress != nil {
				req.Progress(i+1, len(ups), reps[j])
			}
		}
	}
	return out, nil
}

func (c *Client) upload(ctx context.Context, u Upload, req engine.ImportRequest, wd string, here *memory.Place) ([]engine.SourceReport, error) {
	data, places, err := u.Read(ctx)
	if err != nil {
		if memory.ErrorCode(err) == memory.CodeInternal || memory.IsCode(err, memory.CodeUnavailable) {
			// A file that cannot be read, or an export that did not run,
			// is this source's failure, not the gateway's.
			return nil, memory.Wrap(memory.CodeInvalid, "read "+u.Source, err)
		}
		return nil, err
	}
	if len(data) > maxUpload {
		return nil, memory.Errorf(memory.CodeInvalid, "%s is larger than a gateway takes (%d MiB)", u.Source, maxUpload>>20)
	}
	var reps []engine.SourceReport
	if u.Provider == memory.ProviderOpenCode {
		if !json.Valid(data) {
			return nil, memory.Errorf(memory.CodeInvalid, "%s is not an OpenCode export (not JSON)", u.Source)
		}
		body := gateway.OpenCodeBody{Name: u.Name, Export: data, Cwd: wd, Place: here, Places: places}
		err = c.do(ctx, http.MethodPost, "/v1/sessions/opencode", nil, body, &reps)
		return reps, err
	}
	body := gateway.TranscriptBody{Provider: u.Provider, Name: u.Name, Session: req.Session, LastAnswer: req.LastAnswer,
		Transcript: string(data), Cwd: wd, Place: here, Places: places}
	// A transcript only grows: when the gateway holds what was sent last
	// time and the file still starts with it, only the rest goes.
	key := c.base.String() + " " + string(u.Provider) + " " + u.Name
	if prev, ok := c.sent.get(key); ok && prev.Size > 0 && prev.Size <= int64(len(data)) && digest(data[:prev.Size]) == prev.SHA256 {
		tail := body
		tail.Transcript, tail.Offset, tail.Prefix = string(data[prev.Size:]), prev.Size, prev.SHA256
		err = c.do(ctx, http.MethodPost, "/v1/sessions", nil, tail, &reps)
		if !memory.IsCode(err, memory.CodeConflict) {
			if err == nil {
				c.sent.put(key, int64(len(data)), digest(data))
			}
			return reps, err
		}
		// The gateway holds another copy (reset, or another machine's
		// upload): send the whole file.
	}
	err = c.do(ctx, http.MethodPost, "/v1/sessions", nil, body, &reps)
	if err == nil {
		c.sent.put(key, int64(len(data)), digest(data))
	}
	return reps, err
}

// UploadTurn sends one finished turn, for a client with no transcript
// file to send.
func (c *Client) UploadTurn(ctx context.Context, t gateway.TurnBody) (engine.SourceReport, error) {
	var rep engine.SourceReport
	p, err := c.placeOf(t.Cwd, t.Place)
	if err != nil {
		return rep, err
	}
	t.Place = p
	err = c.do(ctx, http.MethodPost, "/v1/turns", nil, t, &rep)
	return rep, err
}

// describe is an error's message for a report line.
func describe(err error) string {
	if m := memory.ErrorMessage(err); m != "" {
		return m
	}
	return err.Error()
}
