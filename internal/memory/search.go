package memory

import "time"

// SearchQuery is what a store needs to find one layer's candidates.
type SearchQuery struct {
	Terms []string // tokens from the text package, most informative first
	// Match, when set, is the subset of Terms the index is asked for:
	// terms found in a large share of a big store select nothing and only
	// cost; they still count in the lexical score.
	Match []string
	// MatchAll, with Match, asks for the rows holding every Match term,
	// newest first and unranked: what a big store can afford when even
	// the query's rarest term is common.
	MatchAll bool
	// Together, with Match and not MatchAll, also asks a derived layer for
	// the rows holding every one of these terms. The raw layer's rare terms
	// (an old ticket id) are chosen by the raw layer's counts; a rule or an
	// episode may hold the query's common words without them. The raw
	// layer ignores it.
	Together []string
	Place    Place
	// Rung is the widest place read: worktree (the default) reads only this
	// checkout; each wider rung adds the rows placed there.
	Rung Rung
	// Strict reads only the Rung itself, not the narrower rungs below it
	// (scope_strict).
	Strict         bool
	ExcludeSession int64
	// Untiered includes statements with no tier, which are never sent to
	// a model: only a person's own search sets it.
	Untiered     bool // the current session, excluded from automatic recall
	Since, Until time.Time
	Limit        int
	// SkipContext leaves the raw layer's Context empty: the caller reads
	// it (PartContexts) for the rows whose rank it can change.
	SkipContext bool
}

// Match is one row a layer's index matched, with what ranking needs.
type Match struct {
	Layer Layer   `json:"layer"`
	ID    int64   `json:"id"`
	BM25  float64 `json:"bm25"` // higher is better
	Text  string  `json:"text"`
	// Context is what surrounds the row (a part's neighbours in its
	// session), which the index also matched on.
	Context    string    `json:"-"`
	Confidence float64   `json:"confidence"`
	Pinned     bool      `json:"pinned,omitempty"`
	Time       time.Time `json:"time"`
	// Where it came from.
	SessionID  int64    `json:"session_id,omitempty"`
	SessionRef string   `json:"session,omitempty"` // the client's session id
	Provider   Provider `json:"provider,omitempty"`
	TurnID     int64    `json:"turn_id,omitempty"`
	TurnKey    string   `json:"turn_key,omitempty"`
	TurnSeq    int      `json:"turn_seq,omitempty"`
	PartSeq    int      `json:"part_seq,omitempty"`
	Role       Role     `json:"role,omitempty"`
	Kind       PartKind `json:"kind,omitempty"`
	Tool       string   `json:"tool,omitempty"`
	Worktree   string   `json:"worktree,omitempty"`
	// Statement is the L1 row behind the match.
	Statement *Statement `json:"statement,omitempty"`
}

// TermStats are a layer's document frequencies, for choosing query terms.
type TermStats struct {
	Docs int            // documents counted: the layer's newest, at most a window
	DF   map[string]int // documents counted holding each term
	// Total is every document in the layer; DF × Total / Docs estimates
	// how many rows a term selects.
	Total int
	// Cap, when set, is where counting stopped: a DF of Cap says "at
	// least", and the term may be held by any share of the layer above.
	Cap int
	// Older marks terms a sampled window lacks that older documents
	// hold: rare, not absent.
	Older map[string]bool
}

// StatementFilter selects statements.
type StatementFilter struct {
	IDs        []int64
	Kinds      []Kind
	Predicates []string
	// Slots keeps only the rows of these slots (Statement.Slot); a
	// subject matches whatever its case, as the write point groups slots.
	Slots   []string
	Sight   *Sight // nil: every place
	Current bool   // only rows true now and believed now
	Live    bool   // leave out withdrawn rows (retracted, forgotten, held back, revised)
	Pinned  bool   // only pinned rows
	// Rules keeps only the notes that are rules you set: pinned, or
	// asserted preferences and conventions, never a row without a tier;
	// ordered as a block shows them (pinned first, then by confidence, then
	// oldest first).
	Rules bool
	// ExpiredSince, when set, keeps only rows cairn stopped believing at or
	// after it (what changed lately).
	ExpiredSince time.Time
	// Reason keeps only rows closed for this reason.
	Reason Reason
	// ByExpiry orders the newest closed rows first (by expired_at, then
	// id, both descending) instead of oldest first.
	ByExpiry bool
	// Closed keeps only rows no longer true in the world (invalid_at set).
	Closed bool
	// ByInvalid orders the rows that stopped being true most recently
	// first (by invalid_at, then id, both descending).
	ByInvalid bool
	Evidence  bool  // load each row's evidence
	Session   int64 // only rows with evidence in this session (its id)
	Limit     int
}
