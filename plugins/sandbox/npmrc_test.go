package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

func TestStripNpmCredentials(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"scoped token", "//registry.npmjs.org/:_authToken=npm_SECRET\n", ""},
		{"spaces and case", "  //npm.example.com/path/:_AuthToken = ${NPM_TOKEN}\n", ""},
		{"basic auth", "_auth=dXNlcjpwYXNz\n//r.example/:_password=cGFzcw==\n//r.example/:username=me\n", ""},
		{"client certificate", "certfile=/home/me/c.pem\nkeyfile=/home/me/k.pem\n", ""},
		{"a program that prints the token", "tokenHelper=/home/me/bin/npm-token\n", ""},
		{"settings kept", "registry=https://npm.example.com/\n@corp:registry=https://npm.corp.example/\nproxy=http://p:3128\n", "registry=https://npm.example.com/\n@corp:registry=https://npm.corp.example/\nproxy=http://p:3128\n"},
		{"comments kept", "; a comment\n# another\n", "; a comment\n# another\n"},
		{"mixed", "registry=https://r.example/\n//r.example/:_authToken=T\nstrict-ssl=true", "registry=https://r.example/\nstrict-ssl=true\n"},
		{"key-like value kept", "init-author-name=_authToken\n", "init-author-name=_authToken\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(sandbox.StripNpmCredentials([]byte(tc.in))); got != tc.want {
				t.Errorf("StripNpmCredentials(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestNpmrcWithoutCredentials(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	if p, err := sandbox.NpmrcWithoutCredentials(home, dir); err != nil || p != "" {
		t.Fatalf("no ~/.npmrc: %q, %v; want none", p, err)
	}
	if err := os.WriteFile(filepath.Join(home, ".npmrc"), []byte("registry=https://r.example/\n//r.example/:_authToken=npm_SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := sandbox.NpmrcWithoutCredentials(home, dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "npm_SECRET") || !strings.Contains(string(b), "registry=https://r.example/") {
		t.Errorf("copy %s: %q; want the registry without the token", p, b)
	}
}

func FuzzStripNpmCredentials(f *testing.F) {
	f.Add([]byte("//registry.npmjs.org/:_authToken=npm_SECRET\nregistry=https://r/\n"))
	f.Add([]byte("_auth = x\r\n; c\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := string(sandbox.StripNpmCredentials(data))
		for _, line := range strings.Split(out, "\n") {
			k, _, ok := strings.Cut(line, "=")
			k = strings.ToLower(strings.TrimSpace(k))
			if ok && (strings.HasSuffix(k, "_authtoken") || strings.HasSuffix(k, ":_auth") || k == "_auth" || strings.HasSuffix(k, "_password")) {
				t.Fatalf("credential line kept: %q", line)
			}
		}
	})
}
