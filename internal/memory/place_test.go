package memory

import "testing"

func TestNormalizeRepoURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"git@github.com:Acme/Widget.git", "github.com/acme/widget"},
		{"https://github.com/acme/widget", "github.com/acme/widget"},
		{"https://github.com/acme/widget.git/", "github.com/acme/widget"},
		{"ssh://git@github.com/acme/widget.git", "github.com/acme/widget"},
		{"ssh://git@github.com:22/acme/widget.git", "github.com/acme/widget"},
		{"https://user:tok@GitLab.com/Group/Sub/Proj.git", "gitlab.com/group/sub/proj"},
		{"git://example.org/x/y", "example.org/x/y"},
		{"/srv/git/Proj.git", "file:///srv/git/Proj"},
		{"file:///srv/git/proj.git", "file:///srv/git/proj"},
		{"", ""},
		{"no-colon-here", ""},
		{"https://", ""},
	}
	for _, c := range cases {
		if got := NormalizeRepoURL(c.in); got != c.want {
			t.Errorf("NormalizeRepoURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPlaceLadder(t *testing.T) {
	p := Place{Worktree: "/w", Project: "/w/.git", Repo: "github.com/a/b"}
	if got := p.Visible(RungRepo); len(got) != 3 || got[2] != (Scope{RungRepo, "github.com/a/b"}) {
		t.Fatalf("visible to repo: %v", got)
	}
	if got := p.Visible(RungWorktree); len(got) != 1 || got[0].Key != "/w" {
		t.Fatalf("visible to worktree: %v", got)
	}
	if got := p.Visible(RungEverywhere); len(got) != 4 || got[3].Key != "*" {
		t.Fatalf("visible everywhere: %v", got)
	}
	noRepo := Place{Worktree: "/w", Project: "/w"}
	if s := noRepo.ScopeAt(RungRepo); s != (Scope{RungProject, "/w"}) {
		t.Fatalf("repo scope without a repo clamps to project, got %v", s)
	}
	if s := noRepo.ScopeAt(RungEverywhere); s != (Scope{RungEverywhere, "*"}) {
		t.Fatalf("everywhere: %v", s)
	}
	if !RungRepo.Wider(RungProject) || RungWorktree.Wider(RungProject) {
		t.Fatal("ladder order")
	}
	for _, in := range []string{"worktree", "Project", " repo ", "everywhere"} {
		if r, err := ParseRung(in); err != nil || r == RungNone {
			t.Errorf("ParseRung(%q) = %v, %v", in, r, err)
		}
	}
	if _, err := ParseRung("galaxy"); ErrorCode(err) != CodeInvalid {
		t.Error("unknown rung accepted")
	}
}
