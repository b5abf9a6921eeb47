package codex

import (
	"bytes"
	"encoding/json"
)

// zstdMagic opens every zstd frame.
var zstdMagic = []byte{0x28, 0xB5, 0x2F, 0xFD}

// IsZstd reports whether head starts a zstd frame, as a compressed rollout
// (.jsonl.zst) does. Decompress before calling Sniff.
func IsZstd(head []byte) bool {
	return bytes.HasPrefix(head, zstdMagic)
}

// Sniff reports whether head, the first few KB of a plain stream, looks like
// a Codex rollout: a JSON object whose "type" is a rollout record type, with
// a "timestamp" and an object "payload". The first line is often longer than
// head (session_meta holds the whole system prompt), so a cut-off line is
// judged on the keys read before the cut.
func Sniff(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	var typ string
	var hasTS, payload bool
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := kt.(string)
		switch key {
		case "type", "timestamp":
			vt, err := dec.Token()
			if err != nil {
				return decide(typ, hasTS, payload)
			}
			s, ok := vt.(string)
			if !ok {
				return false
			}
			if key == "type" {
				typ = s
			} else {
				hasTS = true
			}
		case "payload":
			vt, err := dec.Token()
			if err != nil {
				return decide(typ, hasTS, payload)
			}
			if vt != json.Delim('{') {
				return false
			}
			payload = true
			if typ != "" {
				// Nothing after the payload changes the answer.
				return decide(typ, hasTS, payload)
			}
			if !skipRest(dec, 1) {
				return decide(typ, hasTS, payload)
			}
		default:
			if !skipValue(dec) {
				return decide(typ, hasTS, payload)
			}
		}
	}
	return decide(typ, hasTS, payload)
}

func decide(typ string, hasTS, payload bool) bool {
	switch typ {
	case "session_meta":
		return payload || hasTS
	case "response_item", "event_msg", "turn_context", "compacted":
		return payload && hasTS
	}
	return false
}

// skipValue consumes one value; it reports false when the input ends first.
func skipValue(dec *json.Decoder) bool {
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
		return skipRest(dec, 1)
	}
	return true
}

// skipRest consumes tokens until depth open containers are closed.
func skipRest(dec *json.Decoder, depth int) bool {
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
		}
	}
	return true
}
