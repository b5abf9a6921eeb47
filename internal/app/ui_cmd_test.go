package app

import (
	"bufio"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestUICommandOneTimeLink runs `cairn ui` as a user would: the printed
// link signs a browser in once and shows this machine's notes; the same
// link used again is refused.
func TestUICommandOneTimeLink(t *testing.T) {
	home := t.TempDir()
	if out, err := cairnCmd(t, home, "remember", "deploys go out on Tuesdays", "--cwd", t.TempDir()).CombinedOutput(); err != nil {
		t.Fatalf("remember: %v\n%s", err, out)
	}
	cmd := cairnCmd(t, home, "ui", "--no-open", "--addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, stdout)
	}()
	var link string
	select {
	case line := <-lines:
		link = regexp.MustCompile(`http://127\.0\.0\.1:\d+/ui/login\?code=[A-Za-z0-9_-]+`).FindString(line)
		if link == "" {
			t.Fatalf("no link in %q", line)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("cairn ui printed no link")
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	res, err := browser.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "deploys go out on Tuesdays") {
		t.Fatalf("first use: %d\n%.600s", res.StatusCode, body)
	}
	// The server's root and /ui lead to the pages.
	for _, path := range []string{"/", "/ui"} {
		res, err := browser.Get(strings.SplitN(link, "/ui/", 2)[0] + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "deploys go out on Tuesdays") {
			t.Errorf("%s: %d, not the Memory screen", path, res.StatusCode)
		}
	}
	// Another browser with the same link gets nothing.
	res, err = http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || strings.Contains(string(body), "Tuesdays") {
		t.Fatalf("second use: %d\n%.600s", res.StatusCode, body)
	}
}
