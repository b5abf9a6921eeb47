// Package gitdir resolves a directory onto cairn's place ladder by reading
// git's on-disk layout directly (no git binary, a few stat calls: it runs on
// every hook). A checkout's top level is its worktree, the git common dir —
// shared by every `git worktree` of one clone — is its project, and the
// normalized origin URL is its repo.
package gitdir
