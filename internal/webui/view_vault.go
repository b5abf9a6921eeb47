package webui

import "net/url"

func vaultView(d *doc, v vaultData) {
	d.s(`<h1>Vault</h1>`)
	if v.Off != "" {
		d.f(`<p>%s</p>`, v.Off)
		return
	}
	next := "when sessions are due"
	if !v.Status.NextPass.IsZero() {
		next = d.when(v.Status.NextPass)
	}
	d.f(`<p id="passes">Version %s · last consolidation %s · next %s</p>`, v.Status.Version, d.when(v.Status.LastPass), next)
	d.s(`<h2 id="changes">Changes since the last consolidation</h2>`)
	if len(v.Changes) == 0 {
		d.s(`<p class="muted">None: the files are as consolidation left them.</p>`)
	}
	for _, c := range v.Changes {
		d.f(`<h3>%s <span class="tag">%s</span></h3><div class="diff" role="group" aria-label="diff of %s">`, c.Path, c.Kind, c.Path)
		for _, l := range c.Lines {
			class := ""
			switch l.Op {
			case "+":
				class = "add"
			case "-":
				class = "del"
			}
			d.f(`<div class="%s">%s %s</div>`, class, l.Op, l.Text)
		}
		d.s(`</div>`)
	}
	d.s(`<div class="cols"><nav aria-label="Vault files"><h2>Files</h2><ul class="files">`)
	if len(v.Files) == 0 {
		d.s(`<li class="muted">No files yet: consolidation writes them.</li>`)
	}
	for _, f := range v.Files {
		cur := safeHTML("")
		if f == v.Path {
			cur = ` aria-current="page"`
		}
		d.f(`<li><a href="/ui/vault?%s"%s>%s</a></li>`, url.Values{"path": {f}}.Encode(), cur, f)
	}
	d.s(`</ul></nav><section>`)
	if v.Path != "" {
		d.f(`<h2 id="file">%s</h2>`, v.Path)
		if v.Body != "" {
			d.f(`<div class="doc">%s</div>`, v.Body)
		} else {
			d.f(`<pre>%s</pre>`, v.Raw)
		}
	}
	d.s(`</section></div>`)
}
