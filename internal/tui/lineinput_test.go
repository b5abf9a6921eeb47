package tui

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// keyNamed is a key press as the terminal sends it: "ctrl+w" and
// "alt+backspace" carry no text.
func keyNamed(t *testing.T, name string) tea.KeyPressMsg {
	t.Helper()
	codes := map[string]rune{
		"left": tea.KeyLeft, "right": tea.KeyRight, "home": tea.KeyHome, "end": tea.KeyEnd,
		"backspace": tea.KeyBackspace, "delete": tea.KeyDelete,
	}
	var mod tea.KeyMod
	name, _ = strings.CutPrefix(name, "key:")
	for {
		if rest, ok := strings.CutPrefix(name, "ctrl+"); ok {
			mod, name = mod|tea.ModCtrl, rest
		} else if rest, ok := strings.CutPrefix(name, "alt+"); ok {
			mod, name = mod|tea.ModAlt, rest
		} else {
			break
		}
	}
	if c, ok := codes[name]; ok {
		return tea.KeyPressMsg{Code: c, Mod: mod}
	}
	if r, size := utf8.DecodeRuneInString(name); size == len(name) && mod != 0 {
		return tea.KeyPressMsg{Code: r, Mod: mod}
	}
	t.Fatalf("no key named %q", name)
	return tea.KeyPressMsg{}
}

// typed is text as the terminal sends it: one rune a key, or several in
// one key (an input method, or a paste without bracketed paste).
func typed(s string) tea.KeyPressMsg {
	if utf8.RuneCountInString(s) == 1 {
		r, _ := utf8.DecodeRuneInString(s)
		return tea.KeyPressMsg{Code: r, Text: s}
	}
	return tea.KeyPressMsg{Code: tea.KeyExtended, Text: s}
}

// drive sends steps to the box: "key:NAME" is a key, "paste:TEXT" a
// bracketed paste, anything else typed as one key press.
func drive(t *testing.T, l lineInput, steps ...string) lineInput {
	t.Helper()
	for _, s := range steps {
		switch {
		case strings.HasPrefix(s, "key:"):
			l = l.Update(keyNamed(t, s))
		case strings.HasPrefix(s, "paste:"):
			l = l.Update(tea.PasteMsg{Content: strings.TrimPrefix(s, "paste:")})
		default:
			l = l.Update(typed(s))
		}
	}
	return l
}

func box(width int, value string) lineInput {
	l := newLineInput("> ", "", lipgloss.NewStyle(), lipgloss.NewStyle())
	l.SetWidth(width)
	l.SetValue(value)
	l.CursorEnd()
	l.Focus()
	return l
}

