package corpus

import (
	"strings"
)

// codeLines returns about n lines of source in the language of path's
// extension. The code is plausible in shape, not meant to compile.
func (g *gen) codeLines(path string, n int) []string {
	lang := "go"
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		if l, ok := fileLangs[path[i:]]; ok {
			lang = l
		}
	}
	var out []string
	switch lang {
	case "go":
		out = append(out, "package "+g.pick(nameParts), "", "import (", "\t\"context\"", "\t\"fmt\"", "\t\"time\"", ")", "")
	case "python":
		out = append(out, "import logging", "from dataclasses import dataclass", "", "log = logging.getLogger(__name__)", "")
	case "ts":
		out = append(out, "import { "+g.camel(true)+" } from './"+g.snake()+"';", "")
	case "rust":
		out = append(out, "use std::collections::HashMap;", "use std::time::Duration;", "")
	}
	for len(out) < n {
		out = append(out, g.codeBlock(lang)...)
	}
	return out[:n]
}

// codeBlock is one function or section in lang.
func (g *gen) codeBlock(lang string) []string {
	fn, a, b := g.camel(g.chance(0.5)), g.camel(false), g.camel(false)
	sn := g.snake()
	doc := strings.TrimSuffix(g.sentence(), ".")
	var out []string
	switch lang {
	case "go":
		out = append(out,
			"// "+fn+": "+doc,
			"func "+fn+"(ctx context.Context, "+a+" int, "+b+" string) (int, error) {",
			"\tif "+a+" <= 0 {",
			"\t\treturn 0, fmt.Errorf(\""+strings.ToLower(fn)+": bad "+a+" %d\", "+a+")",
			"\t}",
			"\tdeadline := time.Now().Add("+itoa(g.between(1, 30))+" * time.Second)",
			"\tfor i := 0; i < "+a+"; i++ {",
			"\t\tif err := ctx.Err(); err != nil {",
			"\t\t\treturn i, err",
			"\t\t}",
			"\t\t"+sn+" := len("+b+") + i",
			"\t\tif time.Now().After(deadline) || "+sn+" > "+itoa(g.between(16, 4096))+" {",
			"\t\t\tbreak",
			"\t\t}",
			"\t}",
			"\treturn "+a+", nil",
			"}",
			"",
		)
	case "python":
		out = append(out,
			"@dataclass",
			"class "+g.camel(true)+":",
			"    "+sn+": int = "+itoa(g.between(0, 100)),
			"    "+g.snake()+": str = \""+g.pick(nameParts)+"\"",
			"",
			"    def "+g.snake()+"(self, "+g.snake()+", retries=3):",
			"        \"\"\""+g.sentence()+"\"\"\"",
			"        for attempt in range(retries):",
			"            try:",
			"                return self._"+g.snake()+"("+g.snake()+")",
			"            except TimeoutError:",
			"                log.warning(\"attempt %d timed out\", attempt)",
			"        raise RuntimeError(\""+g.pick(problems)+"\")",
			"",
		)
	case "ts":
		out = append(out,
			"export async function "+fn+"("+a+": number, "+b+": string): Promise<"+g.camel(true)+"> {",
			"  const "+sn+" = await fetch(`/api/"+g.pick(nameParts)+"/${"+b+"}`);",
			"  if (!"+sn+".ok) {",
			"    throw new Error(`"+strings.ToLower(fn)+" failed: ${"+sn+".status}`);",
			"  }",
			"  // "+g.sentence(),
			"  return { ..."+"(await "+sn+".json()), "+a+" };",
			"}",
			"",
		)
	case "rust":
		out = append(out,
			"pub fn "+sn+"("+g.snake()+": &HashMap<String, u64>, limit: usize) -> Result<Vec<u64>, Error> {",
			"    let mut out = Vec::with_capacity(limit);",
			"    for (k, v) in "+g.snake()+".iter().take(limit) {",
			"        if k.starts_with(\""+g.pick(nameParts)+"\") {",
			"            out.push(*v);",
			"        }",
			"    }",
			"    Ok(out)",
			"}",
			"",
		)
	case "sql":
		out = append(out,
			"CREATE TABLE IF NOT EXISTS "+sn+" (",
			"    id INTEGER PRIMARY KEY,",
			"    "+g.snake()+" TEXT NOT NULL,",
			"    "+g.snake()+" INTEGER NOT NULL DEFAULT 0,",
			"    created_at TEXT NOT NULL",
			");",
			"CREATE INDEX IF NOT EXISTS idx_"+sn+"_created ON "+sn+"(created_at);",
			"",
		)
	case "yaml":
		out = append(out,
			g.snake()+":",
			"  enabled: true",
			"  "+g.snake()+": "+itoa(g.between(1, 500)),
			"  "+g.snake()+": \""+g.pick(nameParts)+"-"+g.pick(nameParts)+"\"",
			"  timeout: "+itoa(g.between(1, 60))+"s",
		)
	case "markdown":
		out = append(out, "## "+g.camel(true), "", g.paragraph(g.between(2, 4)), "")
	default:
		out = append(out,
			"#!/usr/bin/env bash",
			"set -euo pipefail",
			g.snake()+"=\"${"+strings.ToUpper(g.snake())+":-"+itoa(g.between(1, 9))+"}\"",
			"go test ./... -run '"+g.camel(true)+"' -count=1",
		)
	}
	return out
}

// numbered renders lines as Claude Code's Read tool shows them: a
// right-aligned line number, an arrow, the line.
func numbered(lines []string, from int) string {
	var b strings.Builder
	for i, l := range lines {
		n := itoa(from + i)
		for k := len(n); k < 6; k++ {
			b.WriteByte(' ')
		}
		b.WriteString(n)
		b.WriteString("→")
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// linesToBytes takes lines until about size bytes.
func linesToBytes(lines []string, size int) []string {
	total := 0
	for i, l := range lines {
		total += len(l) + 1
		if total >= size {
			return lines[:i+1]
		}
	}
	return lines
}

// codeOfSize returns source lines for path totalling about size bytes.
func (g *gen) codeOfSize(path string, size int) []string {
	// Lines average roughly 30 bytes; ask for enough and trim.
	return linesToBytes(g.codeLines(path, size/20+8), size)
}
