package redact

// prefixed lists the token shapes that a literal prefix introduces. Facts
// about the prefixes and lengths come from the providers' documentation and
// public scanners; the rules are cairn's own. Order matters within one
// first byte only where prefixes nest (sk-ant- before sk-).
var prefixed = []struct {
	kind string
	p    []prefixRule
}{
	// Cloud providers.
	{"aws-access-key", many(csBase32, 16, 16, nil, "AKIA", "ASIA", "ABIA", "ACCA")},
	{"gcp-api-key", one("AIza", csWord, 35, 35, nil)},
	{"google-oauth-secret", one("GOCSPX-", csWord, 28, 28, nil)},
	{"google-oauth-token", one("ya29.", csWord, 30, 2048, nil)},
	{"alibaba-access-key", one("LTAI", csAlnum, 12, 20, hasDigit)},
	{"digitalocean-token", many(csHex, 64, 64, nil, "dop_v1_", "doo_v1_", "dor_v1_")},
	{"heroku-api-key", one("HRKU-", csWord, 58, 64, nil)},
	{"databricks-token", one("dapi", csHex, 32, 32, nil)},
	{"supabase-token", []prefixRule{{"sbp_", csHex, 40, 40, nil}, {"sb_secret_", csWord, 24, 64, nil}}},
	{"render-api-key", one("rnd_", csAlnum, 32, 32, nil)},
	{"flyio-token", one("fo1_", csWord, 43, 43, nil)},
	{"netlify-token", one("nfp_", csAlnum, 36, 40, nil)},
	{"tailscale-key", many(csWord, 20, 128, lettersAndDigits, "tskey-api-", "tskey-auth-", "tskey-client-", "tskey-webhook-")},
	{"vault-token", many(csWord, 24, 256, nil, "hvs.", "hvb.")},
	{"doppler-token", many(csAlnum, 40, 44, nil, "dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.")},
	{"pulumi-token", one("pul-", csHex, 40, 40, nil)},
	{"planetscale-token", many(csWordDot, 32, 64, nil, "pscale_tkn_", "pscale_pw_", "pscale_oauth_")},
	{"newrelic-key", many(csUpperDig, 27, 27, nil, "NRAK-", "NRJS-", "NRII-")},
	{"onepassword-token", one("ops_eyJ", csB64Word, 100, 4096, nil)},

	// Version control and package registries.
	{"github-pat", one("ghp_", csAlnum, 36, 36, nil)},
	{"github-oauth", one("gho_", csAlnum, 36, 36, nil)},
	{"github-app-token", many(csAlnum, 36, 36, nil, "ghu_", "ghs_")},
	{"github-refresh-token", one("ghr_", csAlnum, 36, 76, nil)},
	{"github-fine-grained-pat", one("github_pat_", csAlnumU, 50, 255, nil)},
	{"gitlab-pat", one("glpat-", csWordDot, 20, 300, nil)},
	{"gitlab-token", many(csWordDot, 20, 300, nil,
		"gldt-", "glptt-", "glrt-", "glcbt-", "glimt-", "glsoat-", "glffct-", "glft-", "glagent-", "gloas-", "GR1348941")},
	{"bitbucket-app-password", one("ATBB", csWordEq, 28, 64, nil)},
	{"atlassian-api-token", many(csWordEq, 60, 300, nil, "ATATT3", "ATCTT3")},
	{"npm-token", one("npm_", csAlnum, 36, 36, nil)},
	{"pypi-token", many(csWord, 50, 1000, nil, "pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw")},
	{"rubygems-api-key", one("rubygems_", csHex, 48, 48, nil)},
	{"docker-pat", many(csWord, 27, 64, nil, "dckr_pat_", "dckr_oat_")},
	{"sourcegraph-token", one("sgp_", csWord, 40, 80, nil)},
	{"sentry-token", []prefixRule{{"sntrys_", csB64Word, 50, 1024, nil}, {"sntryu_", csHex, 64, 64, nil}}},
	{"grafana-token", []prefixRule{{"glsa_", csAlnumU, 32, 64, nil}, {"glc_", csB64Word, 32, 400, nil}}},
	{"postman-api-key", one("PMAK-", csHexDash, 59, 59, nil)},
	{"figma-token", one("figd_", csWord, 40, 64, nil)},
	{"linear-api-key", one("lin_api_", csAlnum, 40, 40, nil)},
	{"notion-token", []prefixRule{{"secret_", csAlnum, 43, 43, nil}, {"ntn_", csAlnum, 40, 50, nil}}},
	{"shopify-token", many(csHexAny, 32, 32, nil, "shpat_", "shpca_", "shppa_", "shpss_")},
	{"age-secret-key", one("AGE-SECRET-KEY-1", csBech32, 58, 58, nil)},

	// Model providers. Anthropic and OpenRouter keys also start with sk-,
	// so they come first; DeepSeek keys are sk- and 32 hex digits.
	{"anthropic-api-key", one("sk-ant-", csWord, 32, 300, nil)},
	{"openrouter-api-key", one("sk-or-v1-", csHex, 64, 64, nil)},
	{"deepseek-api-key", one("sk-", csHex, 32, 32, nil)},
	{"openai-api-key", one("sk-", csWord, 32, 300, openAIBody)},
	{"huggingface-token", []prefixRule{{"hf_", csAlnum, 34, 40, mixedCase}, {"api_org_", csAlnum, 34, 34, mixedCase}}},
	{"groq-api-key", one("gsk_", csAlnum, 52, 52, nil)},
	{"replicate-api-token", one("r8_", csAlnum, 37, 37, nil)},
	{"perplexity-api-key", one("pplx-", csAlnum, 48, 48, nil)},
	{"xai-api-key", one("xai-", csAlnum, 80, 80, nil)},

	// Chat, mail and payments.
	{"slack-token", many(csWord, 10, 300, hasDigit, "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxe-", "xoxe.xoxp-")},
	{"slack-app-token", one("xapp-", csWord, 10, 300, hasDigit)},
	{"stripe-key", many(csAlnum, 16, 247, nil, "sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_")},
	{"stripe-webhook-secret", one("whsec_", csAlnum, 32, 64, nil)},
	{"twilio-api-key", one("SK", csHex, 32, 32, nil)},
	{"mailgun-api-key", one("key-", csHex, 32, 32, nil)},
	{"sendinblue-api-key", one("xkeysib-", csWord, 70, 90, nil)},
	{"square-access-token", []prefixRule{{"sq0atp-", csWord, 22, 60, nil}, {"EAAA", csWord, 60, 60, lettersAndDigits}}},
	{"square-oauth-secret", one("sq0csp-", csWord, 43, 43, nil)},
}

func one(prefix string, body *charset, min, max int, check func(string) bool) []prefixRule {
	return []prefixRule{{prefix, body, min, max, check}}
}

func many(body *charset, min, max int, check func(string) bool, prefixes ...string) []prefixRule {
	out := make([]prefixRule, len(prefixes))
	for i, p := range prefixes {
		out[i] = prefixRule{p, body, min, max, check}
	}
	return out
}

// openAIBody accepts sk-proj-…, sk-svcacct-…, sk-admin-… and the older
// 48-character keys, and refuses hyphenated words like sk-learn-something.
func openAIBody(b string) bool {
	sh := shapeOf(b)
	return sh.digit > 0 && sh.upper > 0 && sh.lower > 0
}

// allRules is every token shape, prefixed and structured.
func allRules() []*rule {
	var out []*rule
	for _, t := range prefixed {
		for _, p := range t.p {
			out = append(out, p.rule(t.kind))
		}
	}
	return append(out, structured()...)
}
