package redact

import (
	"encoding/base64"
	"strings"
)

// maxPEM bounds how far a BEGIN line looks for its END line. An 8192-bit
// RSA key is under 7 KiB; PGP key blocks can be larger.
const maxPEM = 64 << 10

const (
	hexLower  = "0123456789abcdef"
	alnumAll  = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	digitsAll = "0123456789"
)

// structured lists the token shapes that need more than a prefix and a body.
func structured() []*rule {
	return []*rule{
		{kind: "private-key", first: "-", minRun: len("-----BEGIN"), match: matchPEM},
		{kind: "private-key", first: "L", minRun: len(pemBase64), match: matchPEMBase64},
		{kind: "jwt", first: "e", after: '.', minRun: 13, match: matchJWT},
		{kind: "discord-bot-token", first: "MNO", after: '.', minRun: 23, match: matchDiscordBot},
		{kind: "discord-webhook", first: "d", after: '.', minRun: len("discord"), match: matchDiscordWebhook},
		{kind: "slack-webhook", first: "h", after: '.', minRun: len("hooks"), match: matchSlackWebhook},
		{kind: "teams-webhook", first: "w", after: '.', minRun: len("webhook"), match: matchTeamsWebhook},
		{kind: "telegram-bot-token", first: digitsAll, after: ':', minRun: 5, match: matchTelegram},
		{kind: "sendgrid-api-key", first: "S", after: '.', minRun: 2, match: matchSendGrid},
		{kind: "mailchimp-api-key", first: hexLower, minRun: 35, match: matchMailchimp},
		{kind: "braintree-access-token", first: "a", after: '$', minRun: len("access_token"), match: matchBraintree},
		{kind: "hashicorp-tf-token", first: alnumAll, after: '.', minRun: 14, match: matchTerraform},
		{kind: "mapbox-token", first: "s", after: '.', minRun: 2, match: matchMapbox},
		{kind: "airtable-token", first: "p", after: '.', minRun: 17, match: matchAirtable},
		{kind: "fcm-server-key", first: "A", after: ':', minRun: 11, match: matchFCM},
		{kind: "azure-ad-client-secret", first: alnumAll + "_-", after: '~', minRun: 2, match: matchAzureAD},
	}
}

// dotted matches word segments joined by single dots starting at i and
// returns the end and the segment count.
func dotted(s string, i, maxSegs int) (end, segs int) {
	end = i
	for segs < maxSegs {
		n := csWord.span(s, end, len(s))
		if n == 0 {
			break
		}
		end += n
		segs++
		if end+1 < len(s) && s[end] == '.' && isWord(s[end+1]) && segs < maxSegs {
			end++
			continue
		}
		break
	}
	return end, segs
}

// matchJWT takes header.payload.signature (and the two extra segments of
// an encrypted token); both JSON parts start with eyJ or ey.
func matchJWT(s string, a, e int) (int, int) {
	if !strings.HasPrefix(s[a:], "eyJ") || !strings.HasPrefix(s[e+1:], "ey") {
		return 0, -1
	}
	p := csWord.span(s, e+1, len(s))
	if p < 10 {
		return 0, -1
	}
	k := e + 1 + p
	if k >= len(s) || s[k] != '.' {
		return 0, -1
	}
	end, _ := dotted(s, k+1, 3)
	if end == k+1 { // no signature: alg "none"
		end = k + 1
	}
	return a, end
}

func matchPEM(s string, a, _ int) (int, int) {
	const begin = "-----BEGIN "
	if !strings.HasPrefix(s[a:], begin) {
		return 0, -1
	}
	i := a + len(begin)
	lim := min(len(s), i+64)
	j := strings.Index(s[i:lim], "-----")
	if j < 0 {
		return 0, -1
	}
	label := s[i : i+j]
	if csPEMLabel.span(label, 0, len(label)) != len(label) ||
		!strings.HasSuffix(label, "PRIVATE KEY") && !strings.HasSuffix(label, "PRIVATE KEY BLOCK") {
		return 0, -1
	}
	hdr := i + j + 5
	if p := pemEnd(s, hdr); p > 0 {
		if q := strings.Index(s[p:min(len(s), p+80)], "-----"); q >= 0 {
			return a, p + q + 5
		}
		return a, p
	}
	return a, pemBody(s, hdr)
}

