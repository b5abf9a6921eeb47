package setup

import (
	"os"
	"strings"
	"testing"
)

func TestScanTOMLFindsOnlyRealHeaders(t *testing.T) {
	src := `a = 1
s = """
[not.a.table]
"""
l = '''
[nor.this]'''
arr = [
  [1, 2],
  ["[x]"],
]
inline = { t = [ "[y]" ] }
  [ real . "quoted.key" . 'lit' ]  # comment [z]
[[arr.of.tables]]
k = "v # not a comment [w]"
['a "b"']
`
	lines, err := scanTOML(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ln := range lines {
		if ln.header != nil {
			h := strings.Join(ln.header, "|")
			if ln.array {
				h = "[]" + h
			}
			got = append(got, h)
		}
	}
	want := []string{"real|quoted.key|lit", "[]arr|of|tables", `a "b"`}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("headers %q, want %q", got, want)
	}
}

func TestReplaceTable(t *testing.T) {
	path := []string{"mcp_servers", "cairn"}
	block := "[mcp_servers.cairn]\ncommand = \"/new\"\n"
	tests := []struct {
		name, in, want string
	}{
		{"append to a file", "a = 1\n", "a = 1\n\n" + block},
		{"append without final newline", "a = 1", "a = 1\n\n" + block},
		{"append after a blank line", "a = 1\n\n", "a = 1\n\n" + block},
		{"empty file", "", block},
		{"replace in the middle, sub-table too, comments around kept",
			"[x]\n\n# about cairn\n[mcp_servers.cairn]\ncommand = \"/old\"\n[mcp_servers.cairn.env]\nA = \"1\"\n\n# about y\n[y]\n",
			"[x]\n\n# about cairn\n" + block + "\n# about y\n[y]\n"},
		{"scattered sub-table removed", "[mcp_servers.cairn]\ncommand = \"/old\"\n[z]\nq = 1\n[mcp_servers.cairn.env]\nA = \"1\"\n", block + "[z]\nq = 1\n"},
		{"quoted header form", "[mcp_servers.\"cairn\"]\ncommand = \"/old\"\n", block},
		{"CRLF file", "a = 1\r\n", "a = 1\r\n\r\n" + strings.ReplaceAll(block, "\n", "\r\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := replaceTable(tt.in, path, block)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestRemoveTableUndoesAppend(t *testing.T) {
	path := []string{"mcp_servers", "cairn"}
	block := "[mcp_servers.cairn]\ncommand = \"/x\"\nargs = [\n  \"mcp\",\n]\n"
	for _, in := range []string{"", "a = 1\n", "a = 1", "a = 1\n\n", "# only a comment\n", "[t]\nk = 1\n\n\n"} {
		added, err := replaceTable(in, path, block)
		if err != nil {
			t.Fatal(err)
		}
		back, err := replaceTable(added, path, "")
		if err != nil {
			t.Fatal(err)
		}
		if back != in && !(strings.TrimSpace(back) == strings.TrimSpace(in) && strings.TrimRight(back, "\n")+"\n" == strings.TrimRight(in, "\n")+"\n") {
			t.Errorf("%q → %q → %q", in, added, back)
		}
	}
}

func TestRenameTableKeepsComment(t *testing.T) {
	src := "[hooks.state.\"/h.json:stop:1:0\"]  # mine\ntrusted_hash = \"sha256:a\"\n"
	got, err := renameTable(src, []string{"hooks", "state", "/h.json:stop:1:0"}, []string{"hooks", "state", "/h.json:stop:0:0"})
	if err != nil {
		t.Fatal(err)
	}
	want := "[hooks.state.\"/h.json:stop:0:0\"]  # mine\ntrusted_hash = \"sha256:a\"\n"
	if got != want {
		t.Fatalf("got %q", got)
	}
}

func TestTOMLEditRefusesWhatItCannotEditAsABlock(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"inline table", "[mcp_servers]\ncairn = { command = \"/x\" }\n", "inline or with dotted keys"},
		{"dotted keys", "mcp_servers.cairn.command = \"/x\"\n", "inline or with dotted keys"},
		{"not a table", "[mcp_servers]\ncairn = 3\n", "not a table"},
		{"parent inline", "mcp_servers = { other = { command = \"x\" } }\n", "mcp_servers is written inline"},
		{"parent dotted", "mcp_servers.other.command = \"x\"\n", "mcp_servers is written inline"},
		{"parent not a table", "mcp_servers = 1\n", "not a table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ed, err := newTOMLEdit("config.toml", tt.src)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ed.setTable([]string{"mcp_servers", "cairn"}, []tomlKV{{"command", "/y"}})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := newTOMLEdit("config.toml", "a = 1\n[b\n"); err == nil || !strings.Contains(err.Error(), "config.toml line") {
		t.Fatalf("parse error %v should name the file and line", err)
	}
}

func TestTOMLValueRoundTrip(t *testing.T) {
	src := `[mcp_servers.cairn]
command = "/old"
startup_timeout_sec = 20
ratio = 1.0
big = 1e300
when = 1979-05-27T07:32:00-08:00
day = 1979-05-27
local = 1979-05-27T07:32:00
at = 07:32:00
enabled_tools = ["a", "b"]
nested = [[1, 2], ["x"]]
tables = [{ a = 1 }, { b = "c" }]
weird = "quote \" backslash \\ tab \t ctrl \u0001 é"

[mcp_servers.cairn.env]
X = "1"

[mcp_servers.cairn.tools.search]
approval = "auto"
`
	ed, err := newTOMLEdit("config.toml", src)
	if err != nil {
		t.Fatal(err)
	}
	changed, err := ed.setTable([]string{"mcp_servers", "cairn"}, []tomlKV{{"command", "/new"}, {"args", []string{"mcp"}}})
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	if _, err := ed.finish(); err != nil {
		t.Fatal(err)
	}
	before, _ := parseTOML("a", src)
	after, _ := parseTOML("b", ed.src)
	old := before["mcp_servers"].(map[string]any)["cairn"].(map[string]any)
	cur := after["mcp_servers"].(map[string]any)["cairn"].(map[string]any)
	for k, v := range old {
		if k == "command" {
			continue
		}
		if !sameTOML(v, cur[k]) {
			t.Errorf("%s: %v became %v", k, v, cur[k])
		}
	}
	if cur["command"] != "/new" {
		t.Errorf("command %v", cur["command"])
	}
}

// FuzzTOMLEdit adds cairn's table to any TOML file that parses, then
// removes it: the result always parses, the rest of the document is
// unchanged, and the removal gives back the original document.
func FuzzTOMLEdit(f *testing.F) {
	seed, _ := os.ReadFile("testdata/codex-config.toml")
	for _, s := range []string{
		string(seed), "", "a = 1", "[mcp_servers.cairn]\ncommand = \"x\"\n", "s = '''\n[mcp_servers.cairn]\n'''\n",
		"[mcp_servers]\n[mcp_servers.cairn.env]\nA = \"b\"\n", "x = [\n[1],\n]\n[t]\n", "\"a.b\" = { c = [ \"]\" ] }\r\n",
		"[[mcp_servers.cairn.list]]\nk = 1\n", "[hooks.state.\"k\"]\ntrusted_hash = \"h\"\n",
	} {
		f.Add(s)
	}
	path := []string{"mcp_servers", "cairn"}
	f.Fuzz(func(t *testing.T, src string) {
		ed, err := newTOMLEdit("config.toml", src)
		if err != nil {
			return
		}
		orig, _ := parseTOML("a", src)
		if _, err := ed.setTable(path, []tomlKV{{"command", "/opt/cairn"}, {"args", []string{"mcp"}}}); err != nil {
			return // refused with a reason: inline tables, a non-table parent
		}
		out, err := ed.finish()
		if err != nil {
			t.Fatalf("finish after a set: %v\n%q", err, src)
		}
		doc, err := parseTOML("b", out)
		if err != nil {
			t.Fatalf("result does not parse: %v\n%q", err, out)
		}
		if v, _ := lookupTOML(doc, "mcp_servers", "cairn", "command"); v != "/opt/cairn" {
			t.Fatalf("command not set in %q", out)
		}
		ed2, err := newTOMLEdit("config.toml", out)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ed2.removeTable(path); err != nil {
			t.Fatalf("remove: %v", err)
		}
		back, err := ed2.finish()
		if err != nil {
			t.Fatal(err)
		}
		doc2, err := parseTOML("c", back)
		if err != nil {
			t.Fatalf("after removal: %v\n%q", err, back)
		}
		dropPath(orig, path)
		dropPath(doc2, path)
		if !sameTOML(orig, doc2) {
			t.Fatalf("document changed:\n%q\n%q", src, back)
		}
	})
}
