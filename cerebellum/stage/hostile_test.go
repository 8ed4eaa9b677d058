package stage

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type hostileCase struct {
	input string // under testdata/hostile
	lim   func(*Limits)
	want  error
	msg   string // substring of the message
}

func hostileCases() []hostileCase {
	maxFiles := func(n int) func(*Limits) { return func(l *Limits) { l.MaxFiles = n } }
	return []hostileCase{
		// Escapes.
		{input: "zipslip-dotdot.zip", want: ErrUnsafePath, msg: `zip entry "../../evil.sh": escapes the capability folder: it climbs out with ".."`},
		{input: "zipslip-inner-dotdot.zip", want: ErrUnsafePath, msg: `zip entry "pdf-tools/../../evil.sh": escapes the capability folder: it climbs out`},
		{input: "abs-unix.zip", want: ErrUnsafePath, msg: `zip entry "/tmp/evil.sh": escapes the capability folder: it is an absolute path`},
		{input: "abs-backslash.zip", want: ErrUnsafePath, msg: `zip entry "\\evil.sh": escapes the capability folder: it is an absolute path`},
		{input: "drive-letter.zip", want: ErrUnsafePath, msg: `zip entry "C:/Windows/evil.dll": escapes the capability folder: it starts with drive letter "C:"`},
		{input: "drive-letter-relative.zip", want: ErrUnsafePath, msg: `zip entry "C:evil.dll": escapes the capability folder: it starts with drive letter "C:"`},
		{input: "unc-path.zip", want: ErrUnsafePath, msg: `zip entry "\\\\server\\share\\evil.sh": escapes the capability folder: it is a UNC (network) path`},
		{input: "backslash-traversal.zip", want: ErrUnsafePath, msg: `zip entry "..\\..\\evil.sh": escapes the capability folder: it climbs out with ".."`},
		// Names.
		{input: "nul-in-name.zip", want: ErrBadName, msg: `zip entry "scripts/run.py\x00.txt": unusable file name: the name contains a NUL byte`},
		{input: "control-char-name.zip", want: ErrBadName, msg: `zip entry "scripts/run\x1b[31m.sh": unusable file name: the name contains control character U+001B`},
		{input: "invalid-utf8-name.zip", want: ErrBadName, msg: `zip entry "references/caf\xe9.md": unusable file name: the name is not valid UTF-8`},
		{input: "bidi-override-name.zip", want: ErrBadName, msg: `zip entry "scripts/invoice\u202efdp.sh": unusable file name: the name contains bidirectional control U+202E`},
		{input: "windows-device-name.zip", want: ErrBadName, msg: `zip entry "assets/CON.txt": unusable file name: "CON.txt" is a reserved device name on Windows`},
		{input: "colon-name.zip", want: ErrBadName, msg: `zip entry "references/a:b.md": unusable file name: the name contains ":"`},
		{input: "long-name.zip", want: ErrBadName, msg: `unusable file name: a path component is 303 bytes long; the limit is 255`},
		// Types.
		{input: "symlink-entry.zip", want: ErrLink, msg: `zip entry "passwd": is a link: it is a symbolic link`},
		{input: "symlink-then-write.zip", want: ErrLink, msg: `zip entry "scripts": is a link: it is a symbolic link`},
		{input: "fifo-entry.zip", want: ErrSpecialFile, msg: `zip entry "pipe": is not a regular file: it is a named pipe (FIFO)`},
		{input: "chardev-entry.zip", want: ErrSpecialFile, msg: `zip entry "null": is not a regular file: it is a character device`},
		{input: "unknown-unix-type.zip", want: ErrSpecialFile, msg: `zip entry "whiteout": is not a regular file: it has Unix file type 0160000`},
		// Bombs and limits.
		{input: "zip-bomb.zip", want: ErrZipBomb, msg: `zip entry "assets/zeros.bin": looks like a zip bomb: it declares 8 MiB from`},
		{input: "bomb-many-small.zip", want: ErrZipBomb, msg: `looks like a zip bomb: the archive expands more than 100 times its size of`},
		{input: "overlapping-entries.zip", want: ErrZipBomb, msg: `zip entry "copy.bin": looks like a zip bomb: its compressed data overlaps that of "SKILL.md"`},
		{input: "declared-size-lie.zip", want: ErrCorrupt, msg: `zip entry "assets/data.bin": corrupt or truncated archive: not a valid zip file; download or re-create the archive`},
		{input: "declared-size-huge.zip", want: ErrFileTooLarge, msg: `zip entry "assets/data.bin": file too large: a file may hold at most 10 MiB`},
		{input: "too-many-files.zip", lim: maxFiles(20), want: ErrTooManyFiles, msg: `zip entry "references/note-19.md": too many files: more than 20 files`},
		{input: "too-many-entries.zip", lim: maxFiles(5), want: ErrTooManyFiles, msg: `zip "too-many-entries.zip": too many files: it has 100 entries; at most 5 files`},
		{input: "oversize-file.zip", lim: func(l *Limits) { l.MaxFileBytes = 64 << 10 }, want: ErrFileTooLarge, msg: `zip entry "assets/noise.bin": file too large: a file may hold at most 64 KiB`},
		{input: "total-too-large.zip", lim: func(l *Limits) { l.MaxTotalBytes = 64 << 10 }, want: ErrTooLarge, msg: `zip entry "assets/n4.bin": too large: the files add up to more than 64 KiB`},
		{input: "too-deep.zip", want: ErrTooDeep, msg: `/leaf.txt": nested too deeply: the path is 17 levels deep; the limit is 16`},
		{input: "oversize-skill-md.zip", lim: func(l *Limits) { l.MaxSkillMD = 4 << 10 }, want: ErrFileTooLarge, msg: `zip entry "SKILL.md": file too large: SKILL.md may hold at most 4 KiB`},
		// Nested archives.
		// Layout.
		{input: "two-skill-md.zip", want: ErrMultipleSkillMD, msg: `zip "two-skill-md.zip": more than one SKILL.md: found "a/SKILL.md", "b/SKILL.md"`},
		{input: "skill-md-any-case-twice.zip", want: ErrMultipleSkillMD, msg: `found "SKILL.md", "docs/skill.md"`},
		{input: "no-skill-md.zip", want: ErrNoSkillMD, msg: `zip "no-skill-md.zip": no SKILL.md found: the archive's top level holds "README.md", "docs/"`},
		{input: "skill-md-too-deep.zip", want: ErrLayout, msg: `zip entry "outer/inner/SKILL.md": not laid out as one capability: SKILL.md must be at the top or inside one top-level folder`},
		{input: "stray-top-level.zip", want: ErrLayout, msg: `SKILL.md is inside "pdf-tools/" but the archive's top level also holds "notes.txt"`},
		// Not zips, broken zips.
		{input: "renamed-targz.zip", want: ErrNotZip, msg: `zip "renamed-targz.zip": not a zip archive: it is a gzip file (a renamed .tar.gz?); re-pack the capability folder as a .zip`},
		{input: "renamed-targz.skill", want: ErrNotZip, msg: `zip "renamed-targz.skill": not a zip archive: it is a gzip file`},
		{input: "sfx-prefixed.zip", want: ErrNotZip, msg: `not a zip archive: it starts with bytes 4d 5a 00 00, not a zip signature`},
		{input: "truncated.zip", want: ErrCorrupt, msg: `zip "truncated.zip": corrupt or truncated archive: not a valid zip file; download or re-create the archive`},
		{input: "bad-crc.zip", want: ErrCorrupt, msg: `zip entry "SKILL.md": corrupt or truncated archive: checksum error`},
		{input: "encrypted.zip", want: ErrUnsupportedEntry, msg: `zip entry "secret.txt": unsupported zip feature: it is encrypted`},
		{input: "bzip2-method.zip", want: ErrUnsupportedEntry, msg: `zip entry "data.txt": unsupported zip feature: compression method 12 is not supported`},
		{input: "empty.zip", want: ErrEmpty, msg: `zip "empty.zip": empty: it holds no files`},
		{input: "zero-bytes.zip", want: ErrEmpty, msg: `zip "zero-bytes.zip": empty: the file is 0 bytes`},
		{input: "only-junk.zip", want: ErrEmpty, msg: `empty: it holds no files, only ".DS_Store", "__MACOSX/"`},
		{input: "empty-skill-md.zip", want: ErrEmpty, msg: `zip entry "SKILL.md": empty: SKILL.md has no content`},
		// Duplicates.
		{input: "duplicate-entry.zip", want: ErrDuplicate, msg: `zip entry "SKILL.md": duplicate path: "SKILL.md" appears twice`},
		{input: "case-collision.zip", want: ErrDuplicate, msg: `zip entry "scripts/run.py": duplicate path: "scripts/Run.py" and "scripts/run.py" differ only in case`},
		{input: "folder-case-collision.zip", want: ErrDuplicate, msg: `zip entry "docs/b.md": duplicate path: "Docs" and "docs" differ only in case`},
		{input: "file-folder-conflict.zip", want: ErrDuplicate, msg: `zip entry "assets/logo.svg": duplicate path: "assets" is both a file and a folder`},
		{input: "dot-alias.zip", want: ErrDuplicate, msg: `zip entry "scripts/run.py": duplicate path: "scripts/run.py" appears twice`},
		// Lone files.
		{input: "empty.md", want: ErrEmpty, msg: `file "empty.md": empty: the file has no content`},
		{input: "oversize.md", lim: func(l *Limits) { l.MaxSkillMD = 4 << 10 }, want: ErrFileTooLarge, msg: `file "oversize.md": file too large: SKILL.md may hold at most 4 KiB`},
		{input: "notes.txt", want: ErrUnsupportedInput, msg: `input "notes.txt": unsupported input: drop a SKILL.md (.md) file, a capability folder, or a .zip/.skill archive`},
		{input: "zip-renamed.md", want: ErrUnsupportedInput, msg: `input "zip-renamed.md": unsupported input: it is a zip archive, not Markdown; rename it to end in .zip`},
		{input: "capability.tar.gz", want: ErrUnsupportedInput, msg: `input "capability.tar.gz": unsupported input: it is a gzip file (a renamed .tar.gz?); re-pack it as a .zip`},
		// Folders.
		{input: "folder-two-skill-md", want: ErrMultipleSkillMD, msg: `folder "folder-two-skill-md": more than one SKILL.md: found "a/SKILL.md", "b/SKILL.md"`},
		{input: "folder-no-skill-md", want: ErrNoSkillMD, msg: `folder "folder-no-skill-md": no SKILL.md found: the folder's top level holds "README.md", "docs/"`},
		{input: "folder-stray", want: ErrLayout, msg: `SKILL.md is inside "pdf-tools/" but the folder's top level also holds "notes.txt"`},
		{input: "folder-too-deep", want: ErrTooDeep, msg: `nested too deeply: the path is 17 levels deep; the limit is 16`},
	}
}

