package gateway

import (
	"net/http"
)

// The vault routes read the account's memory files: the version in force,
// or the one named by ?version= (v1, v2).

func (s *Server) vaultRead(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx, q := r.Context(), r.URL.Query()
	path := q.Get("path")
	vf, err := c.eng.Vault(ctx, q.Get("version"))
	if err != nil {
		return err
	}
	b, err := vf.Read(ctx, path)
	if err != nil {
		return err
	}
	if err := c.eng.VaultFileRead(ctx, path); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"text": string(b)})
	return nil
}

func (s *Server) vaultList(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx, q := r.Context(), r.URL.Query()
	vf, err := c.eng.Vault(ctx, q.Get("version"))
	if err != nil {
		return err
	}
	files, err := vf.List(ctx, q.Get("dir"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, nonNil(files))
	return nil
}

func (s *Server) vaultGrep(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx, q := r.Context(), r.URL.Query()
	limit, err := intParam(q.Get("limit"), 50)
	if err != nil {
		return err
	}
	vf, err := c.eng.Vault(ctx, q.Get("version"))
	if err != nil {
		return err
	}
	ms, err := vf.Grep(ctx, q.Get("pattern"), boolParam(q.Get("regex")), limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, nonNil(ms))
	return nil
}

func (s *Server) vaultStatus(w http.ResponseWriter, r *http.Request, c *call) error {
	st, err := c.eng.VaultStatus(r.Context(), r.URL.Query().Get("version"))
	if err != nil {
		return err
	}
	st.Root = "" // the gateway's own paths are not the caller's business
	st.Changes = nonNil(st.Changes)
	writeJSON(w, http.StatusOK, st)
	return nil
}
