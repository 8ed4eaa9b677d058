package mcpimport

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// FuzzParse: any bytes give a result or one of the package's errors,
// never a panic; every server taken has a valid, unique capability name,
// exactly one of a command or an http(s) url, and every secret it
// references is listed.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.json")
	more, _ := filepath.Glob("testdata/*/.*/*.json")
	for _, p := range append(files, more...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"servers": {"a": {"type": "http", "url": "https://h/${input:x}"}}, "inputs": [{"id": "x"}]}`))
	f.Add([]byte(`{"mcpServers": {"a": {"command": "${env:A}${env:}${", "args": ["${/}"]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Parse(data, Options{File: "mcp.json", Home: "/home/u", WorkspaceFolder: "/p"})
		if err != nil {
			return
		}
		secrets := map[string]bool{}
		for _, s := range res.Secrets {
			secrets[s.Name] = true
		}
		names := map[string]bool{}
		for _, s := range res.Servers {
			if !skillmd.ValidName(s.Name) || names[s.Name] {
				t.Fatalf("server name %q invalid or repeated", s.Name)
			}
			names[s.Name] = true
			if (s.Command == "") == (s.URL == "") {
				t.Fatalf("server %q: command %q url %q", s.Name, s.Command, s.URL)
			}
			check := func(v string) {
				for _, ref := range skillmd.SecretNames(v) {
					if !secrets[ref] {
						t.Fatalf("server %q references %q, not in Secrets", s.Name, ref)
					}
				}
			}
			check(s.Command)
			check(s.URL)
			for _, a := range s.Args {
				check(a)
			}
			for _, v := range s.Env {
				check(v)
			}
			for _, v := range s.Headers {
				check(v)
			}
		}
	})
}