// TestLineInputKeys: each key's edit of the text, and where it leaves the
// cursor, as a column after the prompt ("> " is 2 cells).
func TestLineInputKeys(t *testing.T) {
	cases := []struct {
		name   string
		start  string // the value, cursor at its end
		steps  []string
		want   string
		column int
	}{
		{"typing", "", []string{"a", "b", "c"}, "abc", 5},
		{"space is typed", "a", []string{" ", "b"}, "a b", 5},
		{"several runes in one key", "", []string{"héllo wörld"}, "héllo wörld", 13},
		{"bracketed paste, made one line", "x", []string{"paste:a\tb\r\nc\nd\x1b[31me\x07"}, "xa b c d[31me", 15},
		{"a control key types nothing", "ab", []string{"key:ctrl+x", "key:alt+q"}, "ab", 4},
		{"backspace", "abc", []string{"key:backspace"}, "ab", 4},
		{"ctrl+h is backspace", "abc", []string{"key:ctrl+h"}, "ab", 4},
		{"backspace at the start", "abc", []string{"key:home", "key:backspace"}, "abc", 2},
		{"backspace in the middle", "abc", []string{"key:left", "key:backspace"}, "ac", 3},
		{"delete", "abc", []string{"key:home", "key:delete"}, "bc", 2},
		{"ctrl+d is delete", "abc", []string{"key:home", "key:ctrl+d"}, "bc", 2},
		{"delete at the end", "abc", []string{"key:delete"}, "abc", 5},
		{"left and right", "abc", []string{"key:left", "key:left", "key:right"}, "abc", 4},
		{"left stops at the start", "ab", []string{"key:left", "key:left", "key:left", "X"}, "Xab", 3},
		{"right stops at the end", "ab", []string{"key:right", "X"}, "abX", 5},
		{"ctrl+b and ctrl+f", "abc", []string{"key:ctrl+b", "key:ctrl+b", "key:ctrl+f", "X"}, "abXc", 5},
		{"home, then type", "abc", []string{"key:home", "X"}, "Xabc", 3},
		{"ctrl+a", "abc", []string{"key:ctrl+a", "X"}, "Xabc", 3},
		{"end", "abc", []string{"key:home", "key:end", "X"}, "abcX", 6},
		{"ctrl+e", "abc", []string{"key:home", "key:ctrl+e", "X"}, "abcX", 6},
		{"typing in the middle", "ac", []string{"key:left", "b"}, "abc", 4},
		{"ctrl+u deletes to the start", "hello world", []string{"key:left", "key:left", "key:ctrl+u"}, "ld", 2},
		{"ctrl+u at the end empties it", "hello", []string{"key:ctrl+u"}, "", 2},
		{"ctrl+k deletes to the end", "hello world", []string{"key:home", "key:right", "key:ctrl+k"}, "h", 3},
		{"ctrl+w deletes the word before", "foo bar", []string{"key:ctrl+w"}, "foo ", 6},
		{"ctrl+w takes the spaces after the word too", "foo bar  ", []string{"key:ctrl+w"}, "foo ", 6},
		{"ctrl+w inside a word", "foo bar", []string{"key:left", "key:ctrl+w"}, "foo r", 6},
		{"ctrl+w twice", "foo bar", []string{"key:ctrl+w", "key:ctrl+w"}, "", 2},
		{"ctrl+w at the start", "foo", []string{"key:home", "key:ctrl+w"}, "foo", 2},
		{"alt+backspace is ctrl+w", "foo bar", []string{"key:alt+backspace"}, "foo ", 6},
		{"alt+d deletes the word after", "foo bar baz", []string{"key:home", "key:alt+d"}, " bar baz", 2},
		{"alt+b and alt+f move by words", "foo bar baz", []string{"key:alt+b", "key:alt+b", "X", "key:alt+f", "Y"}, "foo XbarY baz", 11},
		{"wide characters count two cells", "", []string{"日", "本", "語"}, "日本語", 8},
		{"left over a wide character", "日本語", []string{"key:left"}, "日本語", 6},
		{"backspace takes a whole wide character", "日本語", []string{"key:backspace"}, "日本", 6},
		{"an accent joins its letter", "", []string{"e", "\u0301"}, "e\u0301", 3},
		{"backspace takes the letter and its accent", "cafe\u0301", []string{"key:backspace"}, "caf", 5},
		{"left steps over a flag", "a🇫🇷", []string{"key:left"}, "a🇫🇷", 3},
		{"stored text is made one line", "line one\nline\ttwo", nil, "line one line two", 19},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := drive(t, box(40, c.start), c.steps...)
			if got := l.Value(); got != c.want {
				t.Errorf("value %q, want %q", got, c.want)
			}
			cur := l.Cursor()
			if cur == nil {
				t.Fatal("no cursor while focused")
			}
			if cur.Position.X != c.column {
				t.Errorf("cursor column %d, want %d", cur.Position.X, c.column)
			}
			checkBox(t, l)
		})
	}
}

// TestLineInputScroll: a text wider than the box scrolls so that the
// cursor and the character under it stay in view.
func TestLineInputScroll(t *testing.T) {
	const abc = "abcdefghijklmnopqrst" // 20 cells
	cases := []struct {
		name   string
		width  int
		start  string
		steps  []string
		view   string // after the prompt, padding included
		column int
	}{
		{"fits", 10, "abc", nil, "abc        ", 5},
		{"exactly fills, cursor after it", 10, "abcdefghij", nil, "abcdefghij ", 12},
		{"one more scrolls by one", 10, "abcdefghijk", nil, "bcdefghijk ", 12},
		{"at the end", 10, abc, nil, "klmnopqrst ", 12},
		{"home shows the start", 10, abc, []string{"key:home"}, "abcdefghijk", 2},
		{"moving left inside the view does not scroll", 10, abc, repeat("key:left", 10), "klmnopqrst ", 2},
		{"left past the view scrolls by one", 10, abc, repeat("key:left", 11), "jklmnopqrst", 2},
		{"right past the view scrolls by one", 10, abc, append([]string{"key:home"}, repeat("key:right", 11)...), "bcdefghijkl", 12},
		{"end after home", 10, abc, []string{"key:home", "key:end"}, "klmnopqrst ", 12},
		{"deleting pulls the text back", 10, abc, repeat("key:backspace", 5), "fghijklmno ", 12},
		{"emptied", 10, abc, []string{"key:ctrl+u"}, "           ", 2},
		{"wide characters at the end", 10, strings.Repeat("日本語", 3), nil, "本語日本語 ", 12},
		{"wide characters from the start", 10, strings.Repeat("日本語", 3), []string{"key:home"}, "日本語日本 ", 2},
		{"a wide character under the cursor is shown whole", 10, "a" + strings.Repeat("日", 6), append([]string{"key:home"}, repeat("key:right", 6)...),
			"日日日日日 ", 10},
		{"narrower window", 4, abc, []string{"key:home", "key:right"}, "abcde", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := drive(t, box(c.width, c.start), c.steps...)
			if got := strings.TrimPrefix(ansi.Strip(l.View()), "> "); got != c.view {
				t.Errorf("view %q, want %q", got, c.view)
			}
			if x := l.Cursor().Position.X; x != c.column {
				t.Errorf("cursor column %d, want %d", x, c.column)
			}
			checkBox(t, l)
		})
	}
}

