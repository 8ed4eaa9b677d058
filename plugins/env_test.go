package plugins

import (
	"log/slog"
	"slices"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

func TestLooksSecret(t *testing.T) {
	for name, want := range map[string]bool{
		"OPENAI_API_KEY": true, "ANTHROPIC_API_KEY": true, "GITHUB_TOKEN": true, "AWS_SECRET_ACCESS_KEY": true,
		"AWS_ACCESS_KEY_ID": true, "DB_PASSWORD": true, "PGPASSWORD": true, "SSH_AUTH_SOCK": true, "NPM_AUTH": true,
		"MY_PAT": true, "wrasse_test_secret_key": true, "CLIENT_SECRET": true, "SESSION_COOKIE": true, "APIKEY": true,
		"GOOGLE_APPLICATION_CREDENTIALS": true, "HF_TOKEN": true,
		"PATH": false, "HOME": false, "LANG": false, "GIT_AUTHOR_NAME": false, "KEYBOARD_LAYOUT": false,
		"WRASSE_TEST_PLAIN": false, "EDITOR": false, "MONKEY": false,
	} {
		if got := looksSecret(name); got != want {
			t.Errorf("looksSecret(%q) = %v; want %v", name, got, want)
		}
	}
}

func TestVirtualEnv(t *testing.T) {
	real := map[string]string{
		"PATH": "/bin", "HOME": "/home/u", "OPENAI_API_KEY": "sk-x", "APP_MODE": "dev", "APP_TOKEN": "t",
		"APP_COLOR": "blue", "OTHER": "o",
	}
	lookup := func(k string) (string, bool) { v, ok := real[k]; return v, ok }
	environ := func() []string {
		var out []string
		for k, v := range real {
			out = append(out, k+"="+v)
		}
		slices.Sort(out)
		return out
	}
	cases := []struct {
		name     string
		scope    []string
		withEnv  bool
		want     []string
		withheld []string
	}{
		{name: "base only without the env permission", scope: []string{"APP_MODE"}, want: []string{"HOME=/home/u", "PATH=/bin"}},
		{name: "named variables", scope: []string{"APP_MODE", "MISSING"}, withEnv: true,
			want: []string{"APP_MODE=dev", "HOME=/home/u", "PATH=/bin"}},
		{name: "patterns skip secrets", scope: []string{"APP_*"}, withEnv: true,
			want: []string{"APP_COLOR=blue", "APP_MODE=dev", "HOME=/home/u", "PATH=/bin"}, withheld: []string{"APP_TOKEN"}},
		{name: "a named secret is withheld", scope: []string{"OPENAI_API_KEY"}, withEnv: true,
			want: []string{"HOME=/home/u", "PATH=/bin"}, withheld: []string{"OPENAI_API_KEY"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			venv, withheld := newVirtualEnv(tc.scope, tc.withEnv, lookup, environ)
			if got := venv.list(); !slices.Equal(got, tc.want) {
				t.Errorf("env = %v; want %v", got, tc.want)
			}
			if !slices.Equal(withheld, tc.withheld) {
				t.Errorf("withheld = %v; want %v", withheld, tc.withheld)
			}
		})
	}
}

// The shell's unixSockets setting lets the commands of a capability that
// ships with Wrasse open Unix sockets; a plugin from elsewhere never gets
// them, whatever its settings (whose defaults its SKILL.md chooses).
func TestUnixSocketsSettingOnlyForShippedCapabilities(t *testing.T) {
	h := NewHost(Options{})
	for _, c := range []struct {
		trusted bool
		value   string
		want    bool
	}{
		{true, "", false}, {true, "false", false}, {true, "true", true}, {true, " TRUE ", true},
		{false, "true", false}, {false, "", false},
	} {
		req := cerebellum.LoadRequest{Capability: &cerebellum.Capability{Name: "x", Manifest: &skillmd.Manifest{Name: "x"}},
			Trusted: c.trusted, Settings: map[string]string{UnixSocketsSetting: c.value}}
		if got := h.newEnvSpec(req, newPolicy(c.trusted, nil), slog.New(slog.DiscardHandler)).unixSockets; got != c.want {
			t.Errorf("trusted %v, %s=%q: unix sockets %v, want %v", c.trusted, UnixSocketsSetting, c.value, got, c.want)
		}
	}
}
