package webui

import (
	"html"
	"regexp"
	"strings"
)

// renderMarkdown turns a vault file into HTML: headings, lists, fenced
// code, paragraphs, inline code and bold, and cairn's provenance anchors
// shown as small tags. Everything is escaped first, so no file can put
// markup of its own on the page.
func renderMarkdown(src string) safeHTML {
	var b strings.Builder
	var para []string
	list := ""
	inCode := false
	flushPara := func() {
		if len(para) > 0 {
			b.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>\n")
			para = nil
		}
	}
	closeList := func() {
		if list != "" {
			b.WriteString("</" + list + ">\n")
			list = ""
		}
	}
	for _, line := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			flushPara()
			closeList()
			if inCode {
				b.WriteString("</code></pre>\n")
			} else {
				b.WriteString("<pre><code>")
			}
			inCode = !inCode
			continue
		}
		if inCode {
			b.WriteString(html.EscapeString(line) + "\n")
			continue
		}
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			flushPara()
			closeList()
		case strings.HasPrefix(t, "#"):
			flushPara()
			closeList()
			n := len(t) - len(strings.TrimLeft(t, "#"))
			if n > 6 {
				n = 6
			}
			tag := "h" + string(rune('0'+min(n+1, 6))) // the page's own h1 stays above the file's
			b.WriteString("<" + tag + ">" + inline(strings.TrimSpace(t[n:])) + "</" + tag + ">\n")
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* "):
			flushPara()
			if list != "ul" {
				closeList()
				b.WriteString("<ul>\n")
				list = "ul"
			}
			b.WriteString("<li>" + inline(t[2:]) + "</li>\n")
		case orderedItem.MatchString(t):
			flushPara()
			if list != "ol" {
				closeList()
				b.WriteString("<ol>\n")
				list = "ol"
			}
			b.WriteString("<li>" + inline(orderedItem.ReplaceAllString(t, "")) + "</li>\n")
		default:
			closeList()
			para = append(para, t)
		}
	}
	flushPara()
	closeList()
	if inCode {
		b.WriteString("</code></pre>\n")
	}
	return safeHTML(b.String())
}

var (
	orderedItem = regexp.MustCompile(`^\d+[.)] `)
	anchor      = regexp.MustCompile(`&lt;!-- ([a-z]+:[^ ]+?) --&gt;`)
	codeSpan    = regexp.MustCompile("`([^`]+)`")
	bold        = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// inline escapes a line, then marks up code spans, bold and anchors.
func inline(s string) string {
	s = html.EscapeString(s)
	s = anchor.ReplaceAllString(s, `<span class="anchor">$1</span>`)
	s = codeSpan.ReplaceAllString(s, "<code>$1</code>")
	return bold.ReplaceAllString(s, "<strong>$1</strong>")
}
