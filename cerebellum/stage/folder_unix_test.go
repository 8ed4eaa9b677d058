//go:build unix

package stage

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Links, FIFOs, sockets and odd names cannot be committed reliably (git and
// some file systems mangle them), so these folders are built at test time.
func TestStageFolderHostileUnix(t *testing.T) {
	cases := []struct {
		name  string
		build func(t *testing.T, in, outside string)
		lim   func(*Limits)
		want  error
		msg   string
	}{
		{name: "symlink-out", want: ErrLink, msg: `folder entry "scripts/passwd": is a link: it is a symbolic link to "/etc/passwd"`,
			build: func(t *testing.T, in, _ string) { symlink(t, "/etc/passwd", filepath.Join(in, "scripts", "passwd")) }},
		{name: "symlink-skill-md", want: ErrLink, msg: `folder entry "references/SKILL.md": is a link`,
			build: func(t *testing.T, in, outside string) {
				symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(in, "references", "SKILL.md"))
			}},
		{name: "symlink-dir-up", want: ErrLink, msg: `folder entry "up": is a link: it is a symbolic link to ".."`,
			build: func(t *testing.T, in, _ string) { symlink(t, "..", filepath.Join(in, "up")) }},
		{name: "hard-link", want: ErrLink, msg: `folder entry "assets/secret.txt": is a link: it is a hard link (one file with 2 names`,
			build: func(t *testing.T, in, outside string) {
				if err := os.Link(filepath.Join(outside, "secret.txt"), filepath.Join(in, "assets", "secret.txt")); err != nil {
					t.Skip("hard links unsupported:", err)
				}
			}},
		{name: "fifo", want: ErrSpecialFile, msg: `folder entry "scripts/pipe": is not a regular file: it is a named pipe (FIFO)`,
			build: func(t *testing.T, in, _ string) {
				if err := syscall.Mkfifo(filepath.Join(in, "scripts", "pipe"), 0o644); err != nil {
					t.Skip("mkfifo:", err)
				}
			}},
		{name: "socket", want: ErrSpecialFile, msg: `folder entry "s": is not a regular file: it is a socket`,
			build: func(t *testing.T, in, _ string) {
				// Socket paths are short; listen from inside the folder.
				wd, _ := os.Getwd()
				t.Chdir(in)
				l, err := net.Listen("unix", "s")
				t.Chdir(wd)
				if err != nil {
					t.Skip("unix socket:", err)
				}
				t.Cleanup(func() { l.Close() })
			}},
		{name: "case-collision", want: ErrDuplicate, msg: `differ only in case`,
			build: func(t *testing.T, in, _ string) {
				writeFiles(t, in, map[string]string{"scripts/Fill.py": "x"})
				if entries, _ := os.ReadDir(filepath.Join(in, "scripts")); len(entries) != 2 {
					t.Skip("case-insensitive file system")
				}
			}},
		{name: "backslash-name", want: ErrBadName, msg: `folder entry "scripts\\run.py": unusable file name: the name contains "\", a path separator on Windows`,
			build: func(t *testing.T, in, _ string) { writeFiles(t, in, map[string]string{`scripts\run.py`: "x"}) }},
		{name: "control-name", want: ErrBadName, msg: `folder entry "a\x01.md": unusable file name: the name contains control character U+0001`,
			build: func(t *testing.T, in, _ string) { writeFiles(t, in, map[string]string{"a\x01.md": "x"}) }},
		{name: "too-many-files", lim: func(l *Limits) { l.MaxFiles = 3 }, want: ErrTooManyFiles, msg: `too many files: more than 3 files`,
			build: func(t *testing.T, in, _ string) {}},
		{name: "file-too-large", lim: func(l *Limits) { l.MaxFileBytes = 8 }, want: ErrFileTooLarge, msg: `file too large: a file may hold at most 8 bytes`,
			build: func(t *testing.T, in, _ string) {}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, outside := capabilityFolder(t)
			tc.build(t, in, outside)
			lim := DefaultLimits()
			if tc.lim != nil {
				tc.lim(&lim)
			}
			expectRejected(t, in, lim, tc.want, tc.msg)
		})
	}
}

