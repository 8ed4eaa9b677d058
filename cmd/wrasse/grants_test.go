package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// A plugin waiting for a grant is listed as such, never as failed, and
// every command says what to grant; granting makes it run.
func TestUngrantedPluginSaysWhatToGrant(t *testing.T) {
	ws := t.TempDir()
	dir := filepath.Join(ws, "brain", "cerebellum", "fetcher")
	write(t, filepath.Join(dir, "SKILL.md"), "---\nname: fetcher\ndescription: Fetches a page.\npermissions: [network]\n"+
		"tools:\n  - name: fetcher_get\n    description: Gets a page.\n---\nFetch pages.\n")
	// net/http needs the network permission it declares: allowed once granted.
	write(t, filepath.Join(dir, "plugin", "main.go"), `package fetcher

import (
	"context"
	"net/http"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("fetcher_get", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Text("got " + http.MethodGet), nil
	})
	return p, nil
}
`)
	listed := func(when string) {
		t.Helper()
		code, out, errOut := cli(t, ws, "caps", "list")
		var row string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "fetcher ") {
				row = strings.Join(strings.Fields(l), " ")
			}
		}
		if want := "fetcher plugin needs grant Unknown 1 not granted: network (wrasse caps enable fetcher --grant network)"; code != 0 || row != want {
			t.Errorf("%s: exit %d, row %q; want %q\n%s", when, code, row, want, errOut)
		}
		if !strings.Contains(out, " ok, 1 needs a grant, 0 disabled, 0 failed;") {
			t.Errorf("%s: the summary does not count the plugin waiting for a grant:\n%s", when, out)
		}
	}
	listed("caps list")
	if code, out, _ := cli(t, ws, "caps", "enable", "fetcher"); code != 0 || !strings.HasPrefix(out, "fetcher is on, waiting for its grants.\nIts plugin still needs network: ") {
		t.Errorf("caps enable without --grant: exit %d\n%s", code, out)
	}

	_, out, _ := cli(t, ws, "caps", "list", "--json")
	var rows []capRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Name == "fetcher" && (r.State != "ok" || strings.Join(r.NotGranted, ",") != "network") {
			t.Errorf("json row %+v; want state ok, notGranted [network]", r)
		}
	}

	_, out, _ = cli(t, ws, "caps", "show", "fetcher")
	for _, want := range []string{"State:", "needs grant", "Not granted:  network: none of its code runs until they are (wrasse caps enable fetcher --grant network)"} {
		if !strings.Contains(out, want) {
			t.Errorf("caps show does not say %q:\n%s", want, out)
		}
	}

	code, _, errOut := cli(t, ws, "caps", "call", "fetcher", "fetcher_get")
	if code != exitFail || !strings.Contains(errOut, "fetcher's plugin needs the network permission, which the user has not granted") ||
		!strings.Contains(errOut, "\n  → wrasse caps enable fetcher --grant network\n") {
		t.Errorf("ungranted call: exit %d\n%s", code, errOut)
	}
	listed("after a refused call")

	// A chat whose model calls it anyway prints the fix under the failure.
	m := newModel(t, toolCall("fetcher_get", `{}`), text("It needs network."))
	code, _, errOut = chatCLI(t, ws, "", map[string]string{"OPENAI_API_KEY": "sk-test"}, "chat", "--send-key", "--base-url", m.BaseURL(), "--model", "m1", "fetch")
	if code != 0 || !strings.Contains(errOut, "← fetcher_get failed: capability needs permissions that are not granted") ||
		!strings.Contains(errOut, "\n  fix: wrasse caps enable fetcher --grant network\n") {
		t.Errorf("chat: exit %d\n%s", code, errOut)
	}
	listed("after a chat")

	if code, _, errOut := cli(t, ws, "caps", "enable", "fetcher", "--grant", "network"); code != 0 {
		t.Fatal(errOut)
	}
	if code, out, errOut := cli(t, ws, "caps", "call", "fetcher", "fetcher_get"); code != 0 || strings.TrimSpace(out) != "got GET" {
		t.Errorf("granted call: exit %d, %q %s", code, out, errOut)
	}
}

// Permissions mean something for a plugin's code only: a guide or an MCP
// server that declares them is told so, not offered a grant.
func TestPermissionsOutsidePluginsWarn(t *testing.T) {
	ws := t.TempDir()
	src := t.TempDir()
	write(t, filepath.Join(src, "howto", "SKILL.md"), "---\nname: howto\ndescription: How to.\npermissions: [exec, files, network]\n---\nx\n")
	write(t, filepath.Join(src, "srv", "SKILL.md"), "---\nname: srv\ndescription: A server.\npermissions: [exec]\nmcp:\n  command: srv-server\n---\nx\n")
	for _, tc := range []struct{ dir, want string }{
		{"howto", "warning: howto/SKILL.md: permissions: exec, files and network apply to plugins only, and this is a guide (no plugin/ folder): nothing grants or checks them"},
		{"srv", "warning: srv/SKILL.md: permissions: exec apply to plugins only, and this is an MCP server, which is approved by enabling it"},
	} {
		code, out, errOut := cli(t, ws, "caps", "validate", filepath.Join(src, tc.dir))
		if code != 0 || !strings.Contains(out, tc.want) || strings.Contains(out, "--grant") {
			t.Errorf("validate %s: exit %d\n%s%s\nwant %q and no grant", tc.dir, code, out, errOut, tc.want)
		}
	}
}
