package e2e

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// event is one server-sent event as a client reads it.
type event struct {
	Name string
	Data map[string]any
}

func start(t *testing.T, steps ...Step) *Server {
	t.Helper()
	s, err := Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// post sends a JSON body and returns the status and the raw answer.
func post(t *testing.T, url, body string, header map[string]string) (int, []byte, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b, resp.Header.Get("Content-Type")
}

// readEvents parses a text/event-stream body.
func readEvents(t *testing.T, b []byte) []event {
	t.Helper()
	var out []event
	var cur event
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.Data); err != nil {
				t.Fatalf("event %s: data is not JSON: %v", cur.Name, err)
			}
		case line == "":
			if cur.Name != "" {
				if cur.Data["type"] != cur.Name {
					t.Errorf("event %q carries type %v", cur.Name, cur.Data["type"])
				}
				out = append(out, cur)
			}
			cur = event{}
		}
	}
	return out
}

func eventNames(es []event) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

// compact drops repeats of the same event name in a row, so that a
// sequence of deltas reads as one.
func compact(names []string) []string {
	var out []string
	for _, n := range names {
		if len(out) == 0 || out[len(out)-1] != n {
			out = append(out, n)
		}
	}
	return out
}

const searchArgs = `{"query":"router cache","limit":3}`

func anthropicBody(tools []string, messages string) string {
	var ts []string
	for _, n := range tools {
		ts = append(ts, `{"name":"`+n+`","description":"d","input_schema":{"type":"object"}}`)
	}
	return `{"model":"claude-test","stream":true,"max_tokens":100,"tools":[` + strings.Join(ts, ",") + `],"messages":` + messages + `}`
}

func TestAnthropicToolThenText(t *testing.T) {
	s := start(t, Step{Tool: "mcp__cairn__memory_search", Args: json.RawMessage(searchArgs), Text: "Found the decision."})
	tools := []string{"Bash", "mcp__cairn__memory_search"}
	status, b, ctype := post(t, s.URL()+"/v1/messages?beta=true", anthropicBody(tools, `[{"role":"user","content":"hi"}]`), nil)
	if status != 200 || ctype != "text/event-stream" {
		t.Fatalf("status %d, content type %q: %s", status, ctype, b)
	}
	es := readEvents(t, b)
	want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if got := compact(eventNames(es)); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	block := es[1].Data["content_block"].(map[string]any)
	if block["type"] != "tool_use" || block["name"] != "mcp__cairn__memory_search" {
		t.Fatalf("block %v", block)
	}
	id := block["id"].(string)
	var args strings.Builder
	for _, e := range es {
		if e.Name == "content_block_delta" {
			d := e.Data["delta"].(map[string]any)
			if d["type"] != "input_json_delta" {
				t.Fatalf("delta %v", d)
			}
			args.WriteString(d["partial_json"].(string))
		}
	}
	if args.String() != searchArgs {
		t.Errorf("arguments %q, want %q", args.String(), searchArgs)
	}
	if stop := es[len(es)-2].Data["delta"].(map[string]any)["stop_reason"]; stop != "tool_use" {
		t.Errorf("stop_reason %v", stop)
	}

	msgs := `[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"mcp__cairn__memory_search","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":[{"type":"text","text":"plain Map with a size cap"}]}]}]`
	_, b, _ = post(t, s.URL()+"/v1/messages", anthropicBody(tools, msgs), nil)
	es = readEvents(t, b)
	var text strings.Builder
	for _, e := range es {
		if e.Name == "content_block_delta" {
			text.WriteString(e.Data["delta"].(map[string]any)["text"].(string))
		}
	}
	if text.String() != "Found the decision." {
		t.Errorf("answer %q", text.String())
	}
	if stop := es[len(es)-2].Data["delta"].(map[string]any)["stop_reason"]; stop != "end_turn" {
		t.Errorf("stop_reason %v", stop)
	}
	if p := s.Problems(); len(p) != 0 {
		t.Errorf("problems: %v", p)
	}
	if s.Played() != 1 {
		t.Errorf("played %d steps, want 1", s.Played())
	}
	reqs := s.Turns()
	if len(reqs) != 2 || reqs[0].Step != 0 || reqs[1].Step != 0 || reqs[0].Side {
		t.Fatalf("requests %+v", reqs)
	}
	res := reqs[1].ToolResults()
	if len(res) != 1 || res[0].CallID != id || res[0].Text != "plain Map with a size cap" {
		t.Errorf("tool results %+v", res)
	}
}

