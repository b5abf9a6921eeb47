// Package redact scrubs secrets and private spans from text before cairn
// stores, indexes, logs or sends it anywhere. Everything derived from a
// transcript passes through a Redactor first.
//
// Three families of rules run in one pass over the text:
//
//   - token shapes: credentials that announce themselves by a prefix or a
//     fixed structure (ghp_…, sk-ant-…, AKIA…, JWTs, PEM private keys, Slack
//     webhooks…). The whole token becomes [REDACTED:<kind>].
//   - credential context: URLs with a password (scheme://user:pw@host),
//     Authorization: Bearer/Basic headers. Only the credential is replaced.
//   - assignments: key = value, key: value, "key": "value", --key=value, where
//     the key names a secret (password, token, api_key, client_secret…) and the
//     value looks like a real one rather than a placeholder or code. The key is
//     kept and only the value is replaced. assign.go documents the rule.
//
// <private>…</private> spans (any letter case, an unclosed one runs to the
// end of the text) are removed before secrets are looked for, so text joined
// across a removed span is scanned as it will be stored.
//
// RedactJSON applies the same rules to the decoded string values of a JSON
// document (a value under a key such as "password" is judged as an
// assignment), and Match lets a write point refuse a credential-shaped
// value without ever echoing it.
//
// The scan is built for speed on ordinary text: it walks runs of token bytes
// once and only looks closer at a run whose first byte, length or following
// byte could start a rule, so prose and code without candidates cost little
// more than a table lookup per byte.
//
// Redaction is defence in depth. A secret with no recognisable shape and no
// naming context can still pass.
package redact
