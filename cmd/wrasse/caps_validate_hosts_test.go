package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// `caps validate` checks a plugin that declares its hosts against the same
// rules as its first call: an http.Transport of its own cannot be held to
// the hosts, and validation says so. On main it said "is valid", and the
// first call failed with "http.Transport dials without Wrasse's host
// check". With network: ["*"] the same plugin is valid.
func TestCapsValidateHoldsDeclaredHosts(t *testing.T) {
	ws := t.TempDir()
	src := t.TempDir()
	plugin := `package fetcher

import (
	"context"
	"net/http"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("fetcher_get", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		t := &http.Transport{}
		c := &http.Client{Transport: t}
		resp, err := c.Get("https://api.example.com/")
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		return sdk.Text("ok"), nil
	})
	return p, nil
}
`
	cases := []struct {
		name, hosts string
		wantOK      bool
		want        string
	}{
		{"hosts named", "[api.example.com]", false, "http.Transport dials without Wrasse's host check"},
		{"any host", `["*"]`, true, "is valid"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(src, strings.ReplaceAll(tc.name, " ", "-"), "fetcher")
			write(t, filepath.Join(dir, "SKILL.md"), "---\nname: fetcher\ndescription: Fetches a page.\npermissions:\n  network: "+tc.hosts+"\n"+
				"tools:\n  - name: fetcher_get\n    description: Gets a page.\n---\nFetch pages.\n")
			write(t, filepath.Join(dir, "plugin", "main.go"), plugin)
			code, out, errOut := cli(t, ws, "caps", "validate", dir)
			if (code == 0) != tc.wantOK || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("validate: exit %d\n%s%s\nwant ok=%v saying %q", code, out, errOut, tc.wantOK, tc.want)
			}
		})
	}
}
