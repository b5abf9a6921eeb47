package evaluate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func FuzzLoadJSONL(f *testing.F) {
	for _, name := range []string{"sample.jsonl", "locomo_sample.jsonl.golden"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"",
		"\n\n",
		`{"type":"conversation","id":"c","speakers":[]}` + "\n" +
			`{"type":"session","conversation":"c","id":"s","time":"2024-01-01T00:00:00.5+01:00"}` + "\n" +
			`{"type":"turn","conversation":"c","session":"s","id":"t","speaker":"A","text":"\u00e9\ud800","time":"2023-12-31T23:01:00Z"}`,
		`{"type":"conversation","id":"c"}` + "\n" + `{"type":"session","conversation":"c","id":"s","time":"9999-12-31T23:59:00Z"}` + "\n" +
			`{"type":"turn","conversation":"c","session":"s","id":"t","speaker":"A","text":""}` + "\n" +
			`{"type":"turn","conversation":"c","session":"s","id":"u","speaker":"A","text":"x"}`,
		`{"type":"question","conversation":"c","id":"q","question":"?","evidence":null}`,
		`{"type":"dataset","name":""}`,
		`{"type":null}`,
		"{\"type\":\"conversation\",\"id\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := LoadJSONL(bytes.NewReader(data))
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) || le.Line < 1 {
				t.Fatalf("error %v is not a *LineError with a line", err)
			}
			return
		}
		idx := ds.turnIndex()
		for _, q := range ds.Questions {
			if _, ok := idx[q.Conversation]; !ok {
				t.Fatalf("question %q in unknown conversation %q", q.ID, q.Conversation)
			}
		}
		assertRoundTrip(t, ds)
	})
}

// FuzzLoCoMoFields feeds one string to the LoCoMo evidence and session
// date parsers.
func FuzzLoCoMoFields(f *testing.F) {
	for _, s := range []string{
		"D1:3", "D8:6; D9:17", "D9:1 D4:4 D4:6", "D30:05", "D", "D:11:26", "",
		"1:56 pm on 8 May, 2023", "12:09 am on 13 September, 2023", "1:56pm on May 8 2023",
		"2023-05-08T13:56:00+02:00", "13:56 on 8 May, 2023", "0:00 am on 1 January, 0001",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids := parseEvidence(s)
		for _, id := range ids {
			if canonicalTurnID(id) != id || !slices.Equal(parseEvidence(id), []string{id}) {
				t.Fatalf("evidence id %q from %q is not canonical", id, s)
			}
			if !strings.HasPrefix(id, "D") || strings.Count(id, ":") != 1 {
				t.Fatalf("evidence id %q from %q is not D<n>:<n>", id, s)
			}
		}
		if again := parseEvidence(strings.Join(ids, "; ")); !slices.Equal(again, ids) {
			t.Fatalf("re-reading %q gave %q", ids, again)
		}

		at, err := parseSessionTime(s)
		if err != nil {
			return
		}
		if at.Location().String() != "UTC" {
			t.Fatalf("parseSessionTime(%q) in %v, want UTC", s, at.Location())
		}
		if at.Second() == 0 && at.Nanosecond() == 0 && at.Year() >= 1000 && at.Year() <= 9999 {
			canon := at.Format("3:04 pm on 2 January, 2006")
			back, err := parseSessionTime(canon)
			if err != nil || !back.Equal(at) {
				t.Fatalf("parseSessionTime(%q) = %v; its LoCoMo form %q reads back as %v, %v", s, at, canon, back, err)
			}
		}
	})
}
