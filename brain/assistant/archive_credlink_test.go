package assistant

import (
	"archive/zip"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// archive_create of a granted folder holding hard links to credential
// files (one directly in ~/.ssh, one deep in ~/.password-store), or of
// such a link named as a source, puts no credential's content in the
// archive: the file API's walk and open compare each file with other
// names with the credential files.
func TestArchiveCreateLeavesOutHardLinksToCredentials(t *testing.T) {
	for _, tt := range []struct {
		name    string
		sources func(home string) []any
	}{
		{"the folder", func(home string) []any { return []any{filepath.Join(home, "projects", "src")} }},
		{"the links themselves", func(home string) []any {
			return []any{filepath.Join(home, "projects", "src", "key.txt"), filepath.Join(home, "projects", "src", "deep.txt")}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, m, home := attackHome(t)
			pass := write(t, filepath.Join(home, ".password-store", "work", "bank.gpg"), "PASSWORD TOPSECRET")
			mkHardLink(t, sshKey(home), filepath.Join(home, "projects", "src", "key.txt"))
			mkHardLink(t, pass, filepath.Join(home, "projects", "src", "deep.txt"))
			write(t, filepath.Join(home, "projects", "src", "main.go"), "package main\n")
			dest := filepath.Join(home, "projects", "out.zip")
			_, res := callTurn(t, a, m, 0, nil, "archive_create", map[string]any{"dest": dest, "sources": tt.sources(home)})
			zr, err := zip.OpenReader(dest)
			if err != nil {
				if !res.IsError {
					t.Fatalf("archive_create said %q but %s cannot be opened: %v", res.Text, dest, err)
				}
				return // refused whole: nothing went out
			}
			defer zr.Close()
			var names []string
			for _, f := range zr.File {
				names = append(names, f.Name)
				rc, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(rc)
				rc.Close()
				if strings.Contains(string(b), "PRIVATE KEY") || strings.Contains(string(b), "TOPSECRET") {
					t.Errorf("the archive holds %s with a credential's content %q (tool said %q)", f.Name, b, res.Text)
				}
			}
			if tt.name == "the folder" && !strings.Contains(strings.Join(names, " "), "src/main.go") {
				t.Errorf("the archive holds %v, not the folder's other file (tool said %q)", names, res.Text)
			}
		})
	}
}
