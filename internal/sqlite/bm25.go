package sqlite

import (
	"fmt"
	"sync"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// cairn_bm25 is FTS5's bm25, the same formula computed in the same order,
// with one difference: how many rows of the index hold each query phrase
// is kept between queries instead of counted again for every one.
//
// bm25 counts, for every query, each phrase's rows over the whole index
// (FTS5 reads the phrase's entire posting list), whatever the query's
// other constraints: a search of one place in a store of a million parts
// read every posting of each common word. Those counts were a sixth of a
// request block's CPU at 1M parts, and more of its page reads.
//
// Called as cairn_bm25(table, scope, w0, w1, …): scope names the index and
// the query's column filter (a count depends on both), the weights are
// bm25's. A count is exact while the index holds the same number of rows
// and tokens as when it was made. An index of staleRows rows or more
// reuses a count until its row count has moved by a fiftieth: a capture
// adds rows at every turn, and a word's share of a large index barely
// moves in a fiftieth of it.
const (
	rankFunction = "cairn_bm25"
	staleRows    = 20000
	staleShare   = 50
	// phraseCountsMax bounds the counts kept; past it they are dropped.
	phraseCountsMax = 1 << 16
)

type phraseKey struct {
	file   string  // the database file, or "" for a memory database
	db     uintptr // the connection, for a memory database
	scope  string
	phrase string
}

type phraseCount struct {
	rows, tokens int64 // the index's size when counted
	hits         int64
}

var phraseCounts = struct {
	sync.Mutex
	m map[phraseKey]phraseCount
}{m: map[phraseKey]phraseCount{}}

// fresh says whether a count made at c's size stands for an index of
// rows rows and tokens tokens.
func (c phraseCount) fresh(rows, tokens int64) bool {
	if c.rows == rows && c.tokens == tokens {
		return true
	}
	if rows < staleRows {
		return false
	}
	d := rows - c.rows
	return d >= -rows/staleShare && d <= rows/staleShare
}

var (
	rankOnce sync.Once
	rankErr  error
	// C strings the extension hands SQLite.
	cMain, cSelectAPI, cAPIType, cRankName uintptr
	// Function pointers, as SQLite's transpiled code calls them.
	rankFnPtr, countFnPtr, auxFreePtr, rankEntryPtr uintptr
)

// registerRank has every connection opened from now on define
// cairn_bm25, through SQLite's automatic extensions.
func registerRank() error {
	rankOnce.Do(func() {
		for _, s := range []struct {
			p *uintptr
			v string
		}{{&cMain, "main"}, {&cSelectAPI, "SELECT fts5(?1)"}, {&cAPIType, "fts5_api_ptr"}, {&cRankName, rankFunction}} {
			c, err := libc.CString(s.v)
			if err != nil {
				rankErr = err
				return
			}
			*s.p = c
		}
		*(*func(*libc.TLS, uintptr, uintptr, uintptr, int32, uintptr))(unsafe.Pointer(&rankFnPtr)) = rankFn
		*(*func(*libc.TLS, uintptr, uintptr, uintptr) int32)(unsafe.Pointer(&countFnPtr)) = countFn
		*(*func(*libc.TLS, uintptr))(unsafe.Pointer(&auxFreePtr)) = auxFree
		*(*func(*libc.TLS, uintptr, uintptr, uintptr) int32)(unsafe.Pointer(&rankEntryPtr)) = rankEntry
		tls := libc.NewTLS()
		defer tls.Close()
		if rc := sqlite3.Xsqlite3_auto_extension(tls, rankEntryPtr); rc != sqlite3.SQLITE_OK {
			rankErr = fmt.Errorf("sqlite: register %s: code %d", rankFunction, rc)
		}
	})
	return rankErr
}

// rankEntry runs as each connection opens: it asks FTS5 for its API (a
// pointer bound to `SELECT fts5(?1)`) and adds cairn_bm25 to it.
func rankEntry(tls *libc.TLS, db, _, _ uintptr) int32 {
	bp := tls.Alloc(16) // the statement at bp, the API at bp+8
	defer tls.Free(16)
	*(*uintptr)(cmem(bp)) = 0
	*(*uintptr)(cmem(bp + 8)) = 0
	// Preparing reads the schema, which another process creating or
	// migrating the store may hold locked: wait for it as any statement
	// does (the connection's own busy_timeout is set after this).
	sqlite3.Xsqlite3_busy_timeout(tls, db, int32(busyTimeout.Milliseconds()))
	if rc := sqlite3.Xsqlite3_prepare_v2(tls, db, cSelectAPI, -1, bp, 0); rc != sqlite3.SQLITE_OK {
		return rc
	}
	stmt := *(*uintptr)(cmem(bp))
	sqlite3.Xsqlite3_bind_pointer(tls, stmt, 1, bp+8, cAPIType, 0)
	sqlite3.Xsqlite3_step(tls, stmt)
	if rc := sqlite3.Xsqlite3_finalize(tls, stmt); rc != sqlite3.SQLITE_OK {
		return rc
	}
	api := *(*uintptr)(cmem(bp + 8))
	if api == 0 {
		return sqlite3.SQLITE_OK // no FTS5 in this build: nothing to rank
	}
	create := (*sqlite3.Tfts5_api)(cmem(api)).FxCreateFunction
	return (*(*func(*libc.TLS, uintptr, uintptr, uintptr, uintptr, uintptr) int32)(unsafe.Pointer(&create)))(tls, api, cRankName, 0, rankFnPtr, 0)
}

func countFn(_ *libc.TLS, _, _, n uintptr) int32 {
	*(*int64)(cmem(n))++
	return sqlite3.SQLITE_OK
}

func auxFree(tls *libc.TLS, p uintptr) { sqlite3.Xsqlite3_free(tls, p) }

// rankData is one query's data, in SQLite's memory so the query keeps it
// (xSetAuxdata): the phrase count, the average row size, then each
// phrase's IDF and the current row's frequencies.
type rankData struct {
	phrases int64
	avgdl   float64
}

const rankDataSize = int(unsafe.Sizeof(rankData{}))

func (d *rankData) idf(i int) *float64 {
	return (*float64)(unsafe.Add(unsafe.Pointer(d), rankDataSize+8*i))
}

func (d *rankData) freq(i int) *float64 {
	return (*float64)(unsafe.Add(unsafe.Pointer(d), rankDataSize+8*(int(d.phrases)+i)))
}

// The calls below go through a function pointer of the API table, as
// SQLite's transpiled code makes them.

func call0(fp uintptr, tls *libc.TLS, fts uintptr) int32 {
	return (*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&fp)))(tls, fts)
}

