package redact

import "strings"

// Assignments: key = value, key: value, "key": "value", key => value,
// key := value, the way .env files, shell, YAML, TOML, INI, JSON, HTTP
// headers and Python/JS/Go literals write a credential; and key value after
// one space for --flags, snake_case setting names (aws configure set
// aws_secret_access_key …) and .netrc's "login x password y".
//
// The key is the word run before the operator (quotes around it allowed).
// Lower-cased, with separators, trailing digits and a value/b64/base64/hex
// suffix dropped, it must END in a stem:
//
//	password passwd passphrase pwd, _pass, pass → password-assignment
//	token                                       → token-assignment
//	apikey accesskey secretkey privatekey signingkey encryptionkey
//	masterkey accountkey licensekey authkey appkey subscriptionkey
//	serverkey adminkey                          → api-key-assignment
//	secret credential(s) authorization auth     → secret-assignment
//
// so DB_PASSWORD, client_secret, x-api-key and AWS_SECRET_ACCESS_KEY match
// while max_tokens, token_type, secretName and password_min_length do not.
// PWD and OLDPWD (directories) and page/next/continuation/sync/cursor
// tokens (pagination) are not secrets. A key that also names a provider
// gets the provider's kind: AWS_SECRET_ACCESS_KEY → aws-secret-key,
// COHERE_API_KEY → cohere-api-key, AccountKey= → azure-storage-key.
//
// The value is the quoted string after the operator (also \"…\" in
// JSON-escaped text), or bare text up to whitespace, a quote, a backslash,
// one of , ) ] } < > |, or a & or ; that starts another key= (a query or
// connection string). It is left alone when it is:
//
//   - a placeholder: starting with $ < { [ % (${TOKEN}, $TOKEN, $(cmd),
//     <your password>, {{ secrets.X }}, %s, [REDACTED:…]), a mask (****,
//     xxxx, a…z), or a stock word (password, changeme, example, none, null,
//     true, string, your_api_key, paste-token-here…);
//   - code, when bare: a call or index (getpass(), env["X"]), a dotted path
//     (os.environ, cfg.Token, process.env.KEY), a YAML tag or alias (!vault,
//     *ref), or, in a lower-case key, a bare word (type annotations such as
//     password: str, identifiers such as token = tok);
//   - anything with whitespace or a control byte (UI labels such as
//     "Enter your password").
//
// What remains is judged by strength only for tokens: a password is
// redacted however weak, because a weak real password and a sample one
// look alike (password=hunter2 is redacted). In a lower-case key a password
// needs a digit or a symbol, since a bare word there is more often a label
// or a type; in an UPPER_CASE env key any 4+ bytes do (POSTGRES_PASSWORD=
// postgres is redacted). Tokens, keys and secrets need 8+ bytes that look
// random: letters and digits, or both letter cases over 16+ bytes.
//
// key.go holds the key half of the rule and value.go the value half.

// contextKinds are the kinds that come from context rather than from a
// token rule.
var contextKinds = []string{
	"url-password", "bearer-token", "basic-auth",
	"password-assignment", "token-assignment", "api-key-assignment", "secret-assignment",
	"aws-secret-key", "aws-session-token", "azure-storage-key", "azure-sas-key", "azure-sas-token",
	"cohere-api-key", "mistral-api-key", "heroku-api-key", "twilio-auth-token",
	"datadog-api-key", "cloudflare-api-token",
}

// assignment looks for an operator after the key run s[a:e] and, when the
// key names a secret, for a value worth redacting.
func (sc *scanner) assignment(a, e int) {
	s := sc.s
	j := operator(s, a, e)
	if j < 0 {
		return
	}
	key := s[a:e]
	if key == "sig" && a > 0 && (s[a-1] == '&' || s[a-1] == '?') && s[e] == '=' {
		// An Azure shared access signature in a URL query.
		n := csSAS.span(s, j, maxValue)
		if n >= 20 {
			sc.add("azure-sas-token", j, j+n, prioProvider)
		}
		return
	}
	if equalFold(key, "key") || equalFold(key, "name") {
		sc.namedValue(j)
		return
	}
	kind, class, prio, ok := keyKind(key)
	if !ok {
		return
	}
	vs, ve, quoted := value(s, j)
	if ve <= vs {
		return
	}
	if ve+1 < len(s) && s[ve] == ' ' && s[ve+1] > ' ' && hasSuffixFold(key, "authorization") {
		return // a scheme and its parameters: AWS4-HMAC-SHA256 Credential=…
	}
	if plausible(s[vs:ve], class, quoted, envKey(key)) {
		sc.addValue(kind, vs, ve, prio)
	}
}

