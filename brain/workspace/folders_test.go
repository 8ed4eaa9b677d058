package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestCommonFolders(t *testing.T) {
	mk := func(t *testing.T, home string, dirs ...string) {
		for _, d := range dirs {
			if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name     string
		dirs     []string
		userDirs string // the user-dirs.dirs file; "" for none
		want     []string
	}{
		{"none exist", nil, "", nil},
		{"the usual names under home", []string{"Documents", "Desktop", "projects", "src", "Music"}, "",
			[]string{"Documents", "Desktop", "projects", "src"}},
		{"where user-dirs puts them, as xdg-user-dir names them", []string{"Dokumente", "Schreibtisch", "Documents", "code"},
			"# written by xdg-user-dirs-update\nXDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\nXDG_DESKTOP_DIR=\"$HOME/Schreibtisch\"\n",
			[]string{"Dokumente", "Schreibtisch", "code"}},
		{"a folder switched off (set to home) is never home itself", []string{"Desktop", "Documents"},
			"XDG_DESKTOP_DIR=\"$HOME/\"\nXDG_DOCUMENTS_DIR=\"$HOME\"\n", nil},
		{"a file, not a folder, is left out", nil, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			mk(t, home, tt.dirs...)
			if tt.name == "a file, not a folder, is left out" {
				os.WriteFile(filepath.Join(home, "projects"), []byte("x"), 0o600)
			}
			conf := filepath.Join(home, ".config")
			if tt.userDirs != "" {
				mk(t, home, ".config")
				if err := os.WriteFile(filepath.Join(conf, "user-dirs.dirs"), []byte(tt.userDirs), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, filepath.Join(home, w))
			}
			if got := CommonFolders(home, ""); !slices.Equal(got, want) {
				t.Errorf("CommonFolders = %v; want %v", got, want)
			}
		})
	}
	if got := CommonFolders("", ""); got != nil {
		t.Errorf("without a home folder: %v", got)
	}
}