func callInt(fp uintptr, tls *libc.TLS, fts uintptr, x int32) int32 {
	return (*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&fp)))(tls, fts, x)
}

func callPtr(fp uintptr, tls *libc.TLS, fts uintptr, p uintptr) int32 {
	return (*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&fp)))(tls, fts, p)
}

func callIntPtr(fp uintptr, tls *libc.TLS, fts uintptr, x int32, p uintptr) int32 {
	return (*(*func(*libc.TLS, uintptr, int32, uintptr) int32)(unsafe.Pointer(&fp)))(tls, fts, x, p)
}

// rankFn is cairn_bm25 for the current row.
func rankFn(tls *libc.TLS, pApi, fts, ctx uintptr, nVal int32, apVal uintptr) {
	api := (*sqlite3.TFts5ExtensionApi)(cmem(pApi))
	bp := tls.Alloc(16) // nInst at bp, then iPhrase, iCol, iOff; nTok at bp+12 after
	defer tls.Free(16)
	d, rc := queryData(tls, api, fts, ctx, nVal, apVal)
	if rc == sqlite3.SQLITE_OK {
		for i := range int(d.phrases) {
			*d.freq(i) = 0
		}
		rc = callPtr(api.FxInstCount, tls, fts, bp)
	}
	n := *(*int32)(cmem(bp))
	for i := int32(0); rc == sqlite3.SQLITE_OK && i < n; i++ {
		inst := api.FxInst
		rc = (*(*func(*libc.TLS, uintptr, int32, uintptr, uintptr, uintptr) int32)(unsafe.Pointer(&inst)))(tls, fts, i, bp+4, bp+8, bp+12)
		if rc == sqlite3.SQLITE_OK {
			col := *(*int32)(cmem(bp + 8))
			w := 1.0
			if nVal > col+1 {
				w = sqlite3.Xsqlite3_value_double(tls, *(*uintptr)(cmem(apVal + uintptr(col+1)*8)))
			}
			*d.freq(int(*(*int32)(cmem(bp + 4)))) += w
		}
	}
	var D float64
	if rc == sqlite3.SQLITE_OK {
		rc = callIntPtr(api.FxColumnSize, tls, fts, -1, bp+12)
		D = float64(*(*int32)(cmem(bp + 12)))
	}
	if rc != sqlite3.SQLITE_OK {
		sqlite3.Xsqlite3_result_error_code(tls, ctx, rc)
		return
	}
	// As FTS5 sums it, term by term and with its constants as variables,
	// so the scores agree to the last bit.
	k1, b := 1.2, 0.75
	score := 0.0
	for i := range int(d.phrases) {
		f := *d.freq(i)
		score = score + *d.idf(i)*(f*(k1+1)/(f+k1*(1-b+b*D/d.avgdl)))
	}
	sqlite3.Xsqlite3_result_double(tls, ctx, -1*score)
}

