package evaluate

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func TestLoadLoCoMoSample(t *testing.T) {
	ds, err := LoadFile(FormatLoCoMo, filepath.Join("testdata", "locomo_sample.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := Dataset{
		Name: "locomo_sample",
		Conversations: []Conversation{
			{ID: "trip-1", Speakers: []string{"Ada", "Bo"}, Sessions: []Session{
				{ID: "session_1", Time: utc("2024-03-03T09:05:00Z"), Turns: []Turn{
					{ID: "D1:1", Speaker: "Ada", Text: "I booked the ferry to the island.", Time: utc("2024-03-03T09:05:00Z")},
					{ID: "D1:2", Speaker: "Bo", Text: "Look at this! [shared image: a photo of a red kite over a beach]", Time: utc("2024-03-03T09:06:00Z")},
				}},
				{ID: "session_2", Time: utc("2024-03-28T23:30:00Z"), Turns: []Turn{
					{ID: "D2:1", Speaker: "Bo", Text: "The kite broke in the storm.", Time: utc("2024-03-28T23:30:00Z")},
				}},
				{ID: "session_10", Time: utc("2024-04-01T00:00:00Z"), Turns: []Turn{
					{ID: "D10:1", Speaker: "Ada", Text: "Back home now.", Time: utc("2024-04-01T00:00:00Z")},
					{ID: "D10:2", Speaker: "Bo", Text: "[shared image: a photo of a sunset]", Time: utc("2024-04-01T00:01:00Z")},
				}},
			}},
			{ID: "conv-1", Speakers: []string{"Cy", "Di"}, Sessions: []Session{
				{ID: "session_1", Time: utc("2024-05-05T14:15:00Z"), Turns: []Turn{
					{ID: "D1:1", Speaker: "Cy", Text: "Hello.", Time: utc("2024-05-05T14:15:00Z")},
				}},
			}},
		},
		Questions: []Question{
			{ID: "locomo_0_qa0", Conversation: "trip-1", Text: "How did Ada travel to the island?", Evidence: []string{"D1:1"}, Category: SingleHop, Answer: "By ferry"},
			{ID: "locomo_0_qa1", Conversation: "trip-1", Text: "What broke the kite?", Evidence: []string{"D1:2", "D2:1"}, Category: MultiHop, Answer: "A storm"},
			{ID: "locomo_0_qa2", Conversation: "trip-1", Text: "In which year did the kite break?", Evidence: []string{"D2:1"}, Category: Temporal, Answer: "2024"},
			{ID: "locomo_0_qa3", Conversation: "trip-1", Text: "What would Bo fly at a beach?", Category: OpenDomain, Answer: "A kite"},
			{ID: "locomo_0_qa4", Conversation: "trip-1", Text: "Which boat did Bo book?", Evidence: []string{"D1:1", "D10:2", "D9:9"}, Category: Adversarial},
			{ID: "locomo_1_qa0", Conversation: "conv-1", Text: "Who greeted?", Category: "category-7", Answer: "Cy"},
		},
		Warnings: []string{
			`locomo_0_qa2: evidence "D" holds no turn id`,
			`locomo_0_qa3: no evidence; recall skips it`,
			`locomo_1_qa0: evidence "D:1:1" holds no turn id`,
			`locomo_1_qa0: no evidence; recall skips it`,
			`locomo_0_qa4: evidence D9:9 names no turn of trip-1`,
		},
	}
	if !reflect.DeepEqual(ds, want) {
		t.Errorf("got  %+v\nwant %+v", ds, want)
	}
}

func TestLoadLoCoMoErrors(t *testing.T) {
	turn := `[{"speaker":"A","dia_id":"D1:1","text":"hi"}]`
	tests := []struct{ name, in, want string }{
		{"not json", `{`, "unexpected EOF"},
		{"not a list", `{"a":1}`, "cannot unmarshal"},
		{"no date", `[{"conversation":{"session_1":` + turn + `},"qa":[]}]`, "session_1 has turns but no session_1_date_time"},
		{"bad date", `[{"conversation":{"session_1":` + turn + `,"session_1_date_time":"yesterday"},"qa":[]}]`, `parse session date "yesterday"`},
		{"duplicate dia_id", `[{"conversation":{"session_1":` + turn + `,"session_1_date_time":"1:00 pm on 1 May, 2023","session_2":` + turn + `,"session_2_date_time":"1:00 pm on 2 May, 2023"},"qa":[]}]`, `dia_id "D1:1" already used in session_1`},
		{"no dia_id", `[{"conversation":{"session_1":[{"speaker":"A","text":"x"}],"session_1_date_time":"1:00 pm on 1 May, 2023"},"qa":[]}]`, "turn 0 has no dia_id"},
		{"no category", `[{"conversation":{},"qa":[{"question":"q","evidence":[]}]}]`, "locomo_0_qa0: no category"},
		{"duplicate sample", `[{"sample_id":"x","conversation":{},"qa":[]},{"sample_id":"x","conversation":{},"qa":[]}]`, `conversation id "x" already used by sample 0`},
		{"turns not objects", `[{"conversation":{"session_1":[1],"session_1_date_time":"1:00 pm on 1 May, 2023"},"qa":[]}]`, "session_1: json: cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadLoCoMo(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "load locomo: ") {
				t.Errorf("error %q does not name the operation", err)
			}
		})
	}
}

