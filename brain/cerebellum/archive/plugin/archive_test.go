package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

var stamp = time.Date(2024, 5, 6, 7, 8, 0, 0, time.UTC)

func TestInitRegistersDeclaredTools(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := skillmd.Parse(data, skillmd.Options{Folder: "archive"})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := Init(&sdk.Env{Name: "archive"})
	var declared []string
	for _, tool := range m.Tools {
		declared = append(declared, tool.Name)
	}
	if got, want := strings.Join(p.ToolNames(), ","), "archive_create,archive_extract,archive_list"; got != want || len(declared) != 3 {
		t.Fatalf("registered %s, declared %v", got, declared)
	}
	for _, n := range declared {
		if p.Handler(n) == nil {
			t.Errorf("%s has no handler", n)
		}
	}
	line := `archive_extract {"dest":"out","overwrite":true,"path":"a.zip"}`
	if !m.ConfirmPatterns[0].Re.MatchString(line) || m.ConfirmPatterns[0].Re.MatchString(`archive_extract {"overwrite":false,"path":"a.zip"}`) {
		t.Error("overwrite confirm pattern does not match as intended")
	}
}

// zent is one zip entry to build.
type zent struct {
	name string
	body string
	mode fs.FileMode
}

func makeZip(t *testing.T, p string, ents []zent) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range ents {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: stamp}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tent is one tar entry to build.
type tent struct {
	hdr  tar.Header
	body string
}

func makeTarGz(t *testing.T, p string, ents []tent) {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range ents {
		h := e.hdr
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(e.body))
		}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		h.ModTime = stamp
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e.body))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newArch(t *testing.T) (*sdk.Plugin, string) {
	t.Helper()
	dir := t.TempDir()
	p, err := Init(&sdk.Env{Name: "archive", Roots: []string{dir}, Workspace: filepath.Join(dir, "ws")})
	if err != nil {
		t.Fatal(err)
	}
	return p, dir
}

func call(t *testing.T, p *sdk.Plugin, tool string, args map[string]any) (string, error) {
	t.Helper()
	raw, _ := json.Marshal(args)
	req, err := sdk.NewRequest(tool, raw)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Handler(tool)(context.Background(), req)
	if err != nil {
		var te *sdk.ToolError
		if !errors.As(err, &te) {
			t.Errorf("error is not a *sdk.ToolError: %v", err)
		}
		return "", err
	}
	return res.Text, nil
}

func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, _ := os.ReadFile(p)
		out[rel] = string(b)
		return nil
	})
	return out
}

