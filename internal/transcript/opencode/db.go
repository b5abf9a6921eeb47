package opencode

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-memory/cairn/internal/memory"
	"github.com/cairn-memory/cairn/internal/transcript"

	_ "modernc.org/sqlite" // the pure-Go driver, registered as "sqlite"
)

// ReadDB reads every session in an OpenCode ≥1.2 database (opencode.db in
// DefaultRoot()). It is the opt-in path: see the package documentation for
// why cairn prefers ExportSession and what opening the file read-only does
// and does not guarantee.
//
// Rows whose data does not decode are counted in Stats and skipped. Stats
// counts message and part rows as records; Consumed stays zero (a database
// has no byte offset to resume from). Files lists the database and its -wal
// file when there is one, so an incremental import can tell a change.
func ReadDB(ctx context.Context, path string) (transcript.Result, error) {
	const op = "read opencode db"
	var res transcript.Result
	abs, err := filepath.Abs(path)
	if err != nil {
		return res, memory.Wrap(memory.CodeInvalid, op, err)
	}
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return res, &memory.Error{Code: memory.CodeNotFound, Op: op,
			Message: fmt.Sprintf("no OpenCode database at %s", path)}
	}
	if err != nil {
		return res, memory.Wrap(memory.CodeInternal, op, err)
	}
	res.Files = append(res.Files, transcript.File{Path: abs, Size: fi.Size(), ModTime: fi.ModTime()})
	wi, walErr := os.Stat(abs + "-wal")
	if walErr == nil {
		res.Files = append(res.Files, transcript.File{Path: abs + "-wal", Size: wi.Size(), ModTime: wi.ModTime()})
	}
	// SQLite creates -wal and -shm to read a WAL-mode database, even
	// read-only. With no -wal there is nothing uncheckpointed to respect
	// (OpenCode is not running: the last connection to close removes it),
	// so the file can be opened as immutable, which creates nothing.
	immutable := errors.Is(walErr, fs.ErrNotExist) && walHeader(abs)

	db, err := sql.Open("sqlite", readOnlyDSN(abs, immutable))
	if err != nil {
		return res, memory.Wrap(memory.CodeInternal, op, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// One read transaction, so that the three tables are read from one
	// snapshot even while OpenCode writes.
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return res, memory.Wrap(memory.CodeUnavailable, op, err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only; nothing to undo

	infos, err := readSessionRows(ctx, tx)
	if err != nil {
		return res, memory.Wrap(memory.CodeInvalid, op, err)
	}
	for _, info := range infos {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("%s: %w", op, err)
		}
		msgs, err := readMessageRows(ctx, tx, info.ID, &res.Stats)
		if err != nil {
			return res, memory.Wrap(memory.CodeInternal, op, err)
		}
		s, _ := buildSession(info, msgs, &res.Stats)
		res.Sessions = append(res.Sessions, s)
	}
	return res, nil
}

// readOnlyDSN opens path strictly read-only: mode=ro makes SQLite refuse
// every write and never create the file, query_only(1) refuses writes a
// second time at the statement level, and busy_timeout waits out a
// checkpoint OpenCode is running. immutable is set only when asked: it
// skips the -wal file, which would miss what a running OpenCode wrote last.
func readOnlyDSN(abs string, immutable bool) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	dsn := u.String() + "?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(5000)"
	if immutable {
		dsn += "&immutable=1"
	}
	return dsn
}

// walHeader reports whether a SQLite file is in WAL mode: bytes 18 and 19
// of the header (the file format's write and read versions) are 2.
func walHeader(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [20]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return false
	}
	return string(h[:16]) == "SQLite format 3\x00" && h[18] == 2 && h[19] == 2
}

// sessionColumns are read when the session table has them; the first
// five are required.
var sessionColumns = []string{"id", "directory", "title", "time_created", "time_updated", "version", "parent_id", "model"}

func readSessionRows(ctx context.Context, tx *sql.Tx) ([]sessionInfo, error) {
	have, err := tableColumns(ctx, tx, "session")
	if err != nil {
		return nil, err
	}
	var cols []string
	for i, c := range sessionColumns {
		switch {
		case have[c] && strings.HasPrefix(c, "time_"):
			cols = append(cols, "coalesce("+c+", 0)")
		case have[c]:
			cols = append(cols, "coalesce("+c+", '')")
		case i < 5:
			return nil, fmt.Errorf("unsupported opencode.db schema: session has no %s column", c)
		default:
			cols = append(cols, "''")
		}
	}
	rows, err := tx.QueryContext(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM session ORDER BY time_created, id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []sessionInfo
	for rows.Next() {
		var (
			info  sessionInfo
			model string
		)
		if err := rows.Scan(&info.ID, &info.Directory, &info.Title, &info.Time.Created, &info.Time.Updated,
			&info.Version, &info.ParentID, &model); err != nil {
			return nil, err
		}
		if model != "" {
			_ = json.Unmarshal([]byte(model), &info.Model) // a model that does not decode is just unknown
		}
		out = append(out, info)
	}
	return out, rows.Err()
}

func tableColumns(ctx context.Context, tx *sql.Tx, table string) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	have := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		have[name] = true
	}
	if len(have) == 0 && rows.Err() == nil {
		return nil, fmt.Errorf("unsupported opencode.db schema: no %s table", table)
	}
	return have, rows.Err()
}

// readMessageRows reads one session's messages and parts. The data
// columns hold the same JSON as an export without the ids, which come
// from their own columns.
func readMessageRows(ctx context.Context, tx *sql.Tx, sid string, st *transcript.Stats) ([]message, error) {
	rows, err := tx.QueryContext(ctx,
		"SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id", sid)
	if err != nil {
		return nil, err
	}
	var (
		msgs  []message
		index = map[string]int{}
	)
	for rows.Next() {
		var (
			id      string
			created float64
			data    []byte
		)
		if err := rows.Scan(&id, &created, &data); err != nil {
			rows.Close()
			return nil, err
		}
		st.Lines++
		var m message
		if !decodeInfo(data, &m.Info, st) {
			continue
		}
		m.Info.ID, m.Info.SessionID = id, sid
		if m.Info.Time.Created <= 0 {
			m.Info.Time.Created = created
		}
		index[id] = len(msgs)
		msgs = append(msgs, m)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}

	prows, err := tx.QueryContext(ctx,
		"SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id", sid)
	if err != nil {
		return nil, err
	}
	defer prows.Close()
	for prows.Next() {
		var (
			id, mid string
			data    []byte
		)
		if err := prows.Scan(&id, &mid, &data); err != nil {
			return nil, err
		}
		st.Lines++
		i, ok := index[mid]
		if !ok {
			st.Skip("part of an unknown message")
			continue
		}
		p, ok := decodePart(data, st)
		if !ok {
			continue
		}
		p.ID, p.MessageID, p.SessionID = id, mid, sid
		msgs[i].Parts = append(msgs[i].Parts, p)
	}
	return msgs, prows.Err()
}