// pemEnd returns the index just after the "-----END " that closes the
// block whose body starts at i, or -1 when another BEGIN or the search
// window comes first. Stopping at the next BEGIN keeps a run of unclosed
// blocks linear.
func pemEnd(s string, i int) int {
	lim := min(len(s), i+maxPEM)
	for i < lim {
		k := strings.Index(s[i:lim], "-----")
		if k < 0 {
			return -1
		}
		i += k
		switch {
		case strings.HasPrefix(s[i:], "-----END "):
			return i + len("-----END ")
		case strings.HasPrefix(s[i:], "-----BEGIN "):
			return -1
		}
		i += 5
	}
	return -1
}

// pemBody extends an unterminated key (a truncated tool output, say) over
// the lines that look like its body: base64 lines and "Name: value" headers,
// separated by real or escaped line breaks.
func pemBody(s string, i int) int {
	end := i
	lim := min(len(s), i+maxPEM)
	k := i
	for k < lim {
		switch {
		case s[k] == '\n' || s[k] == '\r' || s[k] == ' ' || s[k] == '\t':
			k++
			continue
		case s[k] == '\\' && k+1 < lim && (s[k+1] == 'n' || s[k+1] == 'r'):
			k += 2
			continue
		}
		line := k
		for k < lim && s[k] != '\n' && s[k] != '\r' && s[k] != '\\' {
			k++
		}
		if !pemLine(s[line:k]) {
			break
		}
		end = k
	}
	return end
}

func pemLine(l string) bool {
	if l == "" {
		return false
	}
	if c := strings.IndexByte(l, ':'); c > 0 && csWord.span(l, 0, c) == c {
		return true // Proc-Type: 4,ENCRYPTED and the like
	}
	return csBase64.span(l, 0, len(l)) == len(l)
}

// pemBase64 is "-----BEGIN" in base64, the way a Kubernetes secret or a
// CI variable holds a key (tls.key: LS0tLS1CRUdJTi…).
const pemBase64 = "LS0tLS1CRUdJTi"

func matchPEMBase64(s string, a, _ int) (int, int) {
	if !strings.HasPrefix(s[a:], pemBase64) {
		return 0, -1
	}
	n := csBase64.span(s, a, maxPEM)
	if n < 40 || (a+n < len(s) && isWord(s[a+n])) {
		return 0, -1
	}
	head, err := base64.StdEncoding.DecodeString(s[a : a+min(n, 96)&^3])
	if err != nil || !strings.Contains(string(head), "PRIVATE KEY") {
		return 0, -1
	}
	return a, a + n
}

func matchDiscordBot(s string, a, e int) (int, int) {
	if e-a > 28 || !hasDigit(s[a:e]) {
		return 0, -1
	}
	p := csWord.span(s, e+1, 8)
	if p < 6 || p > 7 || e+1+p >= len(s) || s[e+1+p] != '.' {
		return 0, -1
	}
	k := e + 2 + p
	q := csWord.span(s, k, 41)
	if q < 27 || q > 40 {
		return 0, -1
	}
	return a, k + q
}

// urlTail matches a URL path that starts with one of heads at a and goes on
// with at least min bytes of body.
func urlTail(s string, a int, heads []string, body *charset, min int) (int, int) {
	for _, h := range heads {
		if strings.HasPrefix(s[a:], h) {
			j := a + len(h)
			n := body.span(s, j, 1024)
			for n > 0 && s[j+n-1] == '.' {
				n--
			}
			if n < min {
				return 0, -1
			}
			return a, j + n
		}
	}
	return 0, -1
}

var (
	slackHeads   = []string{"hooks.slack.com/services/", "hooks.slack.com/workflows/", "hooks.slack.com/triggers/"}
	discordHeads = []string{"discord.com/api/webhooks/", "discordapp.com/api/webhooks/"}
	teamsHeads   = []string{"webhook.office.com/webhookb2/"}
	csHookPath   = newCharset("A-Za-z0-9/_+-")
	csTeamsPath  = newCharset("A-Za-z0-9@/_.-")
	csLowerDig   = newCharset("0-9a-z")
	csPEMLabel   = newCharset("A-Z0-9 ")
)

func matchSlackWebhook(s string, a, _ int) (int, int) {
	return urlTail(s, a, slackHeads, csHookPath, 20)
}

func matchDiscordWebhook(s string, a, _ int) (int, int) {
	return urlTail(s, a, discordHeads, csHookPath, 60)
}

func matchTeamsWebhook(s string, a, _ int) (int, int) {
	return urlTail(s, a, teamsHeads, csTeamsPath, 40)
}

