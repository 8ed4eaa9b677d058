package plugins

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The user's locale reaches the plugin and the programs it runs exactly,
// and the variable that carries it through the process start cannot be
// used to add anything: a crafted WRASSE_SANDBOX_LOCALE in the user's
// environment (named by the plugin's env scope) neither restores
// LD_PRELOAD nor replaces the locale, and a secret stays out
// (session 5 attack review, s5-A).
func TestChildLocaleCarrierInjectsNothingAttack5(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	user := map[string]string{
		"PATH": os.Getenv("PATH"), "LANG": "C.UTF-8", "LC_ALL": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LANGUAGE": "de:en",
		"WRASSE_SANDBOX_LOCALE": `{"LANG":"evil","LD_PRELOAD":"/tmp/evil.so"}`, "MY_API_KEY": "sekrit",
	}
	const skill = `---
name: probe
description: A capability for static checks.
permissions:
  exec: true
  env: [LC_MESSAGES, LANGUAGE, "WRASSE_*", MY_API_KEY]
tools:
  - name: run
    description: Run.
---
`
	src := wrap(`"os"; "os/exec"`, `out, err := exec.Command("sh", "-c", "printf '%s|%s|%s|%s|%s|%s' \"$LANG\" \"$LC_ALL\" \"$LC_MESSAGES\" \"$LANGUAGE\" \"${LD_PRELOAD-unset}\" \"${MY_API_KEY-unset}\"").CombinedOutput()
	if err != nil {
		return nil, err
	}
	return sdk.Text(string(out) + "/" + os.Getenv("LANG") + "|" + os.Getenv("LC_MESSAGES") + "|" + os.Getenv("LD_PRELOAD")), nil`)
	for _, withEnv := range []bool{true, false} {
		h := childTestHost(&recorder{}, childArg)
		h.lookupEnv = func(k string) (string, bool) { v, ok := user[k]; return v, ok }
		h.environ = func() []string {
			var out []string
			for k, v := range user {
				out = append(out, k+"="+v)
			}
			return out
		}
		sk, code, grants := skill, src, []string{"exec", "env"}
		want := "C.UTF-8|de_DE.UTF-8|fr_FR.UTF-8|de:en|unset|unset/C.UTF-8|fr_FR.UTF-8|"
		if !withEnv {
			sk = strings.Replace(skill, "  env: [LC_MESSAGES, LANGUAGE, \"WRASSE_*\", MY_API_KEY]\n", "", 1)
			code = strings.Replace(strings.Replace(src, ` + "/" + os.Getenv("LANG") + "|" + os.Getenv("LC_MESSAGES") + "|" + os.Getenv("LD_PRELOAD")`, "", 1), `"os"; `, "", 1)
			grants = []string{"exec"}
			// Without env the base variables pass, the whole locale among them.
			want = "C.UTF-8|de_DE.UTF-8|fr_FR.UTF-8|de:en|unset|unset"
		}
		rt, err := h.Load(t.Context(), request(inline(t, sk, map[string]string{"main.go": code}), false, grants...))
		if err != nil {
			t.Fatalf("env=%v: %v", withEnv, err)
		}
		res, err := rt.Call(t.Context(), "run", nil)
		rt.Close()
		if err != nil || res.Content != want {
			t.Errorf("env=%v: the plugin and its program see %q (%v); want %q", withEnv, res.Content, err, want)
		}
	}
}
