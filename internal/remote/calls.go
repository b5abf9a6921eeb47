package remote

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/cairn-memory/cairn/internal/engine"
	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/temporal"
)

// Standing asks for the block a session starts with.
func (c *Client) Standing(ctx context.Context, req engine.RecallRequest) (engine.RecallResult, error) {
	return c.recall(ctx, req, true)
}

// Recall asks for the block for a request.
func (c *Client) Recall(ctx context.Context, req engine.RecallRequest) (engine.RecallResult, error) {
	return c.recall(ctx, req, false)
}

func (c *Client) recall(ctx context.Context, req engine.RecallRequest, standing bool) (engine.RecallResult, error) {
	var res engine.RecallResult
	p, err := c.placeOf(req.Cwd, req.Place)
	if err != nil {
		return res, err
	}
	req.Place = p
	err = c.do(ctx, http.MethodPost, "/v1/recall", nil, gateway.RecallBodyOf(req, standing), &res)
	return res, err
}

// Receipts lists what recalls sent.
func (c *Client) Receipts(ctx context.Context, provider memory.Provider, session string, limit int) ([]memory.Receipt, error) {
	var rs []memory.Receipt
	q := url.Values{"provider": {string(provider)}, "session": {session}, "limit": {strconv.Itoa(limit)}}
	err := c.do(ctx, http.MethodGet, "/v1/receipts", q, nil, &rs)
	return rs, err
}

// Search runs a search on the gateway.
func (c *Client) Search(ctx context.Context, req engine.SearchRequest) (engine.SearchResult, error) {
	var res engine.SearchResult
	p, err := c.placeOf(req.Cwd, req.Place)
	if err != nil {
		return res, err
	}
	req.Place = p
	err = c.do(ctx, http.MethodPost, "/v1/search", nil, gateway.SearchBodyOf(req), &res)
	return res, err
}

func (c *Client) factBody(q engine.FactQuery) (gateway.FactQueryBody, error) {
	p, err := c.placeOf(q.Cwd, q.Place)
	q.Place = p
	return gateway.FactQueryBodyOf(q), err
}

// Facts reads the present of a place.
func (c *Client) Facts(ctx context.Context, q engine.FactQuery) (engine.FactsView, error) {
	var v engine.FactsView
	b, err := c.factBody(q)
	if err != nil {
		return v, err
	}
	err = c.do(ctx, http.MethodPost, "/v1/statements/query", nil, b, &v)
	return v, err
}

// Timeline lists statements in time order on one clock.
func (c *Client) Timeline(ctx context.Context, q engine.FactQuery, clock temporal.Clock, since, until time.Time) ([]memory.Statement, error) {
	var out []memory.Statement
	b, err := c.factBody(q)
	if err != nil {
		return nil, err
	}
	b.Clock, b.Since, b.Until = string(clock), since, until
	err = c.do(ctx, http.MethodPost, "/v1/statements/timeline", nil, b, &out)
	return out, err
}

// AsOf reads the store as it stood at t.
func (c *Client) AsOf(ctx context.Context, q engine.FactQuery, t time.Time, clock temporal.Clock) ([]memory.Statement, error) {
	var out []memory.Statement
	b, err := c.factBody(q)
	if err != nil {
		return nil, err
	}
	b.Clock, b.At = string(clock), t
	err = c.do(ctx, http.MethodPost, "/v1/statements/asof", nil, b, &out)
	return out, err
}

// Write asserts a statement.
func (c *Client) Write(ctx context.Context, w engine.Write) (engine.WriteResult, error) {
	var res engine.WriteResult
	p, err := c.placeOf(w.Cwd, w.Place)
	if err != nil {
		return res, err
	}
	w.Place = p
	err = c.do(ctx, http.MethodPost, "/v1/statements", nil, gateway.WriteBodyOf(w), &res)
	return res, err
}

// RememberLater keeps a write until the running turn ends.
func (c *Client) RememberLater(ctx context.Context, w engine.Write) (int64, error) {
	var a gateway.PendingAnswer
	p, err := c.placeOf(w.Cwd, w.Place)
	if err != nil {
		return 0, err
	}
	w.Place = p
	err = c.do(ctx, http.MethodPost, "/v1/pending", nil, gateway.WriteBodyOf(w), &a)
	return a.ID, err
}

// Remember stores a note now.
func (c *Client) Remember(ctx context.Context, text, category string, class memory.Class, pin bool, cwd string) (engine.WriteResult, error) {
	var res engine.WriteResult
	p, err := c.placeOf(cwd, nil)
	if err != nil {
		return res, err
	}
	err = c.do(ctx, http.MethodPost, "/v1/notes", nil, gateway.NoteBody{Text: text, Category: category, Class: class, Pin: pin, Place: p}, &res)
	return res, err
}

func (c *Client) statementCall(ctx context.Context, id int64, change string) (memory.Statement, error) {
	var s memory.Statement
	path := "/v1/statements/" + strconv.FormatInt(id, 10)
	method := http.MethodGet
	if change != "" {
		path, method = path+"/"+change, http.MethodPost
	}
	err := c.do(ctx, method, path, nil, nil, &s)
	return s, err
}

// Statement reads one statement.
func (c *Client) Statement(ctx context.Context, id int64) (memory.Statement, error) {
	return c.statementCall(ctx, id, "")
}

