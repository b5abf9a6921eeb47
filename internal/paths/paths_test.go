package paths

import "testing"

func TestResolve(t *testing.T) {
	envOf := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		name     string
		home     string
		env      map[string]string
		data     string
		cfgFile  string
		database string
	}{
		{"flag wins", "/flag", map[string]string{"CAIRN_HOME": "/env", "HOME": "/u"}, "/flag", "/flag/config.toml", "/flag/cairn.db"},
		{"CAIRN_HOME", "", map[string]string{"CAIRN_HOME": "/env", "HOME": "/u"}, "/env", "/env/config.toml", "/env/cairn.db"},
		{"XDG", "", map[string]string{"XDG_DATA_HOME": "/xd", "XDG_CONFIG_HOME": "/xc", "HOME": "/u"}, "/xd/cairn", "/xc/cairn/config.toml", "/xd/cairn/cairn.db"},
		{"XDG defaults", "", map[string]string{"HOME": "/u"}, "/u/.local/share/cairn", "/u/.config/cairn/config.toml", "/u/.local/share/cairn/cairn.db"},
	}
	for _, c := range cases {
		p := Resolve(c.home, envOf(c.env))
		if p.DataDir != c.data || p.ConfigFile != c.cfgFile || p.DB != c.database {
			t.Errorf("%s: %+v", c.name, p)
		}
	}
}
