package stage

import (
	"errors"
	"strings"
	"testing"
)

func TestCleanName(t *testing.T) {
	cases := []struct {
		raw       string
		backslash bool
		clean     string
		dir       bool
		want      error
	}{
		{raw: "SKILL.md", backslash: true, clean: "SKILL.md"},
		{raw: "a/b/", backslash: true, clean: "a/b", dir: true},
		{raw: "./a//b/./c", backslash: true, clean: "a/b/c"},
		{raw: `dir\file.md`, backslash: true, clean: "dir/file.md"},
		{raw: `dir\file.md`, want: ErrBadName},
		{raw: "café/émoji-🙂.md", clean: "café/émoji-🙂.md"},
		{raw: "..", want: ErrUnsafePath},
		{raw: "a/../b", want: ErrUnsafePath},
		{raw: `a\..\b`, backslash: true, want: ErrUnsafePath},
		{raw: "/etc/passwd", want: ErrUnsafePath},
		{raw: `\\?\C:\x`, backslash: true, want: ErrUnsafePath},
		{raw: "//host/share", want: ErrUnsafePath},
		{raw: "c:x", want: ErrUnsafePath},
		{raw: "", want: ErrBadName},
		{raw: "a\x00b", want: ErrBadName},
		{raw: "a\x7f", want: ErrBadName},
		{raw: "a\u0085", want: ErrBadName},
		{raw: "a\u2066b", want: ErrBadName},
		{raw: "bad\xff", want: ErrBadName},
		{raw: "a/b:c", want: ErrBadName},
		{raw: "a?", want: ErrBadName},
		{raw: "x/trailing.", want: ErrBadName},
		{raw: "x/trailing ", want: ErrBadName},
		{raw: "lpt1", want: ErrBadName},
		{raw: "Aux.tar.gz", want: ErrBadName},
		{raw: "COM¹.txt", want: ErrBadName},
		{raw: "console.md", clean: "console.md"},
		{raw: "COM10", clean: "COM10"},
		{raw: strings.Repeat("a", 256), want: ErrBadName},
		{raw: strings.Repeat("a/", 600), want: ErrBadName},
	}
	for _, tc := range cases {
		clean, dir, p := cleanName(tc.raw, tc.backslash)
		switch {
		case tc.want != nil:
			if p == nil || !errors.Is(p.err, tc.want) {
				t.Errorf("cleanName(%q) = %q, %v; want %v", tc.raw, clean, p, tc.want)
			}
		case p != nil:
			t.Errorf("cleanName(%q): %v: %s", tc.raw, p.err, p.detail)
		case clean != tc.clean || dir != tc.dir:
			t.Errorf("cleanName(%q) = %q dir=%v, want %q dir=%v", tc.raw, clean, dir, tc.clean, tc.dir)
		}
	}
}

func TestJunkPrefix(t *testing.T) {
	cases := map[string]string{
		"__MACOSX/a/._b":        "__MACOSX/",
		"a/.DS_Store":           "a/.DS_Store",
		"a/.git/objects/x":      "a/.git/",
		"node_modules/x/y.js":   "node_modules/",
		"Thumbs.db":             "Thumbs.db",
		"scripts/._fill.py":     "scripts/._fill.py",
		"scripts/fill.py":       "",
		".gitignore":            "",
		".github/workflows/a.y": "",
	}
	for in, want := range cases {
		if got := junkPrefix(in, false); got != want {
			t.Errorf("junkPrefix(%q) = %q, want %q", in, got, want)
		}
	}
	if got := junkPrefix(".git", true); got != ".git/" {
		t.Errorf("junkPrefix(.git dir) = %q", got)
	}
}

func TestArchiveFormat(t *testing.T) {
	tarHead := tarBytes("x", "y")
	cases := []struct {
		head []byte
		want string
	}{
		{buildZip(file("a", "b")), "zip"},
		{buildZip(), "zip"},
		{gzipBytes([]byte("x")), "gzip"},
		{tarHead, "tar"},
		{[]byte("BZh91AY&SY"), "bzip2"},
		{[]byte("BZh is a word"), ""},
		{[]byte("\xfd7zXZ\x00\x00"), "xz"},
		{[]byte("7z\xbc\xaf\x27\x1c"), "7z"},
		{[]byte("Rar!\x1a\x07\x01\x00"), "rar"},
		{[]byte("\x28\xb5\x2f\xfd"), "zstd"},
		{[]byte("---\nname: x\n"), ""},
		{[]byte("\x89PNG\r\n\x1a\n"), ""},
		{nil, ""},
	}
	for _, tc := range cases {
		if got := archiveFormat(tc.head); got != tc.want {
			t.Errorf("archiveFormat(%q…) = %q, want %q", tc.head[:min(len(tc.head), 8)], got, tc.want)
		}
	}
}
