package gateway

import (
	"net/http"
)

func (s *Server) vaultRead(w http.ResponseWriter, r *http.Request, c *call) error {
	text, err := c.eng.VaultRead(r.Context(), r.URL.Query().Get("path"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"text": text})
	return nil
}

func (s *Server) vaultList(w http.ResponseWriter, r *http.Request, c *call) error {
	files, err := c.eng.VaultList(r.Context(), r.URL.Query().Get("dir"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, nonNil(files))
	return nil
}

func (s *Server) vaultGrep(w http.ResponseWriter, r *http.Request, c *call) error {
	q := r.URL.Query()
	limit, err := intParam(q.Get("limit"), 50)
	if err != nil {
		return err
	}
	ms, err := c.eng.VaultGrep(r.Context(), q.Get("pattern"), boolParam(q.Get("regex")), limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, nonNil(ms))
	return nil
}
