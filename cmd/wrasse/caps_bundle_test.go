package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/mcpbundle/mcpbundletest"
)

// `caps install x.mcpb` asks the bundle's settings on the terminal (one
// line each, Enter keeps the default), stores the sensitive one as a
// secret and installs the server switched off, showing what it runs; a
// required setting left empty installs nothing.
func TestCapsInstallBundleAsksItsSettings(t *testing.T) {
	bundle := mcpbundletest.Pack(t, mcpbundletest.Echo(), "echo.mcpb", nil)
	cases := []struct {
		name  string
		input string
		code  int
		out   []string
		errs  []string
	}{
		{name: "answered", input: "sk-cli-secret\n50\n\n", code: 0,
			out:  []string{"Installed echo-bundle (MCP server from Echo Bundle version 1.2.0)", "switched off", "node server/index.js --limit 50", "API_KEY='${secret:mcp.echo-bundle.api_key}'", "wrasse caps enable echo-bundle"},
			errs: []string{"API key (Your key.) (required): ", "Limit (At most this many.) [10]: ", "Greeting style (How to greet.) [warm]: "}},
		{name: "required left empty", input: "\n\n\n", code: 1, errs: []string{"API key (api_key): required"}},
		{name: "out of range", input: "k\n500\n\n", code: 1, errs: []string{"500 is over the maximum 100"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			var out, errb bytes.Buffer
			getenv := func(k string) string {
				if k == "WRASSE_HOME" {
					return ws
				}
				return ""
			}
			code := run(context.Background(), []string{"caps", "install", bundle}, stdio{in: strings.NewReader(tc.input), out: &out, err: &errb}, getenv)
			if code != tc.code {
				t.Fatalf("exit %d; want %d\nstdout: %s\nstderr: %s", code, tc.code, out.String(), errb.String())
			}
			for _, s := range tc.out {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout does not say %q:\n%s", s, out.String())
				}
			}
			for _, s := range tc.errs {
				if !strings.Contains(errb.String(), s) {
					t.Errorf("stderr does not say %q:\n%s", s, errb.String())
				}
			}
			skill, err := os.ReadFile(filepath.Join(ws, "brain", "cerebellum", "echo-bundle", "SKILL.md"))
			if tc.code != 0 {
				if err == nil {
					t.Fatal("a refused install wrote the capability")
				}
				return
			}
			if err != nil || strings.Contains(string(skill), "sk-cli-secret") {
				t.Fatalf("SKILL.md %q, %v; want it without the secret", skill, err)
			}
		})
	}
}