// TestStageHostile runs the committed corpus: each input fails with its
// sentinel and message, and neither the workspace nor the input changes.
func TestStageHostile(t *testing.T) {
	for _, tc := range hostileCases() {
		t.Run(tc.input, func(t *testing.T) {
			lim := DefaultLimits()
			if tc.lim != nil {
				tc.lim(&lim)
			}
			input, err := filepath.Abs(filepath.Join("testdata", "hostile", tc.input))
			if err != nil {
				t.Fatal(err)
			}
			expectRejected(t, input, lim, tc.want, tc.msg)
		})
	}
}

// expectRejected stages input into a fresh workspace and checks the error
// and that nothing under the workspace or the input changed.
func expectRejected(t *testing.T, input string, lim Limits, want error, msg string) {
	t.Helper()
	tmp, parent := workspace(t)
	beforeWS, beforeIn := treeHash(t, tmp), treeHash(t, input)
	st, err := Stage(input, parent, lim)
	if err == nil {
		t.Fatalf("Stage accepted it: %+v", st)
	}
	if !errors.Is(err, want) {
		t.Errorf("error %q is not %v", err, want)
	}
	var se *Error
	if !errors.As(err, &se) {
		t.Errorf("error %q is not a *stage.Error", err)
	}
	if !strings.Contains(err.Error(), msg) {
		t.Errorf("message\n  %s\nlacks\n  %s", err, msg)
	}
	if strings.ContainsAny(err.Error(), "\n\r") {
		t.Errorf("message spans lines: %q", err)
	}
	if got := treeHash(t, tmp); got != beforeWS {
		t.Errorf("the workspace changed")
	}
	if got := treeHash(t, input); got != beforeIn {
		t.Errorf("the input changed")
	}
}

// TestEverySentinelCovered keeps the corpus honest: each sentinel has at
// least one hostile case.
func TestEverySentinelCovered(t *testing.T) {
	all := []error{ErrUnsupportedInput, ErrNotZip, ErrCorrupt, ErrUnsupportedEntry, ErrEmpty, ErrUnsafePath,
		ErrBadName, ErrLink, ErrSpecialFile, ErrDuplicate, ErrTooManyFiles, ErrTooLarge,
		ErrFileTooLarge, ErrZipBomb, ErrTooDeep, ErrNoSkillMD, ErrMultipleSkillMD, ErrLayout}
	cases := hostileCases()
	if len(cases) < 25 {
		t.Errorf("only %d hostile cases", len(cases))
	}
	for _, s := range all {
		found := false
		for _, tc := range cases {
			found = found || tc.want == s
		}
		if !found {
			t.Errorf("no hostile case for %v", s)
		}
	}
	// Every committed hostile input has a case.
	entries, err := os.ReadDir(filepath.Join("testdata", "hostile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		found := false
		for _, tc := range cases {
			found = found || tc.input == e.Name()
		}
		if !found {
			t.Errorf("testdata/hostile/%s has no case", e.Name())
		}
	}
}