// TestLineInputResize: a narrower box scrolls the text so the cursor
// stays in view; a wider one shows it all again.
func TestLineInputResize(t *testing.T) {
	l := box(30, "abcdefghijklmnopqrst")
	l.SetWidth(10)
	if got := strings.TrimPrefix(ansi.Strip(l.View()), "> "); got != "klmnopqrst " || l.Cursor().Position.X != 12 {
		t.Fatalf("narrowed: %q, cursor %d", got, l.Cursor().Position.X)
	}
	l.SetWidth(30)
	if got := strings.TrimSpace(strings.TrimPrefix(ansi.Strip(l.View()), "> ")); got != "abcdefghijklmnopqrst" || l.Cursor().Position.X != 22 {
		t.Fatalf("widened: %q, cursor %d", got, l.Cursor().Position.X)
	}
}

// TestLineInputFocus: without the focus keys do nothing and there is no
// cursor; an empty box shows the placeholder.
func TestLineInputFocus(t *testing.T) {
	l := box(20, "abc")
	l.Blur()
	l = drive(t, l, "x", "key:backspace", "paste:yz")
	if l.Value() != "abc" || l.Cursor() != nil {
		t.Fatalf("blurred: value %q, cursor %v", l.Value(), l.Cursor())
	}
	l.Focus()
	l = drive(t, l, "key:ctrl+u")
	l.Placeholder = "words to find"
	if got := ansi.Strip(l.View()); got != "> words to find"+strings.Repeat(" ", 21-len("words to find")) {
		t.Fatalf("placeholder %q", got)
	}
	if l.Cursor().Position.X != 2 {
		t.Fatalf("cursor on the placeholder at %d", l.Cursor().Position.X)
	}
	l.Placeholder = strings.Repeat("p", 40)
	if got := ansi.Strip(l.View()); got != "> "+strings.Repeat("p", 21) {
		t.Fatalf("long placeholder %q", got)
	}
}

// TestLineInputCopies: the model is a value; an older copy keeps its text.
func TestLineInputCopies(t *testing.T) {
	a := box(20, "abc")
	b := drive(t, a, "key:left", "X", "key:backspace", "Y")
	if a.Value() != "abc" || b.Value() != "abYc" {
		t.Fatalf("a %q, b %q", a.Value(), b.Value())
	}
}

// FuzzLineInput: whatever is typed or pasted, the box stays one line as
// wide as the screen gives it, the cursor stays on it, and the text is
// what the keys made.
func FuzzLineInput(f *testing.F) {
	f.Add("hello", []byte{0, 1, 2, 3, 4, 5}, uint8(10))
	f.Add("日本語 e\u0301 🇫🇷", []byte{0, 0, 0, 6, 7, 8, 9, 10, 11, 0, 12}, uint8(3))
	f.Add("a\tb\r\nc\x1b[m\x00", []byte{13, 0, 1, 1, 14, 15}, uint8(0))
	keys := []string{"", "key:left", "key:right", "key:home", "key:end", "key:backspace", "key:delete",
		"key:ctrl+u", "key:ctrl+k", "key:ctrl+w", "key:alt+d", "key:alt+b", "key:alt+f", "paste:", "key:alt+backspace", " "}
	f.Fuzz(func(t *testing.T, text string, ops []byte, width uint8) {
		// A box holds a line; longer runs only slow the search down.
		text, ops = text[:min(len(text), 256)], ops[:min(len(ops), 64)]
		l := box(1+int(width)%60, "")
		for _, op := range ops {
			k := keys[int(op)%len(keys)]
			switch k {
			case "":
				l = l.Update(typed(text))
			case "paste:":
				l = l.Update(tea.PasteMsg{Content: text})
			default:
				l = drive(t, l, k)
			}
			checkBox(t, l)
		}
	})
}

// checkBox: the box is one line exactly as wide as prompt and room, the
// cursor is on it, and the text shown is the text from the first shown
// cluster, up to the cursor.
func checkBox(t *testing.T, l lineInput) {
	t.Helper()
	v := ansi.Strip(l.View())
	if strings.ContainsAny(v, "\n\r") {
		t.Fatalf("the box is not one line: %q", v)
	}
	for _, r := range l.Value() {
		if unicode.IsControl(r) {
			t.Fatalf("a control character in the text: %q", l.Value())
		}
	}
	pw := ansi.StringWidth(l.Prompt)
	if w := ansi.StringWidth(v); w != pw+l.room() {
		t.Fatalf("the box is %d cells, want %d: %q", w, pw+l.room(), v)
	}
	x := l.Cursor().Position.X
	if x < pw || x > pw+l.width {
		t.Fatalf("cursor at %d, outside %d..%d: %q", x, pw, pw+l.width, v)
	}
	if len(l.chars) == 0 {
		return
	}
	before := strings.Join(l.chars[l.offset:l.pos], "")
	if shown := strings.TrimPrefix(v, l.Prompt); !strings.HasPrefix(shown, before) || ansi.StringWidth(before) != x-pw {
		t.Fatalf("the cursor at %d does not follow %q in %q", x, before, v)
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}
