package redact

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// benchText builds about 1 MiB of transcript-like text from testdata:
// prose, code, JSON tool output and logs. With secrets, a marked line of
// the positive corpus follows every copy (one secret per ~4 KiB).
func benchText(b *testing.B, secrets bool) string {
	b.Helper()
	base, err := os.ReadFile("testdata/bench.txt")
	if err != nil {
		b.Fatal(err)
	}
	var pos []string
	if secrets {
		for _, l := range corpusLines(b, "testdata/positive.txt") {
			text, _ := parseMarks(b, l)
			pos = append(pos, text)
		}
	}
	var sb strings.Builder
	for i := 0; sb.Len() < 1<<20; i++ {
		sb.Write(base)
		if secrets {
			sb.WriteString(pos[i%len(pos)])
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

func BenchmarkRedact(b *testing.B) {
	r := Default()
	for _, c := range []struct {
		name    string
		secrets bool
	}{{"clean", false}, {"secrets", true}} {
		s := benchText(b, c.secrets)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			b.ReportAllocs()
			for b.Loop() {
				r.Redact(s)
			}
		})
	}
}

// BenchmarkRedactJSON runs a transcript-shaped JSON document: an array of
// messages whose text fields hold the benchmark text in paragraphs.
func BenchmarkRedactJSON(b *testing.B) {
	r := Default()
	for _, c := range []struct {
		name    string
		secrets bool
	}{{"clean", false}, {"secrets", true}} {
		type msg struct {
			Type string `json:"type"`
			Role string `json:"role"`
			Text string `json:"text"`
		}
		var msgs []msg
		for _, p := range strings.Split(benchText(b, c.secrets), "\n\n") {
			msgs = append(msgs, msg{"text", "assistant", p})
		}
		raw, err := json.Marshal(msgs)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				r.RedactJSON(raw)
			}
		})
	}
}
