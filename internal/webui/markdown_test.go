package webui

import (
	"strings"
	"testing"
)

func TestRenderMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"headings sit one level below the page's h1", "# Memory\n## Rules\n###### Deep\n####### Deeper",
			"<h2>Memory</h2>\n<h3>Rules</h3>\n<h6>Deep</h6>\n<p>####### Deeper</p>\n"},
		{"a hash without a space is text", "#1 priority is the checkout", "<p>#1 priority is the checkout</p>\n"},
		{"paragraph lines join", "first line\nsecond line\n\nnext paragraph",
			"<p>first line second line</p>\n<p>next paragraph</p>\n"},
		{"bullet list with both markers", "- one\n* two\n\nafter",
			"<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<p>after</p>\n"},
		{"ordered list with both markers", "1. one\n2) two",
			"<ol>\n<li>one</li>\n<li>two</li>\n</ol>\n"},
		{"a bullet list then an ordered list", "- a\n1. b",
			"<ul>\n<li>a</li>\n</ul>\n<ol>\n<li>b</li>\n</ol>\n"},
		{"a paragraph closes a list", "- a\nplain",
			"<ul>\n<li>a</li>\n</ul>\n<p>plain</p>\n"},
		{"fenced code is escaped and kept verbatim", "```go\n  if a < b && c > \"d\" {\n<script>x</script>\n```",
			"<pre><code>  if a &lt; b &amp;&amp; c &gt; &#34;d&#34; {\n&lt;script&gt;x&lt;/script&gt;\n</code></pre>\n"},
		{"an unclosed fence closes at the end", "```\nx **y**",
			"<pre><code>x **y**\n</code></pre>\n"},
		{"inline code and bold", "use `go test` and **never** skip",
			"<p>use <code>go test</code> and <strong>never</strong> skip</p>\n"},
		{"inline code is escaped", "`<b>`", "<p><code>&lt;b&gt;</code></p>\n"},
		{"provenance anchors become tags", "- tabs, not spaces <!-- s:12 -->",
			"<ul>\n<li>tabs, not spaces <span class=\"anchor\">s:12</span></li>\n</ul>\n"},
		{"an anchor with a space is left as text", "<!-- s:1 2 -->",
			"<p>&lt;!-- s:1 2 --&gt;</p>\n"},
		{"raw html is text", "<img src=x onerror=alert(1)> <a href=\"javascript:x\">y</a>",
			"<p>&lt;img src=x onerror=alert(1)&gt; &lt;a href=&#34;javascript:x&#34;&gt;y&lt;/a&gt;</p>\n"},
		{"windows line ends", "# T\r\n- a\r\n",
			"<h2>T</h2>\n<ul>\n<li>a</li>\n</ul>\n"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(renderMarkdown(tc.src)); got != tc.want {
				t.Errorf("renderMarkdown(%q)\n got %q\nwant %q", tc.src, got, tc.want)
			}
		})
	}
}

// ownTags are every tag renderMarkdown writes itself.
var ownTags = []string{
	`<span class="anchor">`, "</span>", "<pre><code>", "</code></pre>", "<code>", "</code>",
	"<strong>", "</strong>", "<p>", "</p>", "<ul>", "</ul>", "<ol>", "</ol>", "<li>", "</li>",
	"<h2>", "</h2>", "<h3>", "</h3>", "<h4>", "</h4>", "<h5>", "</h5>", "<h6>", "</h6>",
}

// FuzzRenderMarkdown: whatever a vault file holds, the page gets only the
// renderer's own tags; no markup of the file's reaches it.
func FuzzRenderMarkdown(f *testing.F) {
	for _, s := range []string{
		"# h\n- a <!-- s:1 -->\n1. b\n```\n<script>\n```\n`c` **d**",
		"<script>alert(1)</script>", "<img src=x onerror=alert(1)>", `<a href="javascript:alert(1)">x</a>`,
		"<!-- s:\"><script>x</script> -->", "`<!-- s:a` -->`", "**<!-- e:1 -->**", "<!-- s:<b> -->",
		"&lt;script&gt;", "<!-- a:b\n-->", "```\r\n<x>\r\n```", "- **a `b** c`",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out := string(renderMarkdown(src))
		rest := out
		for _, tag := range ownTags {
			rest = strings.ReplaceAll(rest, tag, "")
		}
		if i := strings.IndexAny(rest, "<>\""); i >= 0 {
			t.Fatalf("markup of the file's own in %q (from %q): %q", out, src, rest[max(0, i-20):min(len(rest), i+20)])
		}
		for _, bad := range []string{"<script", "<img", "<a ", "<iframe", "<svg", "<style"} {
			if strings.Contains(strings.ToLower(out), bad) {
				t.Fatalf("%s in %q (from %q)", bad, out, src)
			}
		}
	})
}