func TestListAndExtract(t *testing.T) {
	p, dir := newArch(t)
	makeZip(t, filepath.Join(dir, "docs.zip"), []zent{
		{name: "docs/"}, {name: "docs/a.txt", body: "alpha"}, {name: "docs/sub/b.txt", body: "beta"},
		{name: "docs/run.sh", body: "#!/bin/sh\n", mode: 0o755},
	})
	makeTarGz(t, filepath.Join(dir, "src.tgz"), []tent{
		{hdr: tar.Header{Name: "./", Typeflag: tar.TypeDir, Mode: 0o755}},
		{hdr: tar.Header{Name: "./main.go"}, body: "package main"},
		{hdr: tar.Header{Name: "./pkg/", Typeflag: tar.TypeDir, Mode: 0o755}},
		{hdr: tar.Header{Name: "./pkg/x.go"}, body: "package pkg"},
	})
	out, err := call(t, p, "archive_list", map[string]any{"path": "docs.zip"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"zip archive, 4 entries, 3 files, 19 B uncompressed", "5 B  2024-05-06 07:08  docs/a.txt", "docs/sub/b.txt"} {
		if !strings.Contains(out, w) {
			t.Errorf("list lacks %q:\n%s", w, out)
		}
	}
	out, err = call(t, p, "archive_list", map[string]any{"path": "src.tgz"})
	if err != nil || !strings.Contains(out, "tar.gz archive, 4 entries, 2 files") || !strings.Contains(out, "./pkg/x.go") {
		t.Errorf("list tgz = %q, %v", out, err)
	}

	out, err = call(t, p, "archive_extract", map[string]any{"path": "docs.zip"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "extracted 3 files and 1 folders") {
		t.Errorf("extract = %q", out)
	}
	got := readTree(t, filepath.Join(dir, "docs"))
	want := map[string]string{"docs/": "", "docs/a.txt": "alpha", "docs/sub/": "", "docs/sub/b.txt": "beta", "docs/run.sh": "#!/bin/sh\n"}
	if len(got) != len(want) {
		t.Errorf("tree = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if info, err := os.Stat(filepath.Join(dir, "docs", "docs", "run.sh")); err != nil || (runtime.GOOS != "windows" && info.Mode().Perm() != 0o755) {
		t.Errorf("run.sh mode = %v, %v", info, err)
	}
	if _, err := call(t, p, "archive_extract", map[string]any{"path": "src.tgz", "dest": "out"}); err != nil {
		t.Fatal(err)
	}
	got = readTree(t, filepath.Join(dir, "out"))
	if got["main.go"] != "package main" || got["pkg/x.go"] != "package pkg" {
		t.Errorf("tgz tree = %v", got)
	}

	// Existing files are kept unless overwrite is set.
	if _, err := call(t, p, "archive_extract", map[string]any{"path": "src.tgz", "dest": "out"}); err == nil || !strings.Contains(err.Error(), "2 files already exist") {
		t.Errorf("second extract error = %v", err)
	}
	os.WriteFile(filepath.Join(dir, "out", "main.go"), []byte("changed"), 0o644)
	if _, err := call(t, p, "archive_extract", map[string]any{"path": "src.tgz", "dest": "out", "overwrite": true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "out", "main.go")); string(b) != "package main" {
		t.Errorf("overwrite kept %q", b)
	}
}

func TestHostileArchives(t *testing.T) {
	p, dir := newArch(t)
	outside := t.TempDir()
	zeros := strings.Repeat("\x00", 2<<20)
	if runtime.GOOS != "windows" {
		if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		zip     []zent
		tar     []tent
		errWant string
	}{
		{name: "dotdot zip", zip: []zent{{name: "ok.txt", body: "x"}, {name: "../evil.txt", body: "x"}}, errWant: "climbs out"},
		{name: "nested dotdot", zip: []zent{{name: "a/../../evil.txt", body: "x"}}, errWant: "climbs out"},
		{name: "absolute", zip: []zent{{name: "/tmp/evil.txt", body: "x"}}, errWant: "absolute path"},
		{name: "backslash dotdot", zip: []zent{{name: `..\evil.txt`, body: "x"}}, errWant: "climbs out"},
		{name: "drive letter", zip: []zent{{name: `C:\evil.txt`, body: "x"}}, errWant: "absolute path"},
		{name: "zip symlink", zip: []zent{{name: "l", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}}, errWant: "is a symlink"},
		{name: "zip bomb", zip: []zent{{name: "zeros", body: zeros}}, errWant: "zip bomb"},
		{name: "duplicate", zip: []zent{{name: "a.txt", body: "1"}, {name: "./a.txt", body: "2"}}, errWant: "appears twice"},
		{name: "file inside a file", zip: []zent{{name: "c1", body: "f"}, {name: "c1/x", body: "x"}}, errWant: `entry "c1/x" lies inside "c1", which the archive also holds as a file`},
		{name: "folder named as a file", zip: []zent{{name: "c2", body: "f"}, {name: "c2/"}}, errWant: `entry "c2/" is a folder, but the archive also holds "c2", a file of that name`},
		{name: "file named as a folder", zip: []zent{{name: "c3/"}, {name: "c3", body: "f"}}, errWant: `entry "c3" is a file, but the archive also holds a folder of that name ("c3/")`},
		{name: "file where files lie", zip: []zent{{name: "c4/a/b", body: "x"}, {name: "c4/a", body: "f"}}, errWant: `entry "c4/a" is a file, but the archive also holds a folder of that name ("c4/a/b")`},
		{name: "tar folder then file", tar: []tent{{hdr: tar.Header{Name: "c5", Typeflag: tar.TypeDir, Mode: 0o755}}, {hdr: tar.Header{Name: "./c5"}, body: "f"}}, errWant: `entry "./c5" is a file, but the archive also holds a folder`},
		{name: "dotdot tar", tar: []tent{{hdr: tar.Header{Name: "../../evil.txt"}, body: "x"}}, errWant: "climbs out"},
		{name: "tar symlink", tar: []tent{{hdr: tar.Header{Name: "l", Typeflag: tar.TypeSymlink, Linkname: "/etc"}}}, errWant: "is a symlink"},
		{name: "tar hardlink", tar: []tent{{hdr: tar.Header{Name: "h", Typeflag: tar.TypeLink, Linkname: "/etc/passwd"}}}, errWant: "is a hardlink"},
		{name: "tar device", tar: []tent{{hdr: tar.Header{Name: "dev", Typeflag: tar.TypeChar, Devmajor: 1, Devminor: 3}}}, errWant: "special file"},
		{name: "tar fifo", tar: []tent{{hdr: tar.Header{Name: "fifo", Typeflag: tar.TypeFifo}}}, errWant: "special file"},
		{name: "tar bomb", tar: []tent{{hdr: tar.Header{Name: "zeros"}, body: zeros}}, errWant: "decompression bomb"},
	}
	if runtime.GOOS != "windows" {
		tests = append(tests, struct {
			name    string
			zip     []zent
			tar     []tent
			errWant string
		}{name: "through symlink in dest", zip: []zent{{name: "link/pwned.txt", body: "x"}}, errWant: "outside the destination"})
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := filepath.Join(dir, "a"+string(rune('a'+i)))
			if tc.zip != nil {
				name += ".zip"
				makeZip(t, name, tc.zip)
			} else {
				name += ".tgz"
				makeTarGz(t, name, tc.tar)
			}
			_, err := call(t, p, "archive_extract", map[string]any{"path": name, "dest": "."})
			if err == nil || !strings.Contains(err.Error(), tc.errWant) || !strings.Contains(err.Error(), "Nothing was written") {
				t.Fatalf("error = %v, want %q", err, tc.errWant)
			}
			for _, f := range []string{filepath.Join(dir, "ok.txt"), filepath.Join(filepath.Dir(dir), "evil.txt"), filepath.Join(outside, "pwned.txt"), filepath.Join(dir, "zeros")} {
				if _, err := os.Lstat(f); err == nil {
					t.Errorf("%s was written", f)
				}
			}
		})
	}
}

func TestLimits(t *testing.T) {
	dir := t.TempDir()
	a := &arch{env: &sdk.Env{Name: "archive", Roots: []string{dir}, Workspace: filepath.Join(dir, "ws")}, maxEntries: 20, maxTotal: 100}
	p := sdk.NewPlugin()
	p.Handle("archive_list", a.list)
	p.Handle("archive_extract", a.extract)
	ents := make([]zent, 21)
	for i := range ents {
		ents[i] = zent{name: "f" + time.Duration(i).String()}
	}
	makeZip(t, filepath.Join(dir, "many.zip"), ents)
	if _, err := call(t, p, "archive_extract", map[string]any{"path": "many.zip"}); err == nil || !strings.Contains(err.Error(), "more than 20 entries") {
		t.Fatalf("error = %v", err)
	}
	out, err := call(t, p, "archive_list", map[string]any{"path": "many.zip"})
	if err != nil || !strings.Contains(out, "more than 20 entries") {
		t.Fatalf("list = %.200q, %v", out, err)
	}
	makeZip(t, filepath.Join(dir, "big.zip"), []zent{{name: "a", body: strings.Repeat("x", 60)}, {name: "b", body: strings.Repeat("y", 60)}})
	if _, err := call(t, p, "archive_extract", map[string]any{"path": "big.zip"}); err == nil || !strings.Contains(err.Error(), "it would write 120 B; the limit is 100 B") {
		t.Fatalf("error = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "big")); err == nil {
		t.Error("the destination was created although the archive was refused")
	}
}

func TestLyingZipSize(t *testing.T) {
	p, dir := newArch(t)
	// A deflate stream of 1000 bytes whose header claims 5.
	var deflated bytes.Buffer
	{
		var tmp bytes.Buffer
		zw := zip.NewWriter(&tmp)
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: "x", Method: zip.Deflate})
		w.Write([]byte(strings.Repeat("A", 1000)))
		zw.Close()
		r, _ := zip.NewReader(bytes.NewReader(tmp.Bytes()), int64(tmp.Len()))
		raw, _ := r.File[0].OpenRaw()
		deflated.ReadFrom(raw)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "liar.txt", Method: zip.Deflate,
		CompressedSize64: uint64(deflated.Len()), UncompressedSize64: 5})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(deflated.Bytes())
	zw.Close()
	os.WriteFile(filepath.Join(dir, "liar.zip"), buf.Bytes(), 0o644)
	_, err = call(t, p, "archive_extract", map[string]any{"path": "liar.zip", "dest": "o"})
	if err == nil {
		t.Fatal("a zip whose entry is larger than declared was extracted without error")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "o", "liar.txt")); len(b) > 6 {
		t.Errorf("%d bytes were written for a 5-byte entry", len(b))
	}
}

