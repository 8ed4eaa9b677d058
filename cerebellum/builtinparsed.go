package cerebellum

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"regexp"

	"encoding/hex"
	"fmt"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"io"
	"io/fs"
	"sort"
	"strings"
)

// ParsedFS is a built-in tree that also carries its capabilities as parsed
// when Wrasse was built: brain/cerebellum's generated parsed.jsonl
// (EncodeBuiltins' output), kept current by a test. A scan decodes them
// instead of parsing every built-in SKILL.md and hashing every file again
// (~3.6 MB allocated and several ms of CPU on every start), after checking
// that the form was made from these very files, by this parser (a hash of
// every file of every capability folder, and the manifest cache's version,
// which covers the record types). Otherwise it parses as usual.
type ParsedFS interface {
	fs.FS
	// Parsed returns EncodeBuiltins' output as recorded. The scan keeps
	// references into it, so it must not change afterwards.
	Parsed() []byte
}

// builtinMagic starts EncodeBuiltins' output, JSON lines: a first line of
// the cache version and the tree's hash, then one builtinRecord a line
// (JSON sorts map keys, so the output is the same for the same files).
const builtinMagic = `{"builtins":`

// builtinRecord is one capability of the parsed form, with the fields its
// JSON form leaves out.
type builtinRecord struct {
	Cap      *Capability `json:"cap"`
	Body     string      `json:"body,omitempty"`
	Approved string      `json:"approved,omitempty"`
}

// builtinHeader is the first line of the parsed form of fsys.
func builtinHeader(fsys fs.FS) (string, error) {
	sum, err := treeHash(fsys)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s%q,\"tree\":%q}\n", builtinMagic, cacheVersion(), sum), nil
}

// EncodeBuiltins parses every capability of a built-in tree, as a scan
// without the parsed form would, and returns them encoded for ParsedFS.
// The output depends only on the files and the parser.
func EncodeBuiltins(fsys fs.FS) ([]byte, error) {
	head, err := builtinHeader(fsys)
	if err != nil {
		return nil, err
	}
	caps, err := readTree(fsys, "", SourceBuiltin, nil)
	if err != nil {
		return nil, err
	}
	out := bytes.NewBufferString(head)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for _, c := range caps {
		rec := builtinRecord{Cap: c, Approved: c.Approved}
		if c.Manifest != nil {
			rec.Body = c.Manifest.Body
		}
		if err := enc.Encode(rec); err != nil {
			return nil, fmt.Errorf("encode the built-in capabilities: %w", err)
		}
	}
	return out.Bytes(), nil
}

// decodeBuiltins returns the capabilities of pf's parsed form, false when
// that form is missing, damaged or not of these files and this parser.
func decodeBuiltins(pf ParsedFS) ([]*Capability, bool) {
	data := pf.Parsed()
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 || !bytes.HasPrefix(data, []byte(builtinMagic)) {
		return nil, false
	}
	head, err := builtinHeader(pf)
	if err != nil || string(data[:nl+1]) != head {
		return nil, false
	}
	var caps []*Capability
	dec := json.NewDecoder(bytes.NewReader(data[nl+1:]))
	for dec.More() {
		var rec builtinRecord
		if dec.Decode(&rec) != nil || rec.Cap == nil || !compilePatterns(rec.Cap.Manifest) {
			return nil, false
		}
		c := rec.Cap
		c.Approved = rec.Approved
		if c.Manifest != nil {
			c.Manifest.Body = rec.Body
		}
		sub, err := fs.Sub(pf, c.Folder)
		if err != nil {
			return nil, false
		}
		c.FS = sub
		caps = append(caps, c)
	}
	return caps, true
}

// treeHash hashes the names and contents of every file in every folder a
// scan reads as a capability (root files, such as the generated Go files
// beside an embedded tree, are not capabilities and do not count).
func treeHash(fsys fs.FS) (string, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return "", fmt.Errorf("hash the built-in capabilities: %w", err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	h := sha256.New()
	buf := make([]byte, 32<<10)
	var size [8]byte
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		err := fs.WalkDir(fsys, name, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			io.WriteString(h, p)
			if d.IsDir() {
				h.Write([]byte{0, 'd'})
				return nil
			}
			f, err := fsys.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			fi, err := f.Stat()
			if err != nil {
				return err
			}
			binary.BigEndian.PutUint64(size[:], uint64(fi.Size()))
			h.Write([]byte{0, 'f'})
			h.Write(size[:])
			_, err = io.CopyBuffer(h, f, buf)
			return err
		})
		if err != nil {
			return "", fmt.Errorf("hash the built-in capabilities: %w", err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// compilePatterns compiles the patterns a manifest's JSON leaves as text.
func compilePatterns(m *skillmd.Manifest) bool {
	if m == nil {
		return true
	}
	for _, list := range [][]skillmd.Pattern{m.DangerPatterns, m.ConfirmPatterns} {
		for i := range list {
			re, err := regexp.Compile("(?i)" + list[i].Pattern)
			if err != nil {
				return false
			}
			list[i].Re = re
			list[i].DotAll = regexp.MustCompile("(?is)" + list[i].Pattern) // valid: Re compiled
		}
	}
	return true
}