func TestAnthropicNotStreamed(t *testing.T) {
	s := start(t, Step{Text: "hello there"})
	body := strings.Replace(anthropicBody([]string{"Bash"}, `[{"role":"user","content":"hi"}]`), `"stream":true`, `"stream":false`, 1)
	status, b, _ := post(t, s.URL()+"/v1/messages", body, nil)
	var m struct {
		Type       string `json:"type"`
		StopReason string `json:"stop_reason"`
		Content    []struct{ Type, Text string }
	}
	if err := json.Unmarshal(b, &m); err != nil || status != 200 {
		t.Fatalf("status %d, %v: %s", status, err, b)
	}
	if m.Type != "message" || m.StopReason != "end_turn" || len(m.Content) != 1 || m.Content[0].Text != "hello there" {
		t.Errorf("message %+v", m)
	}
}

func responsesBody(tools, input string) string {
	return `{"model":"scripted-model","stream":true,"tools":[` + tools + `],"input":` + input + `}`
}

// codexTools is the shape Codex offers: built-in functions and one
// namespace tool per MCP server.
const codexTools = `{"type":"function","name":"exec_command","parameters":{}},` +
	`{"type":"namespace","name":"mcp__cairn","description":"cairn","tools":[{"type":"function","name":"memory_search","parameters":{}},{"type":"function","name":"memory_read","parameters":{}}]}`

func TestResponsesNamespaceTool(t *testing.T) {
	s := start(t, Step{Tool: "mcp__cairn__memory_search", Args: json.RawMessage(searchArgs), Text: "It is a plain Map."})
	status, b, ctype := post(t, s.URL()+"/v1/responses", responsesBody(codexTools, `[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}]`), nil)
	if status != 200 || ctype != "text/event-stream" {
		t.Fatalf("status %d, content type %q: %s", status, ctype, b)
	}
	es := readEvents(t, b)
	want := []string{"response.created", "response.in_progress", "response.output_item.added", "response.function_call_arguments.delta",
		"response.function_call_arguments.done", "response.output_item.done", "response.completed"}
	if got := compact(eventNames(es)); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for i, e := range es {
		if n, _ := e.Data["sequence_number"].(float64); int(n) != i {
			t.Errorf("event %d has sequence_number %v", i, e.Data["sequence_number"])
		}
	}
	item := es[len(es)-2].Data["item"].(map[string]any)
	if item["type"] != "function_call" || item["namespace"] != "mcp__cairn" || item["name"] != "memory_search" || item["arguments"] != searchArgs {
		t.Fatalf("item %v", item)
	}
	callID := item["call_id"].(string)
	usage := es[len(es)-1].Data["response"].(map[string]any)["usage"].(map[string]any)
	if usage["input_tokens"].(float64) <= 0 {
		t.Errorf("usage %v", usage)
	}

	input := `[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]},` +
		`{"type":"function_call","namespace":"mcp__cairn","name":"memory_search","arguments":"{}","call_id":"` + callID + `"},` +
		`{"type":"function_call_output","call_id":"` + callID + `","output":"plain Map with a size cap"}]`
	_, b, _ = post(t, s.URL()+"/v1/responses", responsesBody(codexTools, input), nil)
	es = readEvents(t, b)
	want = []string{"response.created", "response.in_progress", "response.output_item.added", "response.content_part.added",
		"response.output_text.delta", "response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed"}
	if got := compact(eventNames(es)); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	var text strings.Builder
	for _, e := range es {
		if e.Name == "response.output_text.delta" {
			text.WriteString(e.Data["delta"].(string))
		}
	}
	if text.String() != "It is a plain Map." {
		t.Errorf("answer %q", text.String())
	}
	if p := s.Problems(); len(p) != 0 {
		t.Errorf("problems: %v", p)
	}
	if res := s.Turns()[1].ToolResults(); len(res) != 1 || res[0].Text != "plain Map with a size cap" {
		t.Errorf("tool results %+v", res)
	}
}

