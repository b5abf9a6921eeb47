// Package vault keeps cairn's memory folder: plain Markdown files under the
// data directory that are also a private git repository (seed 001).
//
// The layout is the file pyramid: memory_summary.md (absent until the first
// consolidation), MEMORY.md, raw_memories.md, skills/, rollout_summaries/
// and extensions/ad_hoc/notes/. After each successful consolidation the
// caller records a baseline commit; Diff from that baseline to the files on
// disk (whoever changed them: cairn, a model, a person with an editor) is the
// next consolidation's input.
//
// Git is driven through go-git at the object level, so no git binary and no
// user git configuration is needed or read. Commits are made as "cairn".
// The snapshot that Baseline commits and Diff compares is exactly what List
// shows: regular files only, skipping .git, symbolic links, cairn's own
// temporary files and desktop litter (.DS_Store, Thumbs.db). A .gitignore in
// the vault is an ordinary file and ignores nothing.
//
// Every path is a slash-separated path relative to the root. Paths that are
// absolute, contain "..", a backslash, a colon, a NUL or other control byte,
// a .git component, or that pass through a symbolic link are refused with a
// CodeInvalid error wrapping ErrUnsafePath; file I/O additionally goes
// through os.Root, so a race that plants a link cannot reach outside.
//
// V1 and V2 memory live in separate roots with separate repositories:
// OpenRoot picks <data>/vault for v1 and <data>/memories_v2 for v2.
package vault
