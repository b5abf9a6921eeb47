package text

import "testing"

func TestStem(t *testing.T) {
	tests := []struct{ word, want string }{
		// plurals (step 1a)
		{"caresses", "caress"}, {"ponies", "poni"}, {"ties", "tie"},
		{"cats", "cat"}, {"gaps", "gap"}, {"apis", "api"}, {"gas", "gas"},
		{"status", "status"}, {"class", "class"}, {"aws", "aws"},
		{"ios", "ios"}, {"ops", "ops"},
		// -ed, -ing, -eed (step 1b)
		{"feed", "feed"}, {"agreed", "agre"}, {"motoring", "motor"},
		{"sing", "sing"}, {"conflated", "conflat"}, {"troubled", "troubl"},
		{"sized", "size"}, {"hopping", "hop"}, {"tanned", "tan"},
		{"falling", "fall"}, {"hissing", "hiss"}, {"fizzed", "fizz"},
		{"failing", "fail"}, {"filing", "file"}, {"hoping", "hope"},
		// -y (step 1c), and three-letter words
		{"happy", "happi"}, {"study", "studi"}, {"try", "tri"},
		{"key", "key"}, {"yes", "yes"}, {"say", "say"},
		// final -e and -ll (step 5)
		{"cache", "cach"}, {"configure", "configur"}, {"hope", "hope"},
		{"note", "note"}, {"merge", "merg"}, {"release", "releas"},
		{"install", "instal"}, {"call", "call"}, {"tell", "tell"},
		// special prefixes and exceptions
		{"generated", "generat"}, {"communities", "communiti"},
		{"news", "news"}, {"goes", "go"}, {"redis", "redis"},
		{"alias", "alias"}, {"skies", "sky"}, {"dying", "die"},
		{"succeed", "succeed"},
		// derivations are left alone
		{"deployment", "deployment"}, {"controller", "controller"},
		// not stemmed at all
		{"go", "go"}, {"js", "js"}, {"k8s", "k8s"}, {"Deployed", "Deployed"},
		{"café", "café"}, {"", ""},
		{"pneumonoultramicroscopicsilicovolcanoconioses", "pneumonoultramicroscopicsilicovolcanoconioses"},
	}
	for _, tt := range tests {
		if got := Stem(tt.word); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// TestStemConflates checks that the inflections of a word meet in one stem,
// which is what search needs, whatever that stem looks like.
func TestStemConflates(t *testing.T) {
	groups := [][]string{
		{"deploy", "deploys", "deployed", "deploying"},
		{"use", "uses", "used", "using"},
		{"cache", "caches", "cached", "caching"},
		{"configure", "configures", "configured", "configuring"},
		{"create", "creates", "created", "creating"},
		{"fix", "fixes", "fixed", "fixing"},
		{"merge", "merges", "merged", "merging"},
		{"run", "runs", "running"},
		{"test", "tests", "tested", "testing"},
		{"study", "studies", "studied", "studying"},
		{"retry", "retries", "retried", "retrying"},
		{"play", "plays", "played", "playing"},
		{"hope", "hopes", "hoped", "hoping"},
		{"change", "changes", "changed", "changing"},
		{"install", "installs", "installed", "installing"},
		{"alias", "aliases"},
		{"file", "files", "filed", "filing"},
		{"make", "makes", "making"},
		{"need", "needs", "needed", "needing"},
	}
	for _, g := range groups {
		want := Stem(g[0])
		for _, w := range g[1:] {
			if got := Stem(w); got != want {
				t.Errorf("Stem(%q) = %q, but Stem(%q) = %q", w, got, g[0], want)
			}
		}
	}
}
