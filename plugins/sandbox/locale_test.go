package sandbox

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestLauncherLocaleRoundTrips(t *testing.T) {
	tests := [][]string{
		{"PATH=/bin", "LANG=C.UTF-8", "HOME=/h"},
		{"PATH=/bin", "LC_ALL=C", "LANG=POSIX", "LANGUAGE=fr"},
		{"PATH=/bin"},
		{"LANG=", "X=a=b"},
	}
	for _, env := range tests {
		cmd := exec.Command("/bin/true", "x")
		cmd.Env = slices.Clone(env)
		if err := Command(cmd, []string{"/wrasse", "__sandbox-exec"}, Policy{}); err != nil {
			t.Fatal(err)
		}
		// The launcher sees only a locale the toolkit parses.
		var lang []string
		for _, kv := range cmd.Env {
			if k, _, _ := strings.Cut(kv, "="); isLocaleVar(k) {
				lang = append(lang, kv)
			}
		}
		if !slices.Equal(lang, []string{"LANG=" + launcherLocale}) {
			t.Errorf("%q: launcher locale %q", env, lang)
		}
		// The command gets its own back, exactly.
		got := CommandEnv(cmd.Env)
		want := slices.Clone(env)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("command env %q, want %q", got, want)
		}
	}
	plain := []string{"LANG=de_DE.UTF-8", "PATH=/bin"}
	if got := CommandEnv(plain); !slices.Equal(got, plain) {
		t.Errorf("an environment not made by Command changed: %q", got)
	}
}
