package redact

import "strings"

// stem is a key ending that names a secret, with the kind and the value
// class it implies.
type stem struct {
	stem  string
	kind  string
	class valueClass
}

// keyStems are the endings listed in assign.go.
var keyStems = []stem{
	{"password", "password-assignment", classPassword},
	{"passwd", "password-assignment", classPassword},
	{"passphrase", "password-assignment", classPassword},
	{"pwd", "password-assignment", classPassword},
	{"token", "token-assignment", classToken},
	{"apikey", "api-key-assignment", classToken},
	{"accesskey", "api-key-assignment", classToken},
	{"secretkey", "api-key-assignment", classToken},
	{"privatekey", "api-key-assignment", classToken},
	{"signingkey", "api-key-assignment", classToken},
	{"encryptionkey", "api-key-assignment", classToken},
	{"masterkey", "api-key-assignment", classToken},
	{"accountkey", "api-key-assignment", classToken},
	{"licensekey", "api-key-assignment", classToken},
	{"authkey", "api-key-assignment", classToken},
	{"appkey", "api-key-assignment", classToken},
	{"subscriptionkey", "api-key-assignment", classToken},
	{"serverkey", "api-key-assignment", classToken},
	{"adminkey", "api-key-assignment", classToken},
	{"secret", "secret-assignment", classToken},
	{"credential", "secret-assignment", classToken},
	{"credentials", "secret-assignment", classToken},
	{"authorization", "secret-assignment", classToken},
	{"auth", "secret-assignment", classToken},
	{"pass", "password-assignment", classPassword}, // only alone or as _pass
}

// keyKind decides whether key names a secret, and which kind.
func keyKind(key string) (kind string, class valueClass, prio int8, ok bool) {
	if !stemTail(key) {
		return "", 0, 0, false
	}
	if len(key) > 64 {
		key = key[len(key)-64:]
	}
	var buf [64]byte
	k := buf[:0]
	for i := 0; i < len(key); i++ {
		c := lower(key[i])
		if ('a' <= c && c <= 'z') || isDigit(c) {
			k = append(k, c)
		}
	}
	for len(k) > 0 && isDigit(k[len(k)-1]) {
		k = k[:len(k)-1]
	}
	norm := string(k)
	for _, suf := range []string{"value", "base64", "b64", "hex"} {
		if len(norm) > len(suf) && strings.HasSuffix(norm, suf) {
			norm = norm[:len(norm)-len(suf)]
			break
		}
	}
	if norm == "" {
		return "", 0, 0, false
	}
	for _, st := range stemsByLast[norm[len(norm)-1]] {
		if !strings.HasSuffix(norm, st.stem) {
			continue
		}
		switch st.stem {
		case "pwd":
			if norm == "pwd" || norm == "oldpwd" { // working directories
				return "", 0, 0, false
			}
		case "token":
			for _, x := range []string{"pagetoken", "nexttoken", "continuationtoken", "synctoken", "cursortoken"} {
				if strings.HasSuffix(norm, x) { // pagination cursors
					return "", 0, 0, false
				}
			}
		case "pass":
			if norm != "pass" && !hasSuffixFold(key, "_pass") && !hasSuffixFold(key, "-pass") {
				return "", 0, 0, false // bypass, compass
			}
		}
		if st.class == classToken {
			if p := providerKind(norm); p != "" {
				return p, classToken, prioProvider, true
			}
		}
		return st.kind, st.class, prioAssignment, true
	}
	return "", 0, 0, false
}

// stemsByLast indexes keyStems by their last byte, so most keys are turned
// away after one lookup.
var stemsByLast = func() (t [256][]stem) {
	for _, st := range keyStems {
		c := st.stem[len(st.stem)-1]
		t[c] = append(t[c], st)
	}
	return t
}()

// stemTail is keyKind's cheap first test: the last two letters of the key
// (after trailing digits and separators) must be those of a stem or of a
// stripped suffix. Most keys (type, text, id, content…) stop here.
func stemTail(key string) bool {
	i := len(key) - 1
	for i >= 0 && !csLetters[key[i]] {
		i--
	}
	j := i - 1
	for j >= 0 && !csAlnum[key[j]] {
		j--
	}
	if j < 0 {
		return false
	}
	c1, c2 := lower(key[j]), lower(key[i])
	switch c2 {
	case 'd': // password, passwd, pwd
		return c1 == 'r' || c1 == 'w'
	case 'e': // passphrase, base64, value
		return c1 == 's' || c1 == 'u'
	case 'n': // token, authorization
		return c1 == 'e' || c1 == 'o'
	case 'y', 't', 'x': // …key, secret, hex
		return c1 == 'e'
	case 'l': // credential
		return c1 == 'a'
	case 's': // credentials, pass
		return c1 == 'l' || c1 == 's'
	case 'h': // auth
		return c1 == 't'
	case 'b': // b64
		return true
	}
	return false
}

// providerKind names the provider a secret-naming key belongs to, if any.
func providerKind(norm string) string {
	has := func(x string) bool { return strings.Contains(norm, x) }
	switch {
	case has("secretaccesskey"), has("aws") && (strings.HasSuffix(norm, "secret") || strings.HasSuffix(norm, "secretkey")):
		return "aws-secret-key"
	case has("sessiontoken") && (has("aws") || norm == "sessiontoken"):
		return "aws-session-token"
	case strings.HasSuffix(norm, "sharedaccesskey"):
		return "azure-sas-key"
	case strings.HasSuffix(norm, "accountkey"):
		return "azure-storage-key"
	case has("cohere"):
		return "cohere-api-key"
	case has("mistral"):
		return "mistral-api-key"
	case has("heroku"):
		return "heroku-api-key"
	case has("twilio"):
		return "twilio-auth-token"
	case has("datadog"), strings.HasPrefix(norm, "ddapi"), strings.HasPrefix(norm, "ddapp"):
		return "datadog-api-key"
	case has("cloudflare"), strings.HasPrefix(norm, "cfapi"):
		return "cloudflare-api-token"
	}
	return ""
}

// envKey reports whether key is written like an environment variable
// (DB_PASSWORD), where a bare word value is a literal, not an identifier.
func envKey(key string) bool {
	letter := false
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case 'A' <= c && c <= 'Z':
			letter = true
		case isDigit(c) || c == '_':
		default:
			return false
		}
	}
	return letter
}