// TestScriptDeviations checks that the server notices when a client does
// not follow the script, and keeps answering.
func TestScriptDeviations(t *testing.T) {
	tests := []struct {
		name    string
		steps   []Step
		bodies  []string
		played  int
		problem string
	}{
		{"tool not offered", []Step{{Tool: "cairn_memory_search", Text: "no tool"}},
			[]string{responsesBody(codexTools, `"hi"`)}, 1, `tool "cairn_memory_search" is not among the 3 tools offered`},
		{"result missing", []Step{{Tool: "exec_command", Text: "ran"}},
			[]string{responsesBody(codexTools, `"hi"`), responsesBody(codexTools, `"again"`)}, 1, "carries no result for tool call"},
		{"script over", []Step{{Text: "one"}},
			[]string{responsesBody(codexTools, `"hi"`), responsesBody(codexTools, `"more"`)}, 1, ""},
		{"side requests do not play", []Step{{Text: "one"}},
			[]string{responsesBody("", `"title please"`)}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, tt.steps...)
			for _, b := range tt.bodies {
				if status, out, _ := post(t, s.URL()+"/v1/responses", b, nil); status != 200 {
					t.Fatalf("status %d: %s", status, out)
				}
			}
			if s.Played() != tt.played {
				t.Errorf("played %d, want %d", s.Played(), tt.played)
			}
			p := strings.Join(s.Problems(), "\n")
			if (tt.problem == "") != (p == "") || !strings.Contains(p, tt.problem) {
				t.Errorf("problems %q, want %q", p, tt.problem)
			}
		})
	}
}

func TestSideAndScriptEndAnswers(t *testing.T) {
	s := start(t, Step{Text: "scripted"})
	answer := func(body string) string {
		_, b, _ := post(t, s.URL()+"/v1/responses", body, nil)
		var out strings.Builder
		for _, e := range readEvents(t, b) {
			if e.Name == "response.output_text.delta" {
				out.WriteString(e.Data["delta"].(string))
			}
		}
		return out.String()
	}
	got := []string{answer(responsesBody("", `"title"`)), answer(responsesBody(codexTools, `"hi"`)), answer(responsesBody(codexTools, `"more"`))}
	want := []string{SideText, "scripted", EndText}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("answers %q, want %q", got, want)
	}
	turns := s.Turns()
	if !turns[0].Side || turns[1].Side || turns[1].Step != 0 || turns[2].Step != -1 {
		t.Errorf("turns %+v", turns)
	}
}