func TestNotAnArchive(t *testing.T) {
	p, dir := newArch(t)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o644)
	os.WriteFile(filepath.Join(dir, "broken.zip"), []byte("PK\x03\x04garbage"), 0o644)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"archive_list", map[string]any{"path": "notes.txt"}, "not a zip, tar or tar.gz"},
		{"archive_list", map[string]any{"path": "broken.zip"}, "not a readable zip archive"},
		{"archive_list", map[string]any{"path": "missing.zip"}, "does not exist"},
		{"archive_list", map[string]any{"path": "/etc/x.zip"}, "outside the folders"},
		{"archive_extract", map[string]any{"path": "notes.txt"}, "not a zip"},
		{"archive_extract", map[string]any{"path": "x.zip", "dest": "/etc"}, "outside the folders"},
	} {
		if _, err := call(t, p, tc.tool, tc.args); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: error = %v, want %q", tc.tool, tc.args, err, tc.want)
		}
	}
}

func TestCreateRoundTrip(t *testing.T) {
	p, dir := newArch(t)
	files := map[string]string{"proj/a.txt": "alpha", "proj/sub/b.txt": "beta", "readme.md": "# hi"}
	for name, body := range files {
		f := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, []byte(body), 0o644)
	}
	if runtime.GOOS != "windows" {
		os.Symlink("/etc/passwd", filepath.Join(dir, "proj", "link"))
	}
	for _, format := range []string{"zip", "tar.gz"} {
		t.Run(format, func(t *testing.T) {
			dest := "bundle." + format
			out, err := call(t, p, "archive_create", map[string]any{"dest": dest, "sources": []string{"proj", "readme.md"}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, "3 files") {
				t.Errorf("create = %q", out)
			}
			if runtime.GOOS != "windows" && !strings.Contains(out, "skipped 1 symlinks") {
				t.Errorf("create = %q, want the symlink skipped", out)
			}
			if _, err := call(t, p, "archive_create", map[string]any{"dest": dest, "sources": []string{"readme.md"}}); err == nil || !strings.Contains(err.Error(), "already exists") {
				t.Errorf("second create error = %v", err)
			}
			if _, err := call(t, p, "archive_extract", map[string]any{"path": dest, "dest": "x-" + format}); err != nil {
				t.Fatal(err)
			}
			got := readTree(t, filepath.Join(dir, "x-"+format))
			for name, body := range files {
				if got[name] != body {
					t.Errorf("%s = %q, want %q (tree %v)", name, got[name], body, got)
				}
			}
			if _, ok := got["proj/link"]; ok {
				t.Error("symlink was archived")
			}
		})
	}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"dest": "x.rar", "sources": []string{"readme.md"}}, "cannot tell the format"},
		{map[string]any{"dest": "x.zip", "sources": []string{"readme.md"}, "format": "7z"}, "not supported"},
		{map[string]any{"dest": "x.zip", "sources": []string{}}, "sources is empty"},
		{map[string]any{"dest": "x.zip", "sources": []string{"/etc/hosts"}}, "outside the folders"},
		{map[string]any{"dest": "x.zip", "sources": []string{"missing"}}, "does not exist"},
		{map[string]any{"dest": "/tmp/x.zip", "sources": []string{"readme.md"}}, "outside the folders"},
	} {
		if _, err := call(t, p, "archive_create", tc.args); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error = %v, want %q", tc.args, err, tc.want)
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".wrasse-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestCleanName(t *testing.T) {
	for in, want := range map[string]string{
		"a/b.txt": "a/b.txt", "./a": "a", "a//b/": "a/b", "./": ".", "a/..": ".",
		"../x": "", "/abs": "", `C:\x`: "", `a\..\..\x`: "", "": "", "..": "",
	} {
		if got := cleanName(in); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

// protectedArch is the archive plugin as the app loads it: a granted
// folder holding the workspace, with the workspace's protected paths.
func protectedArch(t *testing.T) (p *sdk.Plugin, home, ws string) {
	t.Helper()
	home = t.TempDir()
	ws = filepath.Join(home, "ws")
	skill := filepath.Join(ws, "brain", "cerebellum", "notes")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	for p, body := range map[string]string{filepath.Join(skill, "SKILL.md"): "---\nname: notes\n---\n", filepath.Join(ws, "config.json"): "{}"} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Init(&sdk.Env{Name: "archive", Roots: []string{home, ws}, Workspace: ws,
		NoAccess: []string{filepath.Join(ws, "wrasse.db"), filepath.Join(ws, "config.json"), filepath.Join(ws, "logs")},
		ReadOnly: []string{filepath.Join(ws, "brain", "cerebellum")}})
	if err != nil {
		t.Fatal(err)
	}
	return p, home, ws
}

// Reproduction: an entry passing through a link planted in the
// destination was written wherever the link led, as long as that was in
// the granted folders. Links in the destination are never followed.
func TestExtractThroughPlantedLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	p, home, ws := protectedArch(t)
	dest := filepath.Join(home, "dest")
	other := filepath.Join(home, "other")
	for _, d := range []string{dest, other} {
		os.Mkdir(d, 0o755)
	}
	for name, target := range map[string]string{"elsewhere": other, "caps": filepath.Join(ws, "brain", "cerebellum"), "ws": ws} {
		if err := os.Symlink(target, filepath.Join(dest, name)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		entry   string
		errWant string
	}{
		{"elsewhere/x.txt", "outside the destination"},
		{"caps/evil/SKILL.md", "outside the destination"},
		{"ws/config.json", "outside the destination"},
		{"elsewhere", "outside the destination"},
	}
	for i, tt := range tests {
		zipPath := filepath.Join(home, fmt.Sprintf("z%d.zip", i))
		makeZip(t, zipPath, []zent{{name: tt.entry, body: "pwned"}})
		for _, overwrite := range []bool{false, true} {
			_, err := call(t, p, "archive_extract", map[string]any{"path": zipPath, "dest": dest, "overwrite": overwrite})
			if err == nil || !strings.Contains(err.Error(), tt.errWant) || !strings.Contains(err.Error(), "Nothing was written") {
				t.Errorf("entry %s: error = %v, want %q", tt.entry, err, tt.errWant)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(other, "x.txt")); err == nil {
		t.Error("an entry was written through the link")
	}
	if _, err := os.Stat(filepath.Join(ws, "brain", "cerebellum", "evil")); err == nil {
		t.Error("a capability was planted through the link")
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "config.json")); string(b) != "{}" {
		t.Errorf("config.json = %q", b)
	}
}

// Reproduction: extracting with overwrite opened the existing file with
// O_TRUNC, so a hard link in the destination to a capability's SKILL.md
// (or any file elsewhere) had that file rewritten. Entries are written to
// a temporary file renamed over the name: the other file keeps its content.
func TestExtractNeverWritesThroughHardLinks(t *testing.T) {
	p, home, ws := protectedArch(t)
	skill := filepath.Join(ws, "brain", "cerebellum", "notes", "SKILL.md")
	dest := filepath.Join(home, "dest")
	os.Mkdir(dest, 0o755)
	if err := os.Link(skill, filepath.Join(dest, "SKILL.md")); err != nil {
		t.Skip("hard links unsupported:", err)
	}
	zipPath := filepath.Join(home, "update.zip")
	makeZip(t, zipPath, []zent{{name: "SKILL.md", body: "---\nname: notes\nmcp:\n  command: evil\n---\n"}})
	out, err := call(t, p, "archive_extract", map[string]any{"path": zipPath, "dest": dest, "overwrite": true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "extracted 1 files") {
		t.Errorf("extract = %q", out)
	}
	if b, _ := os.ReadFile(skill); string(b) != "---\nname: notes\n---\n" {
		t.Errorf("the capability's SKILL.md was rewritten through a hard link: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dest, "SKILL.md")); !strings.Contains(string(b), "evil") {
		t.Errorf("the destination's file = %q", b)
	}
	// A hard link to a file no tool may touch is refused by name.
	if err := os.Link(filepath.Join(ws, "config.json"), filepath.Join(dest, "settings.json")); err != nil {
		t.Fatal(err)
	}
	makeZip(t, zipPath, []zent{{name: "settings.json", body: "pwned"}})
	if _, err := call(t, p, "archive_extract", map[string]any{"path": zipPath, "dest": dest, "overwrite": true}); err == nil || !strings.Contains(err.Error(), "no tool may") {
		t.Errorf("extract over a hard link to config.json: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "config.json")); string(b) != "{}" {
		t.Errorf("config.json = %q", b)
	}
}

// lyingEntry is a stored zip entry whose data does not match its header:
// with lie "size" it holds 1000 bytes but declares 5, with "crc" its
// checksum is wrong. Only extraction finds either, half-way.
func lyingEntry(t *testing.T, zw *zip.Writer, name, lie string) {
	t.Helper()
	body := []byte(strings.Repeat("A", 1000))
	h := &zip.FileHeader{Name: name, Method: zip.Store, CompressedSize64: uint64(len(body)),
		UncompressedSize64: uint64(len(body)), CRC32: crc32.ChecksumIEEE(body) + 1}
	if lie == "size" {
		var deflated bytes.Buffer
		fw, _ := flate.NewWriter(&deflated, flate.BestSpeed)
		fw.Write(body)
		fw.Close()
		h = &zip.FileHeader{Name: name, Method: zip.Deflate, CompressedSize64: uint64(deflated.Len()),
			UncompressedSize64: 5, CRC32: crc32.ChecksumIEEE(body)}
		body = deflated.Bytes()
	}
	w, err := zw.CreateRaw(h)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(body)
}

// An extraction that fails half-way for what only writing finds (an
// entry larger than it declares, a wrong checksum) takes away what it
// had made, the destination and the folders on the way to it included,
// and keeps what was there; files it replaced with overwrite are named.
// On main the entries before the failure stayed.
func TestExtractFailingHalfWayLeavesNothing(t *testing.T) {
	tests := []struct {
		name      string
		dest      string            // relative to the test folder
		before    map[string]string // the destination's files before ("dir/" a folder)
		ents      []zent
		lie       string
		overwrite bool
		errWant   string
		after     map[string]string // nil: the destination's first folder is gone
	}{
		{name: "new nested destination", dest: "new/deeper", lie: "size",
			ents:    []zent{{name: "ok.txt", body: "1"}, {name: "sub/"}, {name: "sub/deep/ok2.txt", body: "2"}},
			errWant: "Nothing was written"},
		{name: "existing destination", dest: "out", lie: "crc",
			before:  map[string]string{"keep.txt": "mine", "sub/": ""},
			ents:    []zent{{name: "sub/a.txt", body: "a"}, {name: "d/e/f.txt", body: "f"}},
			errWant: "Nothing was written",
			after:   map[string]string{"keep.txt": "mine", "sub/": ""}},
		{name: "overwrite names what it replaced", dest: "out", lie: "size", overwrite: true,
			before:  map[string]string{"a.txt": "old"},
			ents:    []zent{{name: "a.txt", body: "new"}, {name: "b.txt", body: "b"}},
			errWant: "1 existing files it had already replaced keep the archive's version: a.txt",
			after:   map[string]string{"a.txt": "new"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, dir := newArch(t)
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			for _, e := range tc.ents {
				w, err := zw.Create(e.name)
				if err != nil {
					t.Fatal(err)
				}
				w.Write([]byte(e.body))
			}
			lyingEntry(t, zw, "liar.txt", tc.lie)
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "a.zip"), buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			dest := filepath.Join(dir, filepath.FromSlash(tc.dest))
			if tc.before != nil {
				os.MkdirAll(dest, 0o755)
			}
			for name, body := range tc.before {
				if strings.HasSuffix(name, "/") {
					os.MkdirAll(filepath.Join(dest, name), 0o755)
					continue
				}
				os.WriteFile(filepath.Join(dest, name), []byte(body), 0o644)
			}
			_, err := call(t, p, "archive_extract", map[string]any{"path": "a.zip", "dest": tc.dest, "overwrite": tc.overwrite})
			if err == nil || !strings.Contains(err.Error(), tc.errWant) {
				t.Fatalf("error = %v; want %q", err, tc.errWant)
			}
			if tc.after == nil {
				first := filepath.Join(dir, strings.SplitN(tc.dest, "/", 2)[0])
				if _, err := os.Lstat(first); err == nil {
					t.Errorf("%s was left: %v", first, readTree(t, first))
				}
				return
			}
			if got := readTree(t, dest); !maps.Equal(got, tc.after) {
				t.Errorf("the destination holds %v; want %v", got, tc.after)
			}
		})
	}
}

// A file of the folder being archived that turns out, when opened, to be
// a link leading outside it is named, with what to do; on main the tool
// passed on os.Root's "open …/src/f: path escapes from parent".
func TestCollectErrorWording(t *testing.T) {
	src := filepath.Join("proj", "src")
	entry := filepath.Join(src, "f")
	tests := []struct {
		err     error
		want    []string
		notWant string
	}{
		{err: &fs.PathError{Op: "open", Path: entry, Err: fmt.Errorf("%w: it is a symbolic link leading outside the folder", sdk.ErrLink)},
			want:    []string{"cannot archive " + src, entry + " is a symbolic link leading outside the folder being archived", "remove the link, or archive the folder it leads to instead"},
			notWant: "escapes from parent"},
		{err: &fs.PathError{Op: "open", Path: entry, Err: fs.ErrPermission},
			want: []string{"cannot collect " + src, entry, "permission denied"}},
	}
	for _, tt := range tests {
		msg := collectError(src, tt.err).Error()
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("collectError(%v) = %q, lacks %q", tt.err, msg, w)
			}
		}
		if tt.notWant != "" && strings.Contains(msg, tt.notWant) {
			t.Errorf("collectError(%v) = %q", tt.err, msg)
		}
	}
}
