package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// chmod's mode is checked, but a file's mode is set at creation too:
// open or mknod with a set-user-ID mode made a set-user-ID file past the
// chmod check, and a sandbox started by a Wrasse whose umask is 0 made
// files 0666 and folders 0777. Every sandbox now starts with a umask that
// holds 022 and refuses set-ID modes at creation; stricter umasks and
// ordinary creation work as before. (A program that sets umask 0 itself
// still makes files open to others: see docs/plugins.md.)
//
// Reproduction: shell_exec: python3 -c 'import os; os.open("f", os.O_CREAT|os.O_WRONLY, 0o4755)'
func TestModesSetAtCreation(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp, Network: true})
	in := func(name string) string { return filepath.Join(f.granted, name) }
	tests := []struct {
		name, line string
		path       string
		want       os.FileMode // the mode the path must have afterwards (0: must not exist)
	}{
		{"a file made by a sandbox started under umask 0", "touch " + in("open-file"), in("open-file"), 0o644},
		{"a folder made by a sandbox started under umask 0", "mkdir " + in("open-dir"), in("open-dir"), os.ModeDir | 0o755},
		{"a file made under a stricter umask", "umask 077; touch " + in("private-file"), in("private-file"), 0o600},
		{"an ordinary file", "echo hi > " + in("plain"), in("plain"), 0o644},
		{"an ordinary folder", "mkdir -p " + in("a/b"), in("a/b"), os.ModeDir | 0o755},
	}
	if py := "/usr/bin/python3"; fileExists(py) {
		tests = append(tests,
			struct {
				name, line string
				path       string
				want       os.FileMode
			}{"a set-user-ID file made by open", py + ` -c 'import os; os.open("` + in("suid") + `", os.O_CREAT|os.O_WRONLY, 0o4755)'`, in("suid"), 0},
			struct {
				name, line string
				path       string
				want       os.FileMode
			}{"a set-group-ID file made by mknod", py + ` -c 'import os, stat; os.mknod("` + in("sgid") + `", stat.S_IFREG|0o2755)'`, in("sgid"), 0},
			struct {
				name, line string
				path       string
				want       os.FileMode
			}{"a file made by open without a set-ID mode", py + ` -c 'import os; os.close(os.open("` + in("made") + `", os.O_CREAT|os.O_WRONLY, 0o666))'`, in("made"), 0o644},
		)
	}
	// Wrasse itself runs under umask 0 here: the sandbox must not inherit it.
	defer syscall.Umask(syscall.Umask(0))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := run(t, p, tc.line)
			fi, err := os.Lstat(tc.path)
			switch {
			case tc.want == 0 && err == nil:
				t.Errorf("%q made %s with mode %v (%s); want a set-ID mode at creation refused", tc.line, tc.path, fi.Mode(), strings.TrimSpace(out))
			case tc.want == 0:
			case err != nil:
				t.Errorf("%q: %v (%s); want it made with mode %v", tc.line, err, strings.TrimSpace(out), tc.want)
			case fi.Mode() != tc.want:
				t.Errorf("%q made %s with mode %v; want %v (the group and others never get write at creation)", tc.line, tc.path, fi.Mode(), tc.want)
			}
		})
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
