package stage

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"flag"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// The corpus under testdata/ (hostile/, happy/ and the fuzz seeds) is made
// by corpus() below. Regenerate with:
//
//	go test ./cerebellum/stage -run TestCorpusUpToDate -update
var update = flag.Bool("update", false, "rewrite the generated corpus under testdata/")

// genFile is one generated file, path relative to testdata/.
type genFile struct {
	path string
	data []byte
}

// fixedTime keeps zip timestamps, and so the bytes, reproducible.
var fixedTime = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

const skillBody = "---\nname: pdf-tools\ndescription: Fill and merge PDF forms.\n---\n\n# PDF tools\n\nRun `python scripts/fill.py`.\n"

// zent is one zip entry for buildZip.
type zent struct {
	name  string
	data  []byte
	mode  fs.FileMode // 0 = a regular 0644 file (or 0755 folder for names ending in /)
	store bool
	// edit, when set, adjusts the header and returns the raw (already
	// compressed) bytes to write with CreateRaw.
	edit func(fh *zip.FileHeader) []byte
}

func file(name, data string) zent { return zent{name: name, data: []byte(data)} }
func dirEnt(name string) zent     { return zent{name: name} }

func buildZip(entries ...zent) []byte {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range entries {
		fh := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: fixedTime}
		switch {
		case e.mode != 0:
			fh.SetMode(e.mode)
		case strings.HasSuffix(e.name, "/"):
			fh.SetMode(fs.ModeDir | 0o755)
		default:
			fh.SetMode(0o644)
		}
		if e.store || strings.HasSuffix(e.name, "/") {
			fh.Method = zip.Store
		}
		if e.edit != nil {
			fh.CRC32 = crc32.ChecksumIEEE(e.data)
			fh.UncompressedSize64 = uint64(len(e.data))
			raw := e.edit(fh)
			if fh.CompressedSize64 == 0 {
				fh.CompressedSize64 = uint64(len(raw))
			}
			wr, err := w.CreateRaw(fh)
			must(err)
			_, err = wr.Write(raw)
			must(err)
			continue
		}
		wr, err := w.CreateHeader(fh)
		must(err)
		_, err = wr.Write(e.data)
		must(err)
	}
	must(w.Close())
	return buf.Bytes()
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func deflate(data []byte) []byte {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	must(err)
	_, err = w.Write(data)
	must(err)
	must(w.Close())
	return buf.Bytes()
}

func gzipBytes(data []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, err := w.Write(data)
	must(err)
	must(w.Close())
	return buf.Bytes()
}

func tarBytes(name, data string) []byte {
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	must(w.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: fixedTime, Format: tar.FormatPAX}))
	_, err := w.Write([]byte(data))
	must(err)
	must(w.Close())
	return buf.Bytes()
}

// noise is deterministic incompressible bytes (xorshift64).
func noise(n int, seed uint64) []byte {
	b := make([]byte, n)
	x := seed | 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = byte(x)
	}
	return b
}

// overlapZip hand-writes a zip whose two central records point at one local
// header: the non-recursive zip bomb construction, at toy size.
func overlapZip() []byte {
	data := bytes.Repeat([]byte("A"), 4096)
	comp := deflate(data)
	crc := crc32.ChecksumIEEE(data)
	var b bytes.Buffer
	le := func(v any) { must(binary.Write(&b, binary.LittleEndian, v)) }
	local := "kernel.bin"
	le(uint32(0x04034b50))
	le([]uint16{20, 0, 8, 0, 0})
	le([]uint32{crc, uint32(len(comp)), uint32(len(data))})
	le([]uint16{uint16(len(local)), 0})
	b.WriteString(local)
	b.Write(comp)
	cdStart := b.Len()
	names := []string{"SKILL.md", "copy.bin"}
	for _, n := range names {
		le(uint32(0x02014b50))
		le([]uint16{20, 20, 0, 8, 0, 0})
		le([]uint32{crc, uint32(len(comp)), uint32(len(data))})
		le([]uint16{uint16(len(n)), 0, 0, 0, 0})
		le([]uint32{0, 0})
		b.WriteString(n)
	}
	cdLen := b.Len() - cdStart
	le(uint32(0x06054b50))
	le([]uint16{0, 0, uint16(len(names)), uint16(len(names))})
	le([]uint32{uint32(cdLen), uint32(cdStart)})
	le(uint16(0))
	return b.Bytes()
}

