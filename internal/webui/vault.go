package webui

import (
	"net/http"
	"strings"

	"github.com/cairn-memory/cairn/internal/distill"
	"github.com/cairn-memory/cairn/internal/engine"
)

// vaultData is the Vault screen: its files, one rendered, the changes
// since the last consolidation and when the next one runs.
type vaultData struct {
	Off     string
	Status  engine.VaultStatus
	Files   []string
	Path    string
	Body    safeHTML
	Raw     string
	Changes []changeView
}

type changeView struct {
	Path  string
	Kind  distill.ChangeKind
	Lines []diffLine
}

func (s *Server) vaultPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	ctx := r.Context()
	d := vaultData{Path: r.URL.Query().Get("path")}
	l := s.frame(ctx, v, "Vault", "vault")
	if !v.eng.HasVault() {
		d.Off = "This store has no vault folder: consolidation writes none here."
		s.pages.render(w, "vault", l, d)
		return nil
	}
	st, err := v.eng.VaultStatus(ctx, "")
	if err != nil {
		return err
	}
	d.Status = st
	for _, c := range st.Changes {
		d.Changes = append(d.Changes, changeView{Path: c.Path, Kind: c.Kind, Lines: lineDiff(string(c.Before), string(c.After))})
	}
	if d.Files, err = v.eng.VaultList(ctx, ""); err != nil {
		return err
	}
	if d.Path == "" && len(d.Files) > 0 {
		d.Path = d.Files[0]
		for _, f := range d.Files {
			if strings.HasSuffix(f, "memory_summary.md") || strings.HasSuffix(f, "MEMORY.md") {
				d.Path = f
				break
			}
		}
	}
	if d.Path != "" {
		body, err := v.eng.VaultRead(ctx, d.Path)
		if err != nil {
			return err
		}
		d.Raw = body
		if strings.HasSuffix(d.Path, ".md") {
			d.Body = renderMarkdown(body)
		}
	}
	s.pages.render(w, "vault", l, d)
	return nil
}
