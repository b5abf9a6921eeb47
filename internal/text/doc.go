// Package text turns free text into the search tokens cairn indexes and
// queries, and holds the small text measures the rest of cairn shares:
// token-set Jaccard, character-bigram overlap, a new-content check and a
// cheap model-token estimate. It is pure: no I/O, standard library only.
//
// # Tokens
//
// [Tokens] is the one normalization used on both sides of full-text search;
// [IndexText] is the same list joined by spaces, ready for the FTS column,
// and the faster of the two (it builds no slice of strings).
// Every token is lowercase letters and digits of any script plus the joiners
// "_-./", never starts or ends with a joiner and never holds whitespace, so
// SQLite FTS5's `unicode61 remove_diacritics 0 tokenchars '_-./'` reads each
// one back as exactly one token. The rules:
//
//   - Words are split at anything that is not a letter, digit or joiner.
//     Letters are case-folded the way FTS5 folds them ("ς" → "σ"),
//     fullwidth ASCII is folded to ASCII, combining marks are dropped (FTS5
//     would split on them; diacritics written as one precomposed letter
//     stay) and an apostrophe between two letters is elided ("don't" →
//     "dont", "user's" → "users").
//   - Plain ASCII words are replaced by their stem ([Stem]), in the index
//     and in queries alike, so "deployed", "deploys" and "deploying" all
//     become "deploy". The index does not also keep the unstemmed form: a
//     query never asks for it. The exact spelling survives where it
//     matters: the whole of a code-shaped word is never stemmed, only its
//     parts are ("parseOptions" → parseoptions pars option).
//   - Code-shaped words are indexed whole and in parts: "path/to/file.go" →
//     path/to/file.go path to file.go file go; "snake_case" → snake_case
//     snake case; "HTTPServer" → httpserver http server; "PAY-1432" →
//     pay-1432 pay 1432. Version numbers and dotted numbers stay whole
//     ("v1.2.3" → v1.2.3 1.2.3; "127.0.0.1" → 127.0.0.1).
//     An all-capitals plural loses its s ("APIs" → api). A URL or an e-mail
//     address falls apart at ':', '@', '?', '=' and '&' into its scheme,
//     host-and-path, host and path parts, and query words.
//   - Han, Hiragana, Katakana and Hangul runs become overlapping bigrams; a
//     run of one character becomes a unigram. A change between CJK and any
//     other script ends a run, so "Renderに変更" is "render" then "に変", "変更".
//     Other scripts without spaces (Thai, Lao, Khmer) stay whole runs.
//   - Tokens longer than 80 bytes are dropped (blobs, minified code), but the
//     parts of a long code-shaped word still count.
//
// # Stop words
//
// Stop words (English, Chinese, and the commonest Japanese particles) are
// kept in the index and dropped only from queries ([QueryTokens]): changing
// the lists then needs no reindex, and phrase queries still line up. In a CJK
// query, bigrams that touch a stop word are dropped, unless dropping them
// would lose a content character altogether. Short technical words (ci, go,
// k8s, s3, ui, db, pr, qa, js, ts, ai) are never stop words.
//
// # Query terms
//
// [QueryTerms] keeps the most informative distinct query tokens, at most
// [DefaultMaxTerms] or the number given: by inverse document frequency when
// the caller can count it, by a fixed heuristic otherwise. It returns them
// in the order they appear in the query.
//
// # Measures
//
// [Jaccard] compares token sets (near-duplicate notes), [BigramOverlap]
// compares wording (restatements), [NewContent] catches the changed number
// or name that close wording hides, and [EstimateTokens] prices text for
// budgets.
package text
