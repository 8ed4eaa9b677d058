package workspace

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// A new workspace grants no folder: the file and shell tools may use none
// until the person picks some (config.json folders). The window offers the
// common ones below as one-click choices; the whole home folder is never
// granted without the person asking for it.

// projectFolders are the names a projects folder usually has, in the
// order they are offered.
var projectFolders = []string{"projects", "Projects", "src", "code", "Code", "dev", "repos", "workspace", "git"}

// CommonFolders are the folders a person usually grants first, those that
// exist: Documents and Desktop (where the XDG user-dirs file puts them, as
// xdg-user-dir names them, else under home), then the projects folders
// (~/projects, ~/src, ~/code…). Never the home folder itself: a user-dirs
// entry set to home (how a folder is switched off) is left out.
// configHome is the XDG configuration folder ("" for home/.config).
func CommonFolders(home, configHome string) []string {
	if home == "" {
		return nil
	}
	home = filepath.Clean(home)
	if configHome == "" {
		configHome = filepath.Join(home, ".config")
	}
	dirs := userDirs(home, filepath.Join(configHome, "user-dirs.dirs"))
	var out []string
	seen := map[string]bool{home: true}
	add := func(p string) {
		p = filepath.Clean(p)
		if seen[p] {
			return
		}
		seen[p] = true
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			out = append(out, p)
		}
	}
	for _, key := range []string{"DOCUMENTS", "DESKTOP"} {
		if d, ok := dirs[key]; ok {
			add(d)
		} else {
			add(filepath.Join(home, strings.ToUpper(key[:1])+strings.ToLower(key[1:])))
		}
	}
	for _, n := range projectFolders {
		add(filepath.Join(home, n))
	}
	return out
}

// userDirs reads an XDG user-dirs file: lines XDG_NAME_DIR="$HOME/Path"
// (or an absolute path), by NAME. A missing or unreadable file is empty.
func userDirs(home, file string) map[string]string {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		name, isDir := strings.CutSuffix(strings.TrimPrefix(key, "XDG_"), "_DIR")
		if !ok || !isDir || !strings.HasPrefix(key, "XDG_") {
			continue
		}
		val = strings.Trim(strings.TrimSpace(val), `"`)
		switch {
		case val == "$HOME" || strings.HasPrefix(val, "$HOME/"):
			val = filepath.Join(home, strings.TrimPrefix(val, "$HOME"))
		case !filepath.IsAbs(val):
			continue // the spec allows only these two forms
		}
		out[name] = filepath.Clean(val)
	}
	return out
}

// IsHome reports whether folder is the home folder itself, which grants
// everything in it (a warning is due).
func IsHome(folder, home string) bool {
	return home != "" && filepath.Clean(folder) == filepath.Clean(home)
}
