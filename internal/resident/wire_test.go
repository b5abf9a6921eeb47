package resident

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestRequestRoundTrip(t *testing.T) {
	cases := []Request{
		{Kind: Hook, Exe: "/usr/bin/cairn", Args: []string{"claude-code", "UserPromptSubmit"}, Env: []string{"HOME=/u", "EMPTY="}, Dir: "/src", Stdin: []byte(`{"prompt":"hi"}`)},
		{Kind: Status},
		{Kind: Stop, Args: []string{""}, Stdin: bytes.Repeat([]byte("x"), 200_000)},
	}
	for _, want := range cases {
		var b bytes.Buffer
		if err := WriteRequest(&b, want); err != nil {
			t.Fatal(err)
		}
		got, err := ReadRequest(&b)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Stdin) == 0 {
			want.Stdin = []byte{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", got, want)
		}
	}
}

func TestAnswerRoundTrip(t *testing.T) {
	for _, want := range []Answer{{Code: Done, Stdout: []byte("{}\n"), Message: ""}, {Code: RunYourself, Stdout: []byte{}, Message: "another binary"}} {
		var b bytes.Buffer
		if err := WriteAnswer(&b, want); err != nil {
			t.Fatal(err)
		}
		got, err := ReadAnswer(&b)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("got %+v, %v; want %+v", got, err, want)
		}
	}
}

func TestBadMessagesNameTheProblem(t *testing.T) {
	var ok bytes.Buffer
	_ = WriteRequest(&ok, Request{Kind: Hook, Args: []string{"codex", "Stop"}})
	good := ok.Bytes()
	cases := map[string]struct {
		in   []byte
		want string
	}{
		"empty":       {nil, "EOF"},
		"other magic": {[]byte("cairn-resident/9\n\x00"), "another version"},
		"truncated":   {good[:len(good)-3], "field"},
		"huge field":  {append([]byte(magic), 0xff, 0xff, 0xff, 0xff, 0x0f), "over the limit"},
		"bad kind":    {func() []byte { var b bytes.Buffer; _ = WriteRequest(&b, Request{Kind: "rm -rf"}); return b.Bytes() }(), "unknown kind"},
	}
	for name, c := range cases {
		_, err := ReadRequest(bytes.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want it to mention %q", name, err, c.want)
		}
	}
	if err := WriteRequest(&bytes.Buffer{}, Request{Kind: Hook, Stdin: make([]byte, MaxMessage)}); err == nil {
		t.Error("an oversized request was encoded")
	}
}

func FuzzReadRequest(f *testing.F) {
	var b bytes.Buffer
	_ = WriteRequest(&b, Request{Kind: Hook, Exe: "/c", Args: []string{"claude-code", "Stop"}, Env: []string{"A=b"}, Stdin: []byte("{}")})
	f.Add(b.Bytes())
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := ReadRequest(bytes.NewReader(in))
		if err != nil {
			return
		}
		// Whatever decodes encodes back to a request that decodes the same.
		var out bytes.Buffer
		if err := WriteRequest(&out, r); err != nil {
			t.Fatal(err)
		}
		again, err := ReadRequest(&out)
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("re-decoded %+v, %v; first %+v", again, err, r)
		}
	})
}