// Retract takes a statement back.
func (c *Client) Retract(ctx context.Context, id int64) (memory.Statement, error) {
	return c.statementCall(ctx, id, "retract")
}

// EditNote replaces a note's wording; the old wording stays as history.
func (c *Client) EditNote(ctx context.Context, id int64, text string) (memory.Statement, error) {
	var s memory.Statement
	err := c.do(ctx, http.MethodPost, "/v1/notes/"+strconv.FormatInt(id, 10)+"/edit", nil, gateway.EditBody{Text: text}, &s)
	return s, err
}

// MoveFactFrom moves a statement along the ladder of the place holding
// dir, resolved on this machine.
func (c *Client) MoveFactFrom(ctx context.Context, id int64, dir string, rung memory.Rung) (memory.Statement, error) {
	var s memory.Statement
	p, err := c.placeOf(dir, nil)
	if err != nil {
		return s, err
	}
	err = c.do(ctx, http.MethodPost, "/v1/statements/"+strconv.FormatInt(id, 10)+"/move", nil, gateway.MoveBody{Place: p, Cwd: dir, Rung: rung}, &s)
	return s, err
}

// Reopen makes a closed statement current again.
func (c *Client) Reopen(ctx context.Context, id int64) (memory.Statement, error) {
	return c.statementCall(ctx, id, "reopen")
}

// Episode reads one episode.
func (c *Client) Episode(ctx context.Context, id int64) (memory.Episode, error) {
	var e memory.Episode
	err := c.do(ctx, http.MethodGet, "/v1/episodes/"+strconv.FormatInt(id, 10), nil, nil, &e)
	return e, err
}

// Part reads one raw part.
func (c *Client) Part(ctx context.Context, id int64) (memory.Match, error) {
	var m memory.Match
	err := c.do(ctx, http.MethodGet, "/v1/parts/"+strconv.FormatInt(id, 10), nil, nil, &m)
	return m, err
}

// Notes lists notes, and optionally episodes and the profile.
func (c *Client) Notes(ctx context.Context, all, episodes bool) (engine.NotesView, error) {
	var v engine.NotesView
	q := url.Values{"all": {strconv.FormatBool(all)}, "episodes": {strconv.FormatBool(episodes)}}
	err := c.do(ctx, http.MethodGet, "/v1/notes", q, nil, &v)
	return v, err
}

func refPath(r engine.Ref) string {
	s := strconv.FormatInt(r.ID, 10)
	if r.Episode {
		s = "e" + s
	}
	return "/v1/notes/" + s + "/"
}

// changeRef answers with the changed row: an episode or a statement.
func (c *Client) changeRef(ctx context.Context, r engine.Ref, change string) (any, error) {
	if r.Episode {
		var e memory.Episode
		err := c.do(ctx, http.MethodPost, refPath(r)+change, nil, nil, &e)
		return e, err
	}
	var s memory.Statement
	err := c.do(ctx, http.MethodPost, refPath(r)+change, nil, nil, &s)
	return s, err
}

// Forget deactivates a note or episode.
func (c *Client) Forget(ctx context.Context, r engine.Ref) (any, error) {
	return c.changeRef(ctx, r, "forget")
}

// Undo reactivates one.
func (c *Client) Undo(ctx context.Context, r engine.Ref) (any, error) {
	return c.changeRef(ctx, r, "undo")
}

// Pin pins or unpins one.
func (c *Client) Pin(ctx context.Context, r engine.Ref, pinned bool) (any, error) {
	if pinned {
		return c.changeRef(ctx, r, "pin")
	}
	return c.changeRef(ctx, r, "unpin")
}

// Sessions lists the account's sessions.
func (c *Client) Sessions(ctx context.Context, limit int) ([]memory.SessionSummary, error) {
	var ss []memory.SessionSummary
	err := c.do(ctx, http.MethodGet, "/v1/sessions", url.Values{"limit": {strconv.Itoa(limit)}}, nil, &ss)
	return ss, err
}

// Session loads one session.
func (c *Client) Session(ctx context.Context, ref string) (memory.Session, error) {
	var s memory.Session
	err := c.do(ctx, http.MethodGet, "/v1/sessions/"+url.PathEscape(ref), nil, nil, &s)
	return s, err
}

// Export copies the account's statements, as JSON lines, to w.
func (c *Client) Export(ctx context.Context, w io.Writer) (int, error) {
	ctx, cancel := c.bound(ctx, "/v1/export")
	defer cancel()
	resp, err := c.send(ctx, http.MethodGet, "/v1/export", nil, nil)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	lc := &lineCounter{w: w}
	_, err = io.Copy(lc, resp.Body)
	return lc.n, err
}

// lineCounter counts the JSON lines it passes on: one statement each.
type lineCounter struct {
	w io.Writer
	n int
}

func (l *lineCounter) Write(p []byte) (int, error) {
	l.n += bytes.Count(p, []byte{'\n'})
	return l.w.Write(p)
}

// Purge asks the gateway to delete the account's retracted and forgotten
// rows for good; only an operator token may.
func (c *Client) Purge(ctx context.Context) (memory.PurgeCounts, error) {
	var pc memory.PurgeCounts
	err := c.do(ctx, http.MethodPost, "/v1/purge", nil, nil, &pc)
	return pc, err
}
