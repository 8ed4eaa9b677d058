package plugins

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A plugin process is the Wrasse executable, whose GUI toolkit logs an
// error at init when the locale does not parse (LANG=C.UTF-8), so it is
// started with a locale the toolkit accepts; it then gives the plugin and
// the programs it runs the user's own environment back, exactly.
func TestChildKeepsTheUsersLocale(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	h := childTestHost(&recorder{}, childArg)
	h.lookupEnv = func(k string) (string, bool) {
		switch k {
		case "LANG":
			return "C.UTF-8", true
		case "PATH":
			return os.Getenv("PATH"), true
		}
		return "", false
	}
	src := wrap(`"os/exec"`, `out, err := exec.Command("sh", "-c", "printf '%s|%s|%s' \"$LANG\" \"${LC_ALL-unset}\" \"${WRASSE_SANDBOX_LOCALE-unset}\"").CombinedOutput()
	if err != nil {
		return nil, err
	}
	return sdk.Text(string(out)), nil`)
	rt, err := h.Load(t.Context(), request(inline(t, oneTool, map[string]string{"main.go": src}), false, "exec", "files"))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	res, err := rt.Call(t.Context(), "run", nil)
	if err != nil || res.Content != "C.UTF-8|unset|unset" {
		t.Fatalf("the plugin's program sees %q (%v); want the user's LANG and nothing added", res.Content, err)
	}

	cr := rt.(*childRuntime)
	cr.mu.Lock()
	pid := cr.cur.cmd.Process.Pid
	cr.mu.Unlock()
	started, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		t.Skipf("cannot read the plugin process's environment: %v", err)
	}
	vars := strings.Split(string(started), "\x00")
	if !slices.Contains(vars, "LANG=en_US.UTF-8") || slices.Contains(vars, "LANG=C.UTF-8") {
		t.Errorf("the plugin process started with %q; want LANG=en_US.UTF-8, the user's set aside", vars)
	}
}
