package sandbox

import (
	"slices"
	"strings"
	"testing"
)

// LauncherEnv and CommandEnv carry only the locale through the launcher:
// whatever the environment handed to LauncherEnv holds under
// WRASSE_SANDBOX_LOCALE (the user's own, or a plugin's cmd.Env), nothing
// but the four locale variables, with the values they had, comes out of
// CommandEnv (session 5 attack review, s5-A).
func TestLocaleCarrierInjectsNothing(t *testing.T) {
	crafted := []string{
		`{"LD_PRELOAD":"/tmp/evil.so","LANG":"xx","PATH":"/evil"}`,
		`{"LANG":"a\u0000LD_PRELOAD=/tmp/evil.so"}`,
		`{"LANG=LD_PRELOAD":"/tmp/evil.so"}`,
		`null`,
		`not json`,
	}
	for _, c := range crafted {
		env := []string{"PATH=/bin", "HOME=/h", "LANG=de_DE.UTF-8", "LC_MESSAGES=fr_FR.UTF-8", envLocale + "=" + c}
		launched := LauncherEnv(env)
		if n := strings.Count(strings.Join(launched, "\n"), envLocale+"="); n != 1 {
			t.Errorf("%s: launcher env has %d carriers: %q", c, n, launched)
		}
		got := CommandEnv(launched)
		want := []string{"PATH=/bin", "HOME=/h", "LANG=de_DE.UTF-8", "LC_MESSAGES=fr_FR.UTF-8"}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the command gets %q; want %q", c, got, want)
		}
	}
}

// A crafted carrier reaching CommandEnv directly (the launcher run by hand,
// or by a plugin with exec that sets the variable itself) restores the
// held variables only (locale and loader ones, which the program, already
// confined, could have been given directly): never another variable, never
// a key holding '=' and never a value with a NUL.
func TestCommandEnvRestoresOnlyHeldVariables(t *testing.T) {
	env := []string{"PATH=/bin", "LANG=" + launcherLocale,
		envLocale + `={"LD_PRELOAD":"/tmp/evil.so","PATH":"/evil","LANG=LD_PRELOAD":"x","LC_ALL":"C"}`}
	got := CommandEnv(env)
	for _, kv := range got {
		k, v, _ := strings.Cut(kv, "=")
		if k != "PATH" && !isHeldVar(k) || strings.ContainsRune(v, 0) || (k == "PATH" && v != "/bin") {
			t.Errorf("CommandEnv injected %q (all: %q)", kv, got)
		}
	}
	if !slices.Contains(got, "LC_ALL=C") || slices.Contains(got, "LANG="+launcherLocale) {
		t.Errorf("CommandEnv gives %q; want LC_ALL=C back and the launcher's LANG gone", got)
	}
}
