package corpus

import "strings"

// Fake credentials in the shapes redaction must catch. None is real: each
// is drawn from the generator's random stream.

func (g *gen) awsKey() string { return "AKIA" + g.chars(upperB32, 16) }

func (g *gen) awsSecret() string { return g.chars(base64Set, 40) }

func (g *gen) githubToken() string { return "ghp_" + g.chars(alnum, 36) }

func (g *gen) slackToken() string {
	return "xoxb-" + g.chars(digits, 12) + "-" + g.chars(digits, 13) + "-" + g.chars(alnum, 24)
}

func (g *gen) anthropicKey() string {
	return "sk-ant-api03-" + g.chars(urlB64Set, 93) + "AA"
}

// pemKey is an RSA private key block of the usual line width.
func (g *gen) pemKey() string {
	var b strings.Builder
	b.WriteString("-----BEGIN RSA PRIVATE KEY-----\n")
	for range g.between(20, 26) {
		b.WriteString(g.chars(base64Set, 64))
		b.WriteByte('\n')
	}
	b.WriteString(g.chars(base64Set, g.between(8, 60)))
	b.WriteString("=\n-----END RSA PRIVATE KEY-----\n")
	return b.String()
}

// secretRun is a shell command whose output leaks credentials, and how
// many it leaks.
func (g *gen) secretRun(project string) shellRun {
	switch g.r.IntN(5) {
	case 0:
		out := "AWS_ACCESS_KEY_ID=" + g.awsKey() + "\nAWS_SECRET_ACCESS_KEY=" + g.awsSecret() +
			"\nAWS_REGION=eu-west-1\nDATABASE_URL=postgres://app@localhost:5432/" + strings.ReplaceAll(project, "-", "_") +
			"\nLOG_LEVEL=debug\n"
		return shellRun{cmd: "cat .env", desc: "Show local environment file", out: out, secrets: 2, read: true, path: ".env"}
	case 1:
		out := "origin\thttps://" + g.githubToken() + "@github.com/acme/" + project + ".git (fetch)\n"
		out += strings.Replace(out, "(fetch)", "(push)", 1)
		return shellRun{cmd: "git remote -v", desc: "List git remotes", out: out, secrets: 2}
	case 2:
		out := "SLACK_BOT_TOKEN=" + g.slackToken() + "\nGITHUB_TOKEN=" + g.githubToken() + "\nCI=true\nHOME=/home/dev\n"
		return shellRun{cmd: "env | grep -E 'TOKEN|CI|HOME'", desc: "Check CI environment", out: out, secrets: 2}
	case 3:
		return shellRun{cmd: "cat deploy/keys/service.pem", desc: "Read the service key", out: g.pemKey(), secrets: 1, read: true, path: "deploy/keys/service.pem"}
	}
	out := "{\n  \"provider\": \"anthropic\",\n  \"api_key\": \"" + g.anthropicKey() + "\",\n  \"model\": \"claude-opus-4-6\",\n  \"timeout_s\": 60\n}\n"
	return shellRun{cmd: "cat ~/.config/" + project + "/llm.json", desc: "Read the LLM client config", out: out, secrets: 1, read: true, path: "llm.json"}
}

// allSecrets is one output holding every planted kind at once, so even
// a tiny corpus exercises each rule.
func (g *gen) allSecrets() shellRun {
	out := "AWS_ACCESS_KEY_ID=" + g.awsKey() + "\nGITHUB_TOKEN=" + g.githubToken() +
		"\nSLACK_BOT_TOKEN=" + g.slackToken() + "\nANTHROPIC_API_KEY=" + g.anthropicKey() + "\n" + g.pemKey()
	return shellRun{cmd: "cat .env.local deploy/keys/ci.pem", desc: "Inspect local secrets", out: out, secrets: 5, read: true, path: ".env.local"}
}