// matchTelegram takes <bot id>:<35 bytes starting with A>.
func matchTelegram(s string, a, e int) (int, int) {
	if n := e - a; n > 16 || csDigits.span(s, a, n) != n {
		return 0, -1
	}
	if e+1 >= len(s) || s[e+1] != 'A' {
		return 0, -1
	}
	if csWord.span(s, e+1, 36) != 35 {
		return 0, -1
	}
	return a, e + 36
}

func matchSendGrid(s string, a, e int) (int, int) {
	if e-a != 2 || s[a:e] != "SG" {
		return 0, -1
	}
	if csWord.span(s, e+1, 23) != 22 || e+23 >= len(s) || s[e+23] != '.' {
		return 0, -1
	}
	if csWord.span(s, e+24, 44) != 43 {
		return 0, -1
	}
	return a, e + 24 + 43
}

// matchMailchimp takes 32 hex digits and a data-centre suffix (-us12).
func matchMailchimp(s string, a, e int) (int, int) {
	if n := e - a; n < 36 || n > 37 {
		return 0, -1
	}
	if csHex.span(s, a, 32) != 32 || s[a+32:a+35] != "-us" || csDigits.span(s, a+35, 2) != e-a-35 {
		return 0, -1
	}
	return a, e
}

func matchBraintree(s string, a, _ int) (int, int) {
	for _, h := range []string{"access_token$production$", "access_token$sandbox$"} {
		if !strings.HasPrefix(s[a:], h) {
			continue
		}
		j := a + len(h)
		if csLowerDig.span(s, j, 17) != 16 || j+16 >= len(s) || s[j+16] != '$' {
			return 0, -1
		}
		if csHex.span(s, j+17, 33) != 32 {
			return 0, -1
		}
		return a, j + 17 + 32
	}
	return 0, -1
}

func matchTerraform(s string, a, e int) (int, int) {
	if e-a != 14 || csAlnum.span(s, a, 14) != 14 || !strings.HasPrefix(s[e:], ".atlasv1.") {
		return 0, -1
	}
	j := e + len(".atlasv1.")
	n := csWordEq.span(s, j, 71)
	if n < 60 || n > 70 {
		return 0, -1
	}
	return a, j + n
}

// matchMapbox takes a secret (sk.) token; public pk. tokens are left alone.
func matchMapbox(s string, a, e int) (int, int) {
	if e-a != 2 || !strings.HasPrefix(s[a:], "sk.eyJ") {
		return 0, -1
	}
	p := csWord.span(s, e+1, 512)
	k := e + 1 + p
	if p < 40 || k >= len(s) || s[k] != '.' {
		return 0, -1
	}
	q := csWord.span(s, k+1, 128)
	if q < 20 {
		return 0, -1
	}
	return a, k + 1 + q
}

func matchAirtable(s string, a, e int) (int, int) {
	if e-a != 17 || !strings.HasPrefix(s[a:], "pat") || csAlnum.span(s, a, 17) != 17 {
		return 0, -1
	}
	if csHex.span(s, e+1, 65) != 64 || (e+65 < len(s) && isWord(s[e+65])) {
		return 0, -1
	}
	return a, e + 65
}

// matchFCM takes a legacy Firebase Cloud Messaging server key:
// AAAA + 7 bytes, a colon, and a long APA91b… body.
func matchFCM(s string, a, e int) (int, int) {
	if e-a != 11 || !strings.HasPrefix(s[a:], "AAAA") {
		return 0, -1
	}
	n := csWord.span(s, e+1, 400)
	if n < 140 || (e+1+n < len(s) && isWord(s[e+1+n])) {
		return 0, -1
	}
	return a, e + 1 + n
}

var csAzure = newCharset("A-Za-z0-9_~.-")

// matchAzureAD takes an Entra ID client secret: three bytes, a digit, Q~,
// then 31 to 34 bytes. The run before the ~ ends in <digit>Q, and the three
// leading bytes may hold dots or tildes, so the start is found backwards.
func matchAzureAD(s string, a, e int) (int, int) {
	start := e - 5
	if start < 0 || s[e-1] != 'Q' || !isDigit(s[e-2]) {
		return 0, -1
	}
	if csAzure.span(s, start, 3) != 3 || (start > 0 && csAzure[s[start-1]]) {
		return 0, -1
	}
	n := csAzure.span(s, e+1, 35)
	if n < 31 || n > 34 {
		return 0, -1
	}
	return start, e + 1 + n
}
