package tui

// list is one tab's rows with a cursor and the first row shown.
type list struct {
	rows   []row
	cursor int
	offset int
}

// set replaces the rows after a reload: the cursor stays on the same row
// when it is still there, else at the same position (the row after one
// that was forgotten).
func (l *list) set(rows []row) {
	var ref string
	if r, ok := l.selected(); ok {
		ref = r.ref
	}
	l.rows = rows
	for i, r := range rows {
		if r.ref == ref {
			l.cursor = i
			return
		}
	}
	l.clamp()
}

func (l list) selected() (row, bool) {
	if l.cursor < 0 || l.cursor >= len(l.rows) {
		return row{}, false
	}
	return l.rows[l.cursor], true
}

// move moves the cursor by d rows, stopping at either end.
func (l *list) move(d int) {
	l.cursor += d
	l.clamp()
}

func (l *list) top()    { l.cursor = 0 }
func (l *list) bottom() { l.cursor = len(l.rows) - 1; l.clamp() }

func (l *list) clamp() {
	l.cursor = max(0, min(l.cursor, len(l.rows)-1))
}

// follow scrolls a window of height lines just enough to keep the cursor
// in it; Update calls it, so the view only reads.
func (l *list) follow(height int) {
	if height <= 0 {
		return
	}
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+height {
		l.offset = l.cursor - height + 1
	}
	l.offset = max(0, min(l.offset, len(l.rows)-height))
}

// visible returns the rows a window of height lines shows and the
// cursor's index among them (-1: none).
func (l list) visible(height int) ([]row, int) {
	if height <= 0 || len(l.rows) == 0 {
		return nil, -1
	}
	l.follow(height)
	end := min(len(l.rows), l.offset+height)
	return l.rows[l.offset:end], l.cursor - l.offset
}