func TestOtherEndpoints(t *testing.T) {
	s := start(t)
	status, b, _ := post(t, s.URL()+"/v1/messages/count_tokens", `{"model":"m","messages":[{"role":"user","content":"12345678"}]}`, nil)
	var ct struct {
		InputTokens int `json:"input_tokens"`
	}
	if err := json.Unmarshal(b, &ct); err != nil || status != 200 || ct.InputTokens <= 0 {
		t.Errorf("count_tokens: %d %s", status, b)
	}
	resp, err := http.Get(s.URL() + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	var models struct {
		Data []struct{ ID string }
	}
	err = json.NewDecoder(resp.Body).Decode(&models)
	resp.Body.Close()
	if err != nil || len(models.Data) != 1 || models.Data[0].ID != ModelName {
		t.Errorf("models: %v %+v", err, models)
	}
	if status, _, _ := post(t, s.URL()+"/api/event_logging/batch", `{}`, nil); status != http.StatusNotFound {
		t.Errorf("unknown path answered %d", status)
	}
	if status, _, _ := post(t, s.URL()+"/v1/responses", `{not json`, nil); status != http.StatusBadRequest {
		t.Errorf("bad JSON answered %d", status)
	}
	reqs := s.Requests()
	if len(reqs) != 4 || reqs[2].API != Other || reqs[2].Path != "/api/event_logging/batch" {
		t.Errorf("requests %+v", reqs)
	}
	if len(s.Problems()) != 1 {
		t.Errorf("problems %v", s.Problems())
	}
}

func TestCompressedBodies(t *testing.T) {
	body := responsesBody(codexTools, `"compressed hello"`)
	var gz, zs bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(body))
	_ = zw.Close()
	enc, err := zstd.NewWriter(&zs)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = enc.Write([]byte(body))
	_ = enc.Close()
	for _, tt := range []struct{ enc, body string }{{"gzip", gz.String()}, {"zstd", zs.String()}} {
		s := start(t, Step{Text: "ok"})
		if status, b, _ := post(t, s.URL()+"/v1/responses", tt.body, map[string]string{"Content-Encoding": tt.enc}); status != 200 {
			t.Fatalf("%s: status %d: %s", tt.enc, status, b)
		}
		if got := s.Turns()[0].Body; string(got) != body {
			t.Errorf("%s: recorded %q", tt.enc, got)
		}
	}
}

func TestStringsAndSpans(t *testing.T) {
	tests := []struct {
		body  string
		want  []string
		spans []string
	}{
		{`{"a":"x","b":["y",{"c":"z"}],"d":1,"e":"w"}`, []string{"x", "y", "z", "w"}, nil},
		{`{"system":[{"type":"text","text":"pre <m>one</m> mid <m>two</m>"}],"k":{"nested":{"t":"<m>three"}}}`,
			[]string{"text", "pre <m>one</m> mid <m>two</m>", "<m>three"}, []string{"<m>one</m>", "<m>two</m>", "<m>three"}},
		{`["a",["b"],{}]`, []string{"a", "b"}, nil},
		{`{"x":"\u003cm\u003eescaped\u003c/m\u003e"}`, []string{"<m>escaped</m>"}, []string{"<m>escaped</m>"}},
		{`not json`, nil, nil},
	}
	for _, tt := range tests {
		r := Request{Body: []byte(tt.body)}
		if got := r.Strings(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Strings(%s) = %q, want %q", tt.body, got, tt.want)
		}
		if got := r.Spans("<m>", "</m>"); !reflect.DeepEqual(got, tt.spans) {
			t.Errorf("Spans(%s) = %q, want %q", tt.body, got, tt.spans)
		}
	}
}

// FuzzParseRequest feeds the request readers arbitrary bodies: they may
// refuse one, never panic.
func FuzzParseRequest(f *testing.F) {
	f.Add(anthropicBody([]string{"a"}, `[{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"y"}]}]`))
	f.Add(responsesBody(codexTools, `[{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"t"}]}]`))
	f.Add(`{"tools":[{"tools":[{"name":1}]}],"input":"x"}`)
	f.Add(`[[[{"a":[]}]]]`)
	f.Fuzz(func(t *testing.T, body string) {
		for _, api := range []API{Anthropic, Responses} {
			_, _ = parseRequest(api, []byte(body))
			r := Request{API: api, Body: []byte(body)}
			_ = r.ToolResults()
			_ = r.Tools()
			for _, s := range r.Spans("<", ">") {
				if !strings.HasPrefix(s, "<") {
					t.Fatalf("span %q does not start with its opening", s)
				}
			}
		}
	})
}