// capabilityFolder makes a valid capability folder and a sibling folder
// standing for the rest of the disk.
func capabilityFolder(t *testing.T) (in, outside string) {
	t.Helper()
	dir := t.TempDir()
	in, outside = filepath.Join(dir, "pdf-tools"), filepath.Join(dir, "outside")
	writeFiles(t, in, map[string]string{"SKILL.md": skillBody, "scripts/fill.py": "print('fill')\n", "references/REFERENCE.md": "# ref\n", "assets/logo.svg": "<svg/>"})
	writeFiles(t, outside, map[string]string{"secret.txt": "TOKEN"})
	return in, outside
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func TestStageFolderEmptyUnix(t *testing.T) {
	in := filepath.Join(t.TempDir(), "empty")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	expectRejected(t, in, DefaultLimits(), ErrEmpty, `folder "empty": empty: it holds no files`)
	writeFiles(t, in, map[string]string{".DS_Store": "x", ".git/HEAD": "ref"})
	expectRejected(t, in, DefaultLimits(), ErrEmpty, `folder "empty": empty: it holds no files, only ".DS_Store", ".git/"`)
}

// TestStageFolderHoldingStaging: dropping the workspace itself must not copy
// the staging area into itself.
func TestStageFolderHoldingStaging(t *testing.T) {
	in, _ := capabilityFolder(t)
	parent := filepath.Join(in, ".staging")
	before := treeHash(t, in)
	_, err := Stage(in, parent, DefaultLimits())
	if !errors.Is(err, ErrUnsupportedInput) || !strings.Contains(err.Error(), `folder "pdf-tools": unsupported input: it holds the staging area`) {
		t.Fatalf("err = %v", err)
	}
	if treeHash(t, in) != before {
		t.Errorf("the input changed")
	}
}

// TestStageInputFIFO: a FIFO given as the input is refused without being
// opened (opening it would block).
func TestStageInputFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "SKILL.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	expectRejected(t, fifo, DefaultLimits(), ErrSpecialFile, `input "SKILL.md": is not a regular file: it is a named pipe (FIFO)`)
}

// TestStageFolderSymlinkInput: the dropped item itself may be a link (the
// user chose it); links inside it are still refused.
func TestStageFolderSymlinkInput(t *testing.T) {
	in, _ := capabilityFolder(t)
	link := filepath.Join(t.TempDir(), "link")
	symlink(t, in, link)
	_, parent := workspace(t)
	st := expectStaged(t, link, parent, DefaultLimits())
	if len(st.Files) != 4 {
		t.Errorf("Files = %q", st.Files)
	}
}

// TestStageKeepsOwnerExec: a folder file its owner may execute is staged
// 0755, any other 0644; setuid, setgid, sticky and group or other write
// never survive (the zip case is happy/exec-bits.zip).
func TestStageKeepsOwnerExec(t *testing.T) {
	cases := []struct {
		mode os.FileMode
		exec bool
	}{
		{0o755 | os.ModeSetuid, true},
		{0o777 | os.ModeSetgid | os.ModeSticky, true},
		{0o744, true},
		{0o646, false},
		{0o611, false}, // only group and others may execute: not the owner's bit
	}
	for _, tc := range cases {
		t.Run(tc.mode.String(), func(t *testing.T) {
			in, _ := capabilityFolder(t)
			if err := os.Chmod(filepath.Join(in, "scripts", "fill.py"), tc.mode); err != nil {
				t.Fatal(err)
			}
			_, parent := workspace(t)
			st := expectStaged(t, in, parent, DefaultLimits()) // stagedTree asserts 0644 or 0755
			got := execFiles(t, st.Dir)
			if want := tc.exec; (len(got) == 1 && got[0] == "scripts/fill.py") != want || len(got) > 1 {
				t.Errorf("executable files %q; want fill.py executable = %v", got, want)
			}
		})
	}
}