func manySmall(n, each int) []zent {
	es := []zent{file("SKILL.md", skillBody)}
	zero := make([]byte, each)
	for i := range n {
		es = append(es, zent{name: fmt.Sprintf("assets/blank-%02d.bin", i), data: zero})
	}
	return es
}

func numbered(n int) []zent {
	es := []zent{file("SKILL.md", skillBody)}
	for i := range n {
		es = append(es, file(fmt.Sprintf("references/note-%02d.md", i), "note\n"))
	}
	return es
}

func deepPath(levels int) string {
	parts := make([]string, levels-1)
	for i := range parts {
		parts[i] = fmt.Sprintf("d%02d", i)
	}
	return strings.Join(parts, "/") + "/leaf.txt"
}

// corpus returns every generated file, sorted by path.
func corpus() []genFile {
	var out []genFile
	add := func(path string, data []byte) { out = append(out, genFile{path, data}) }
	hz := func(name string, es ...zent) { add("hostile/"+name, buildZip(es...)) }
	skill := file("SKILL.md", skillBody)
	valid := buildZip(skill, file("scripts/fill.py", "print('fill')\n"))
	docx := buildZip(file("[Content_Types].xml", "<Types/>"), file("word/document.xml", "<w:document/>"))
	targz := gzipBytes(tarBytes("pdf-tools/SKILL.md", skillBody))

	// Escapes.
	hz("zipslip-dotdot.zip", skill, file("../../evil.sh", "rm -rf ~\n"))
	hz("zipslip-inner-dotdot.zip", file("pdf-tools/SKILL.md", skillBody), file("pdf-tools/../../evil.sh", "x"))
	hz("abs-unix.zip", skill, file("/tmp/evil.sh", "x"))
	hz("abs-backslash.zip", skill, file(`\evil.sh`, "x"))
	hz("drive-letter.zip", skill, file("C:/Windows/evil.dll", "x"))
	hz("drive-letter-relative.zip", skill, file("C:evil.dll", "x"))
	hz("unc-path.zip", skill, file(`\\server\share\evil.sh`, "x"))
	hz("backslash-traversal.zip", skill, file(`..\..\evil.sh`, "x"))
	// Names.
	hz("nul-in-name.zip", skill, file("scripts/run.py\x00.txt", "x"))
	hz("control-char-name.zip", skill, file("scripts/run\x1b[31m.sh", "x"))
	hz("invalid-utf8-name.zip", skill, file("references/caf\xe9.md", "x"))
	hz("bidi-override-name.zip", skill, file("scripts/invoice\u202Efdp.sh", "x"))
	hz("windows-device-name.zip", skill, file("assets/CON.txt", "x"))
	hz("colon-name.zip", skill, file("references/a:b.md", "x"))
	hz("long-name.zip", skill, file("references/"+strings.Repeat("n", 300)+".md", "x"))
	// Types.
	hz("symlink-entry.zip", skill, zent{name: "passwd", data: []byte("/etc/passwd"), mode: fs.ModeSymlink | 0o777})
	hz("symlink-then-write.zip", skill, zent{name: "scripts", data: []byte("../../.."), mode: fs.ModeSymlink | 0o777}, file("scripts/evil.sh", "x"))
	hz("fifo-entry.zip", skill, zent{name: "pipe", mode: fs.ModeNamedPipe | 0o644})
	hz("chardev-entry.zip", skill, zent{name: "null", mode: fs.ModeDevice | fs.ModeCharDevice | 0o666})
	hz("unknown-unix-type.zip", skill, zent{name: "whiteout", data: []byte("x"), edit: func(fh *zip.FileHeader) []byte {
		fh.Method = zip.Store
		fh.CreatorVersion = 3 << 8
		fh.ExternalAttrs = 0o160644 << 16
		return []byte("x")
	}})
	// Bombs and limits.
	hz("zip-bomb.zip", skill, zent{name: "assets/zeros.bin", data: make([]byte, 8<<20)})
	hz("bomb-many-small.zip", manySmall(40, ratioFloor)...)
	add("hostile/overlapping-entries.zip", overlapZip())
	big := bytes.Repeat([]byte("A"), 4<<20)
	hz("declared-size-lie.zip", skill, zent{name: "assets/data.bin", data: big, edit: func(fh *zip.FileHeader) []byte {
		fh.UncompressedSize64 = 16
		return deflate(big)
	}})
	hz("declared-size-huge.zip", skill, zent{name: "assets/data.bin", data: []byte("hello"), edit: func(fh *zip.FileHeader) []byte {
		fh.Method = zip.Store
		fh.UncompressedSize64 = 64 << 20
		fh.CompressedSize64 = 64 << 20
		return []byte("hello")
	}})
	hz("too-many-files.zip", numbered(20)...)
	hz("too-many-entries.zip", numbered(99)...)
	hz("oversize-file.zip", skill, zent{name: "assets/noise.bin", data: noise(80<<10, 1), store: true})
	hz("total-too-large.zip", skill,
		zent{name: "assets/n1.bin", data: noise(20<<10, 2), store: true},
		zent{name: "assets/n2.bin", data: noise(20<<10, 3), store: true},
		zent{name: "assets/n3.bin", data: noise(20<<10, 4), store: true},
		zent{name: "assets/n4.bin", data: noise(20<<10, 5), store: true})
	hz("too-deep.zip", skill, file(deepPath(17), "x"))
	hz("oversize-skill-md.zip", zent{name: "SKILL.md", data: append([]byte(skillBody), noise(5000, 6)...), store: true})
	// Nested archives.
	// Layout.
	hz("two-skill-md.zip", file("a/SKILL.md", skillBody), file("b/SKILL.md", skillBody))
	hz("skill-md-any-case-twice.zip", skill, file("docs/skill.md", skillBody))
	hz("no-skill-md.zip", file("README.md", "# readme\n"), file("docs/guide.md", "# guide\n"))
	hz("skill-md-too-deep.zip", file("outer/inner/SKILL.md", skillBody))
	hz("stray-top-level.zip", file("pdf-tools/SKILL.md", skillBody), file("notes.txt", "x"))
	// Not zips, broken zips.
	add("hostile/renamed-targz.zip", targz)
	add("hostile/renamed-targz.skill", targz)
	add("hostile/sfx-prefixed.zip", append(append([]byte("MZ"), make([]byte, 62)...), valid...))
	add("hostile/truncated.zip", valid[:len(valid)/2])
	badCRC := buildZip(zent{name: "SKILL.md", data: []byte(skillBody), store: true})
	badCRC[bytes.Index(badCRC, []byte("PDF tools"))] ^= 0x20
	add("hostile/bad-crc.zip", badCRC)
	hz("encrypted.zip", skill, zent{name: "secret.txt", data: []byte("x"), edit: func(fh *zip.FileHeader) []byte {
		fh.Flags |= 0x1
		fh.Method = zip.Store
		return []byte("x")
	}})
	hz("bzip2-method.zip", skill, zent{name: "data.txt", data: []byte("x"), edit: func(fh *zip.FileHeader) []byte {
		fh.Method = 12
		return []byte("BZh9")
	}})
	hz("empty.zip")
	add("hostile/zero-bytes.zip", nil)
	hz("only-junk.zip", file("__MACOSX/._SKILL.md", "x"), file(".DS_Store", "x"))
	hz("empty-skill-md.zip", file("SKILL.md", ""), file("scripts/run.py", "x"))
	// Duplicates.
	hz("duplicate-entry.zip", skill, skill)
	hz("case-collision.zip", skill, file("scripts/Run.py", "a"), file("scripts/run.py", "b"))
	hz("folder-case-collision.zip", skill, file("Docs/a.md", "a"), file("docs/b.md", "b"))
	hz("file-folder-conflict.zip", skill, file("assets", "x"), file("assets/logo.svg", "<svg/>"))
	hz("dot-alias.zip", skill, file("scripts/./run.py", "a"), file("scripts/run.py", "b"))
	// Lone files.
	add("hostile/empty.md", nil)
	add("hostile/oversize.md", append([]byte(skillBody), bytes.Repeat([]byte("x"), 5000)...))
	add("hostile/notes.txt", []byte(skillBody))
	add("hostile/zip-renamed.md", valid)
	add("hostile/capability.tar.gz", targz)
	// Folders (links, FIFOs and empty folders are made at test time).
	add("hostile/folder-two-skill-md/a/SKILL.md", []byte(skillBody))
	add("hostile/folder-two-skill-md/b/SKILL.md", []byte(skillBody))
	add("hostile/folder-no-skill-md/README.md", []byte("# readme\n"))
	add("hostile/folder-no-skill-md/docs/guide.md", []byte("# guide\n"))
	add("hostile/folder-stray/pdf-tools/SKILL.md", []byte(skillBody))
	add("hostile/folder-stray/notes.txt", []byte("x"))
	add("hostile/folder-too-deep/SKILL.md", []byte(skillBody))
	add("hostile/folder-too-deep/"+deepPath(17), []byte("x"))

	// Happy paths.
	add("happy/lone.md", []byte(skillBody))
	add("happy/no-frontmatter.MD", []byte("# Just notes\n\nNo frontmatter here.\n"))
	folder := map[string][]byte{
		"SKILL.md":                []byte(skillBody),
		"scripts/fill.py":         []byte("print('fill')\n"),
		"references/REFERENCE.md": []byte("# Reference\n"),
		"assets/template.docx":    docx,
		"assets/empty.txt":        nil,
	}
	for p, d := range folder {
		add("happy/folder/"+p, d)
		add("happy/folder-wrapped/pdf-tools/"+p, d)
	}
	hzOK := func(name string, es ...zent) { add("happy/"+name, buildZip(es...)) }
	hzOK("root.zip", skill, dirEnt("scripts/"), file("scripts/fill.py", "print('fill')\n"), dirEnt("references/"), file("references/REFERENCE.md", "# Reference\n"))
	oneFolder := []zent{
		dirEnt("pdf-tools/"), file("pdf-tools/SKILL.md", skillBody), dirEnt("pdf-tools/scripts/"),
		file("pdf-tools/scripts/fill.py", "print('fill')\n"), file("pdf-tools/.DS_Store", "\x00\x00\x00\x01Bud1"),
		dirEnt("__MACOSX/"), dirEnt("__MACOSX/pdf-tools/"), file("__MACOSX/pdf-tools/._SKILL.md", "\x00\x05\x16\x07"),
	}
	hzOK("one-folder.zip", oneFolder...)
	hzOK("bundle.skill", oneFolder...)
	hzOK("powershell-backslash.zip", file(`my-skill\SKILL.md`, skillBody), file(`my-skill\scripts\run.ps1`, "Write-Output hi\n"))
	hzOK("lowercase-skill.zip", file("skill.md", skillBody))
	hzOK("junk.zip", skill, file(".git/HEAD", "ref: refs/heads/main\n"), file(".git/objects/aa/bb", "x"),
		file("node_modules/left-pad/index.js", "module.exports = 1\n"),
		zent{name: "node_modules/.bin/left-pad", data: []byte("../left-pad/index.js"), mode: fs.ModeSymlink | 0o777},
		file("Thumbs.db", "x"), file("scripts/__pycache__/fill.cpython-312.pyc", "x"), file("scripts/fill.py", "print('fill')\n"))
	hzOK("compressible.zip", skill, zent{name: "assets/blank.bin", data: make([]byte, ratioFloor)})
	hzOK("with-docx.zip", skill, zent{name: "assets/template.docx", data: docx, store: true})
	hzOK("exec-bits.zip", skill, zent{name: "scripts/run.sh", data: []byte("#!/bin/sh\necho hi\n"), mode: fs.ModeSetuid | 0o755},
		zent{name: "scripts/group-write.sh", data: []byte("#!/bin/sh\n"), mode: fs.ModeSetgid | fs.ModeSticky | 0o777},
		zent{name: "scripts/lib.sh", data: []byte("x=1\n"), mode: 0o666})
	// Archives inside a capability are ordinary files, never extracted.
	hzOK("nested-zip.zip", skill, zent{name: "assets/inner.zip", data: valid, store: true})
	hzOK("nested-gzip-as-txt.zip", skill, zent{name: "references/notes.txt", data: targz})
	hzOK("nested-targz.zip", skill, zent{name: "scripts/components.tar.gz", data: targz})
	hzOK("nested-tar-as-md.zip", skill, zent{name: "references/data.md", data: tarBytes("x.sh", "echo hi\n")})
	add("happy/folder-nested/SKILL.md", []byte(skillBody))
	add("happy/folder-nested/scripts/components.tar.gz", targz)
	add("happy/folder-nested/assets/bundle.zip", valid)

	// A collection shaped like anthropics/skills: a wrapper folder, skills
	// two levels down, files outside every skill, one skill with an
	// unusable file name.
	collection := []zent{
		file("skills-main/README.md", "# Skills\n"), file("skills-main/spec/notes.md", "spec\n"),
		file("skills-main/skills/pdf/SKILL.md", skillBody), file("skills-main/skills/pdf/scripts/fill.py", "print('fill')\n"),
		file("skills-main/skills/web/SKILL.md", strings.Replace(skillBody, "pdf-tools", "web", 1)),
		zent{name: "skills-main/skills/web/scripts/components.tar.gz", data: targz},
		file("skills-main/skills/broken/SKILL.md", strings.Replace(skillBody, "pdf-tools", "broken", 1)),
		file("skills-main/skills/broken/bad:name.txt", "x"),
		file("skills-main/template/SKILL.md", strings.Replace(skillBody, "pdf-tools", "template", 1)),
	}
	hzOK("collection.zip", collection...)
	// On disk the broken skill holds another skill instead (a name with a
	// colon cannot be checked out on Windows).
	for _, e := range collection {
		if !strings.Contains(e.name, ":") {
			add("happy/collection-folder/"+strings.TrimPrefix(e.name, "skills-main/"), e.data)
		}
	}
	add("happy/collection-folder/skills/broken/examples/SKILL.md", []byte(strings.Replace(skillBody, "pdf-tools", "examples", 1)))

	// Fuzz seeds: every small generated zip.
	var seeds []genFile
	for _, f := range out {
		ext := strings.ToLower(filepath.Ext(f.path))
		if (ext == ".zip" || ext == ".skill") && len(f.data) <= 12<<10 {
			name := strings.NewReplacer("/", "-", ".", "-").Replace(f.path)
			seeds = append(seeds, genFile{"fuzz/FuzzStageZip/" + name, []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", f.data))})
		}
	}
	out = append(out, seeds...)
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// TestCorpusUpToDate fails when testdata/ differs from what corpus() makes,
// so the committed files stay reproducible; -update rewrites them.
func TestCorpusUpToDate(t *testing.T) {
	want := corpus()
	gen := map[string]bool{}
	for _, f := range want {
		gen[f.path] = true
		path := filepath.Join("testdata", filepath.FromSlash(f.path))
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run with -update)", f.path, err)
			continue
		}
		if !bytes.Equal(got, f.data) {
			t.Errorf("%s differs from the generator's output (run with -update)", f.path)
		}
	}
	// Nothing stale in the generated trees (fuzz findings are kept by hand).
	for _, top := range []string{"hostile", "happy"} {
		err := filepath.WalkDir(filepath.Join("testdata", top), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel("testdata", path)
			if rel = filepath.ToSlash(rel); !gen[rel] {
				if *update {
					return os.Remove(path)
				}
				t.Errorf("%s is not made by the generator; remove it or add it to corpus()", rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
