package webui

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestSafeNext: a sign-in only ever sends the browser on to one of the
// pages, whatever `next` a link carried.
func TestSafeNext(t *testing.T) {
	for _, tc := range []struct{ next, want string }{
		{"/ui/", "/ui/"},
		{"/ui/facts?place=/w/a&clock=world", "/ui/facts?place=/w/a&clock=world"},
		{"/ui/sessions/12", "/ui/sessions/12"},
		{"", "/ui/"},
		{"/ui", "/ui/"},
		{"//evil.example", "/ui/"},
		{"//evil.example/ui/", "/ui/"},
		{"https://evil.example", "/ui/"},
		{"https://evil.example/ui/", "/ui/"},
		{"javascript:alert(1)", "/ui/"},
		{"/etc", "/ui/"},
		{"/v1/notes", "/ui/"},
		{`/ui/\evil.example`, "/ui/"},
		{"/ui/../etc", "/ui/"},
		{"/ui/../../evil.example", "/ui/"},
		{"/ui/%2e%2e/v1/notes", "/ui/"},
		{"/ui/./facts", "/ui/./facts"},
	} {
		if got := safeNext(tc.next); got != tc.want {
			t.Errorf("safeNext(%q) = %q, want %q", tc.next, got, tc.want)
		}
	}
}

// FuzzSafeNext: what safeNext lets through, a browser resolves to a page
// on the same host under the pages' prefix.
func FuzzSafeNext(f *testing.F) {
	for _, s := range []string{"/ui/facts?x=1", "//evil.example", "/ui/../v1", "/ui/%2e%2e/x", "/ui/.%2e/x", "/ui//x", "/ui/;/../x"} {
		f.Add(s)
	}
	base, _ := url.Parse("http://cairn.test/ui/facts")
	f.Fuzz(func(t *testing.T, next string) {
		out := safeNext(next)
		if out != Prefix && out != next {
			t.Fatalf("safeNext(%q) = %q: neither the input nor the prefix", next, out)
		}
		u, err := url.Parse(out)
		if err != nil {
			t.Fatalf("safeNext(%q) = %q, which does not parse: %v", next, out, err)
		}
		r := base.ResolveReference(u)
		// "/ui" itself is served by a redirect to "/ui/".
		if r.Host != base.Host || r.Scheme != base.Scheme || !(strings.HasPrefix(r.Path, Prefix) || r.Path+"/" == Prefix) {
			t.Fatalf("safeNext(%q) = %q resolves to %s", next, out, r)
		}
	})
}

// TestCookieSecureBehindTLSProxy: the session cookie is Secure over TLS,
// and behind a proxy that terminated TLS and says so; not over plain HTTP.
func TestCookieSecureBehindTLSProxy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		proto string
		want  bool
	}{
		{"plain http", "", false},
		{"proxy terminated https", "https", true},
		{"proxy says http", "http", false},
	} {
		r := httptest.NewRequest("GET", "http://127.0.0.1/ui/", nil)
		if tc.proto != "" {
			r.Header.Set("X-Forwarded-Proto", tc.proto)
		}
		w := httptest.NewRecorder()
		setCookie(w, r, &session{id: "x"})
		cs := w.Result().Cookies()
		if len(cs) != 1 || cs[0].Secure != tc.want {
			t.Errorf("%s: cookies %+v, want Secure=%v", tc.name, cs, tc.want)
		}
	}
}