func TestParseSessionTime(t *testing.T) {
	tests := []struct {
		in   string
		want string // RFC 3339, or "" for an error
	}{
		{"1:56 pm on 8 May, 2023", "2023-05-08T13:56:00Z"},
		{"12:09 am on 13 September, 2023", "2023-09-13T00:09:00Z"},
		{"12:30 pm on 1 January, 2024", "2024-01-01T12:30:00Z"},
		{"  1:56 PM on 08 may, 2023 ", "2023-05-08T13:56:00Z"},
		{"1:56pm on 8 May 2023", "2023-05-08T13:56:00Z"},
		{"1:56 p.m. on 8 May, 2023", "2023-05-08T13:56:00Z"},
		{"1:56 pm on May 8, 2023", "2023-05-08T13:56:00Z"},
		{"1:56 pm on 8 Sep, 2023", "2023-09-08T13:56:00Z"},
		{"13:56 on 8 May, 2023", "2023-05-08T13:56:00Z"},
		{"8 May, 2023", "2023-05-08T00:00:00Z"},
		{"2023-05-08T13:56:00+02:00", "2023-05-08T11:56:00Z"},
		{"2023-05-08 13:56", "2023-05-08T13:56:00Z"},
		{"", ""},
		{"yesterday", ""},
		{"13:56 pm on 8 May, 2023", ""},
		{"1:56 pm on 31 February, 2023", ""},
		{"1:56 pm on 8 Mayo, 2023", ""},
	}
	for _, tt := range tests {
		got, err := parseSessionTime(tt.in)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("parseSessionTime(%q) = %v, want an error", tt.in, got)
		case tt.want != "" && err != nil:
			t.Errorf("parseSessionTime(%q): %v", tt.in, err)
		case tt.want != "" && !got.Equal(utc(tt.want)):
			t.Errorf("parseSessionTime(%q) = %v, want %s", tt.in, got, tt.want)
		case err == nil && got.Location() != time.UTC:
			t.Errorf("parseSessionTime(%q) in %v, want UTC", tt.in, got.Location())
		}
	}
}

func TestParseEvidence(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"D1:3", []string{"D1:3"}},
		{" D1:3 ", []string{"D1:3"}},
		{"D8:6; D9:17", []string{"D8:6", "D9:17"}},
		{"D9:1 D4:4 D4:6", []string{"D9:1", "D4:4", "D4:6"}},
		{"D30:05", []string{"D30:5"}},
		{"D0:00", []string{"D0:0"}},
		{"D1:3 D1:3", []string{"D1:3", "D1:3"}},
		{"D99999999999999999999999:1", []string{"D99999999999999999999999:1"}},
		{"D", nil},
		{"D:11:26", nil},
		{"", nil},
		{"d1:3", nil},
	}
	for _, tt := range tests {
		if got := parseEvidence(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("parseEvidence(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLoadFileErrors(t *testing.T) {
	if _, err := LoadFile("csv", "x.csv"); err == nil || !strings.Contains(err.Error(), `unknown format "csv"`) {
		t.Errorf("unknown format: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "absent.json")
	if _, err := LoadFile(FormatLoCoMo, missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent file: %v", err)
	}
}
