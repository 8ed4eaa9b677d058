package builtin

import (
	"embed"
	"io/fs"
)

//go:generate go test -run TestVerifiedBuiltins -update .
//go:generate go run github.com/wrasse-app/wrasse/cerebellum/internal/genbuiltins -o parsed.jsonl

// files holds every capability folder that ships with the app. The `all:`
// prefix keeps files such as plugin/_helpers.go; Go sources of plugins are
// embedded as text and interpreted at run time. It also holds parsed.jsonl,
// the generated parsed form (a root file, not a capability folder).
//
//go:embed all:*
var files embed.FS

// FS returns the built-in capability folders: one directory per capability,
// each holding a SKILL.md. It is read-only. It implements
// cerebellum.VerifiedFS: the plugins checked when Wrasse was built
// (verified.go) are not checked again at start-up; and cerebellum.ParsedFS:
// the capabilities as parsed when it was built (parsed.jsonl) are decoded
// instead of parsed on every start.
func FS() fs.FS { return tree{files} }

// tree is the embedded folders with their build-time verdicts.
type tree struct{ embed.FS }

// Verified returns the CodeHash of each built-in plugin that passed the
// plugin check when verified.go was generated, by folder.
func (tree) Verified() map[string]string { return verified() }

// Parsed returns the capabilities as cerebellum.EncodeBuiltins encoded
// them when parsed.jsonl was generated (nil when it is missing: the scan
// then parses the files). ReadFile returns a copy, which the scan may keep
// references into.
func (t tree) Parsed() []byte {
	data, err := t.ReadFile(parsedFile)
	if err != nil {
		return nil
	}
	return data
}

// parsedFile is the generated parsed form, written by go generate.
const parsedFile = "parsed.jsonl"