// addValue records an assignment value and remembers where it ends: a
// key inside a redacted value is part of it, and skipping such keys keeps
// text such as password=password=… linear.
func (sc *scanner) addValue(kind string, vs, ve int, prio int8) {
	sc.add(kind, vs, ve, prio)
	sc.valueEnd = max(sc.valueEnd, ve)
}

// namedValue handles a secret named by one field and held by the next:
// <add key="ApiKey" value="…"/> in .NET config and "- name: DB_PASSWORD"
// then "value: …" in a Kubernetes manifest. j is where the name starts.
func (sc *scanner) namedValue(j int) {
	s := sc.s
	ns, ne, _ := value(s, j)
	if ne <= ns {
		return
	}
	name := s[ns:ne]
	kind, class, prio, ok := keyKind(name)
	if !ok {
		return
	}
	k := ne
	if k < len(s) && (s[k] == '"' || s[k] == '\'') {
		k++
	}
	for lim := min(len(s), k+64); k < lim; k++ {
		if c := s[k]; c == '\\' && k+1 < lim && (s[k+1] == 'n' || s[k+1] == 'r' || s[k+1] == '"') {
			k++
		} else if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',' && c != '"' {
			break
		}
	}
	e := k + len("value")
	if !hasPrefixFold(s[k:], "value") || (e < len(s) && isWord(s[e])) {
		return
	}
	if j = operator(s, k, e); j < 0 {
		return
	}
	vs, ve, quoted := value(s, j)
	if ve > vs && plausible(s[vs:ve], class, quoted, envKey(name)) {
		sc.addValue(kind, vs, ve, prio)
	}
}

// element handles <password>…</password> and the like (Maven settings,
// .NET and other XML configuration). s[a:e] is the tag name.
func (sc *scanner) element(a, e int) {
	s := sc.s
	kind, class, prio, ok := keyKind(s[a:e])
	if !ok {
		return
	}
	vs := e + 1
	k := strings.IndexByte(s[vs:min(len(s), vs+maxValue)], '<')
	if k <= 0 || !strings.HasPrefix(s[vs+k:], "</") {
		return
	}
	if plausible(s[vs:vs+k], class, true, envKey(s[a:e])) {
		sc.addValue(kind, vs, vs+k, prio)
	}
}

var csSAS = newCharset("A-Za-z0-9%+/=")

// operator returns where the value starts if an assignment operator follows
// the key run s[a:e], or -1.
func operator(s string, a, e int) int {
	n := len(s)
	j := e
	if j >= n {
		return -1
	}
	switch {
	case s[j] == '"' || s[j] == '\'':
		j++
	case s[j] == '\\' && j+1 < n && s[j+1] == '"':
		j += 2
	}
	if j < n && s[j] == ']' { // env["API_KEY"] = …
		j++
	}
	j = skipBlanks(s, j, 8)
	if j >= n {
		return -1
	}
	switch s[j] {
	case '=':
		if j+1 < n && (s[j+1] == '=' || s[j+1] == '~') {
			return -1 // a comparison
		}
		j++
		if j < n && s[j] == '>' {
			j++
		}
	case ':':
		if j+1 < n && s[j+1] == ':' {
			return -1 // a scope operator
		}
		j++
		if j < n && s[j] == '=' {
			j++
		}
	default:
		if s[e] == ' ' && spaceValue(s, a, e) {
			return e + 1
		}
		return -1
	}
	return skipBlanks(s, j, 8)
}

// spaceValue reports whether the key run s[a:e], followed by one space,
// takes the next word as its value: a --flag, a snake_case setting name
// (aws configure set aws_secret_access_key …), or a .netrc password.
func spaceValue(s string, a, e int) bool {
	if e+1 >= len(s) || s[e+1] == ' ' || s[e+1] == '-' {
		return false
	}
	key := s[a:e]
	switch {
	case !spaceKey(key):
		return false
	case key[0] == '-':
		return strings.HasPrefix(key, "--")
	case strings.IndexByte(key, '_') > 0:
		return snakeCase(key)
	case key == "password":
		return strings.Contains(s[max(0, a-80):a], "login ")
	}
	return false
}

// spaceKey is spaceValue's cheap first test on the key alone.
func spaceKey(key string) bool {
	if key[0] == '-' || key == "password" {
		return true
	}
	for i := 1; i < len(key); i++ { // a loop beats IndexByte on short words
		if key[i] == '_' {
			return true
		}
	}
	return false
}

// snakeCase reports lower_case_words with at least one inner underscore.
func snakeCase(key string) bool {
	inner := false
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '_':
			inner = inner || (i > 0 && i < len(key)-1)
		case 'a' <= c && c <= 'z', isDigit(c):
		default:
			return false
		}
	}
	return inner
}

func skipBlanks(s string, j, most int) int {
	for k := 0; j < len(s) && k < most && (s[j] == ' ' || s[j] == '\t'); k++ {
		j++
	}
	return j
}
