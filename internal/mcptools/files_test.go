package mcptools

import (
	"strings"
	"testing"
)

func TestMemoryFiles(t *testing.T) {
	eng := newFake()
	eng.files = map[string]string{
		"MEMORY.md": "# MEMORY\n\n- Deploys go to Render, Oregon. <!-- s:3 -->\n",
		"rollout_summaries/2026-05-04-deploy-render-ab12cd.md": "# Moved the deploy to Render\n",
	}
	h := start(t, eng, setup{})

	text, isErr, res := h.call(t, ToolRead, map[string]any{"ref": "MEMORY.md"})
	if isErr || !strings.Contains(text, "Render, Oregon") || !strings.HasPrefix(text, untrustedLabel) {
		t.Fatalf("read a file: %v %q", isErr, text)
	}
	if out := structured[ReadOutput](t, res); out.Kind != "file" || out.File == nil || out.File.Path != "MEMORY.md" {
		t.Fatalf("structured read: %+v", out)
	}
	if text, isErr, _ := h.call(t, ToolRead, map[string]any{"ref": "../etc/passwd.md"}); !isErr || !strings.Contains(text, "does not exist") {
		t.Fatalf("a missing file: %v %q", isErr, text)
	}

	text, isErr, res = h.call(t, ToolList, map[string]any{"kind": "files"})
	if out := structured[ListOutput](t, res); isErr || len(out.Files) != 2 || out.Files[0] != "MEMORY.md" {
		t.Fatalf("list files: %v %+v %s", isErr, out, text)
	}

	text, isErr, res = h.call(t, ToolSearch, map[string]any{"query": "render deploy"})
	out := structured[SearchOutput](t, res)
	if isErr || len(out.Files) == 0 || out.Files[0].Path != "MEMORY.md" || !strings.Contains(text, "In the memory files:") {
		t.Fatalf("search did not reach the files: %v %+v\n%s", isErr, out.Files, text)
	}

	// An engine without memory files: search still answers, read says why.
	eng.files = nil
	if _, isErr, res := h.call(t, ToolSearch, map[string]any{"query": "render deploy"}); isErr || len(structured[SearchOutput](t, res).Files) != 0 {
		t.Fatal("search without memory files failed or invented files")
	}
	if _, isErr, _ := h.call(t, ToolRead, map[string]any{"ref": "MEMORY.md"}); !isErr {
		t.Fatal("reading a file without memory files did not fail")
	}
}