// queryData is the query's rankData, made at its first row.
func queryData(tls *libc.TLS, api *sqlite3.TFts5ExtensionApi, fts, ctx uintptr, nVal int32, apVal uintptr) (*rankData, int32) {
	getAux := api.FxGetAuxdata
	if p := (*(*func(*libc.TLS, uintptr, int32) uintptr)(unsafe.Pointer(&getAux)))(tls, fts, 0); p != 0 {
		return (*rankData)(cmem(p)), sqlite3.SQLITE_OK
	}
	if nVal < 1 {
		msg, _ := libc.CString(rankFunction + ": give the index's scope as the second argument")
		sqlite3.Xsqlite3_result_error(tls, ctx, msg, -1)
		libc.Xfree(tls, msg)
		return nil, sqlite3.SQLITE_ERROR
	}
	scope := libc.GoString(sqlite3.Xsqlite3_value_text(tls, *(*uintptr)(cmem(apVal))))
	phrases := call0(api.FxPhraseCount, tls, fts)
	size := rankDataSize + 16*int(phrases)
	p := sqlite3.Xsqlite3_malloc64(tls, uint64(size))
	if p == 0 {
		return nil, sqlite3.SQLITE_NOMEM
	}
	d := (*rankData)(cmem(p))
	d.phrases = int64(phrases)
	bp := tls.Alloc(40) // rows at bp, tokens at bp+8, token text at bp+16, its length at bp+24, hits at bp+32
	defer tls.Free(40)
	rc := callPtr(api.FxRowCount, tls, fts, bp)
	if rc == sqlite3.SQLITE_OK {
		rc = callIntPtr(api.FxColumnTotalSize, tls, fts, -1, bp+8)
	}
	rows, tokens := *(*int64)(cmem(bp)), *(*int64)(cmem(bp + 8))
	d.avgdl = float64(tokens) / float64(rows)
	key := phraseKey{scope: scope}
	db := sqlite3.Xsqlite3_context_db_handle(tls, ctx)
	if key.file = libc.GoString(sqlite3.Xsqlite3_db_filename(tls, db, cMain)); key.file == "" {
		key.db = db
	}
	for i := int32(0); rc == sqlite3.SQLITE_OK && i < phrases; i++ {
		key.phrase, rc = phraseText(tls, api, fts, i, bp+16)
		if rc != sqlite3.SQLITE_OK {
			break
		}
		phraseCounts.Lock()
		c, ok := phraseCounts.m[key]
		phraseCounts.Unlock()
		if !ok || !c.fresh(rows, tokens) {
			*(*int64)(cmem(bp + 32)) = 0
			query := api.FxQueryPhrase
			rc = (*(*func(*libc.TLS, uintptr, int32, uintptr, uintptr) int32)(unsafe.Pointer(&query)))(tls, fts, i, bp+32, countFnPtr)
			if rc != sqlite3.SQLITE_OK {
				break
			}
			c = phraseCount{rows: rows, tokens: tokens, hits: *(*int64)(cmem(bp + 32))}
			phraseCounts.Lock()
			if len(phraseCounts.m) >= phraseCountsMax {
				clear(phraseCounts.m)
			}
			phraseCounts.m[key] = c
			phraseCounts.Unlock()
		}
		*d.idf(int(i)) = phraseIDF(tls, rows, c.hits)
	}
	if rc == sqlite3.SQLITE_OK {
		setAux := api.FxSetAuxdata
		rc = (*(*func(*libc.TLS, uintptr, uintptr, uintptr) int32)(unsafe.Pointer(&setAux)))(tls, fts, p, auxFreePtr)
		if rc == sqlite3.SQLITE_OK {
			return d, rc
		}
		return nil, rc // SQLite freed p
	}
	sqlite3.Xsqlite3_free(tls, p)
	return nil, rc
}

// phraseIDF is bm25's IDF of a phrase held by hits of rows rows, floored
// as FTS5 floors it. A kept count may come from a slightly larger index,
// so hits is held to rows: more would make the logarithm's argument
// negative and the score NaN.
func phraseIDF(tls *libc.TLS, rows, hits int64) float64 {
	hits = min(hits, rows)
	idf := libc.Xlog(tls, (float64(rows-hits)+0.5)/(float64(hits)+0.5))
	if idf <= 0 {
		idf = 1e-06
	}
	return idf
}

// phraseText is a query phrase's tokens, as the tokenizer made them,
// joined by spaces (buf holds two out-parameters).
func phraseText(tls *libc.TLS, api *sqlite3.TFts5ExtensionApi, fts uintptr, i int32, buf uintptr) (string, int32) {
	n := callInt(api.FxPhraseSize, tls, fts, i)
	var b []byte
	for t := int32(0); t < n; t++ {
		query := api.FxQueryToken
		rc := (*(*func(*libc.TLS, uintptr, int32, int32, uintptr, uintptr) int32)(unsafe.Pointer(&query)))(tls, fts, i, t, buf, buf+8)
		if rc != sqlite3.SQLITE_OK {
			return "", rc
		}
		if t > 0 {
			b = append(b, ' ')
		}
		p, l := *(*uintptr)(cmem(buf)), *(*int32)(cmem(buf + 8))
		if l > 0 {
			b = append(b, unsafe.Slice((*byte)(cmem(p)), l)...)
		}
	}
	return string(b), sqlite3.SQLITE_OK
}
