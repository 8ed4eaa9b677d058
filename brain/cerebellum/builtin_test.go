package builtin_test

import (
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// want lists the capabilities that ship with the app (the lead's
// tool-discovery included when present) and whether each is core.
var want = map[string]bool{
	"shell": true, "filesystem": true, "system": true, "planning": true,
	"git": false, "web": false, "archive": false, "data": false, "calc": false,
}

// goIdent is the Go package name a capability's plugin must declare.
func goIdent(name string) string { return strings.ReplaceAll(name, "-", "_") }

var packageRe = regexp.MustCompile(`(?m)^package ([a-z_][a-z0-9_]*)\s*$`)

func TestBuiltinCapabilities(t *testing.T) {
	fsys := builtin.FS()
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]*skillmd.Manifest{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			data, err := fs.ReadFile(fsys, path.Join(name, "SKILL.md"))
			if err != nil {
				t.Fatalf("every built-in folder needs a SKILL.md: %v", err)
			}
			m, err := skillmd.Parse(data, skillmd.Options{File: name + "/SKILL.md", Folder: name})
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			for _, w := range m.Warnings {
				t.Errorf("%s", w.String())
			}
			found[name] = m
			checkManifest(t, fsys, name, m)
		})
	}
	for name, core := range want {
		m, ok := found[name]
		if !ok {
			t.Errorf("built-in capability %q is missing", name)
			continue
		}
		if m.Core != core {
			t.Errorf("%s: core = %v, want %v", name, m.Core, core)
		}
	}
	for name, m := range found {
		for _, r := range m.Requires {
			if _, ok := found[r]; !ok {
				t.Errorf("%s requires %q, which is not a built-in capability", name, r)
			}
		}
	}
}

func checkManifest(t *testing.T, fsys fs.FS, name string, m *skillmd.Manifest) {
	t.Helper()
	if m.Version != "1.0.0" || m.License != "MIT" {
		t.Errorf("version/license = %q/%q, want 1.0.0/MIT", m.Version, m.License)
	}
	if n := len(m.Description); n > 200 {
		t.Errorf("description is %d characters; keep it within 200 (the index shows the first 90)", n)
	}
	if len(m.Body) < 400 {
		t.Errorf("body is %d bytes; a built-in needs real instructions for the model", len(m.Body))
	}
	if len(m.Triggers)+len(m.Keywords) == 0 {
		t.Error("no triggers or keywords: the capability cannot be found by search")
	}
	goFiles, _ := fs.Glob(fsys, path.Join(name, "plugin", "*.go"))
	var src []string
	for _, f := range goFiles {
		if !strings.HasSuffix(f, "_test.go") {
			src = append(src, f)
		}
	}
	if len(src) > 0 && len(m.Tools) == 0 {
		t.Errorf("%d plugin source files but no tools: a plugin declares the tools it serves", len(src))
	}
	for _, f := range src {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			t.Fatal(err)
		}
		pm := packageRe.FindSubmatch(data)
		if pm == nil || string(pm[1]) != goIdent(name) {
			t.Errorf("%s: package clause must be `package %s`", f, goIdent(name))
		}
		if !strings.Contains(string(data), "func Init(env *sdk.Env) (*sdk.Plugin, error)") && strings.Contains(string(data), "func Init(") {
			t.Errorf("%s: Init must be func Init(env *sdk.Env) (*sdk.Plugin, error)", f)
		}
	}
	tools := map[string]bool{}
	for _, tool := range m.Tools {
		tools[tool.Name] = true
		if !strings.Contains(string(tool.Parameters), `"additionalProperties":false`) {
			t.Errorf("tool %s: parameters need additionalProperties: false", tool.Name)
		}
	}
	// Gate patterns must start with one of the capability's own tool names so
	// they never fire on another capability's calls.
	pats := append(append([]skillmd.Pattern{}, m.DangerPatterns...), m.ConfirmPatterns...)
	for _, p := range pats {
		if p.Reason == "" {
			t.Errorf("pattern %q has no reason", p.Pattern)
		}
		if !ownsPattern(p.Pattern, tools) {
			t.Errorf("pattern %q must start with ^ and one of this capability's tool names (%s)", p.Pattern, strings.Join(sortedKeys(tools), ", "))
		}
		for _, other := range []string{`other_tool {"command":"rm -rf /","path":"/etc/passwd","target":"x.sh"}`, `fs_readx {"path":"/etc/x"}`} {
			if p.Re.MatchString(other) {
				t.Errorf("pattern %q matches another tool's call %s", p.Pattern, other)
			}
		}
	}
}

// ownsPattern reports whether pattern is anchored on one of tools, either
// `^tool ` or `^(tool_a|tool_b) `.
func ownsPattern(pattern string, tools map[string]bool) bool {
	if !strings.HasPrefix(pattern, "^") {
		return false
	}
	rest := pattern[1:]
	if strings.HasPrefix(rest, "(") {
		end := strings.Index(rest, ")")
		if end < 0 || !strings.HasPrefix(rest[end+1:], " ") {
			return false
		}
		for _, alt := range strings.Split(rest[1:end], "|") {
			if !tools[alt] {
				return false
			}
		}
		return true
	}
	i := strings.Index(rest, " ")
	return i > 0 && tools[rest[:i]]
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
