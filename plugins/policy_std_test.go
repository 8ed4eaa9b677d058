package plugins

import (
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/hostsyms/std"
)

// linkedPackages are the standard packages some policy lets a plugin
// import, as the tables of policy.go say.
func linkedPackages() []string {
	var out []string
	add := func(pkg string) {
		if !slices.Contains(out, pkg) {
			out = append(out, pkg)
		}
	}
	for pkg := range basePackages {
		add(pkg)
	}
	for pkg := range permPackages {
		add(pkg)
	}
	for pkg := range builtinPackages {
		add(pkg)
	}
	add("os")
	slices.Sort(out)
	return out
}

// The linked library is exactly what the policy allows: a package the
// policy names but std lacks would fail at import in a plugin, and one std
// has but no policy allows is linked and initialised for nothing.
func TestLinkedLibraryMatchesPolicy(t *testing.T) {
	var linked []string
	for key := range std.Symbols() {
		if key != "." {
			linked = append(linked, path.Dir(key))
		}
	}
	// os/exec is built per interpreter (execSymbols): yaegi's library
	// has none.
	linked = append(linked, "os/exec")
	slices.Sort(linked)
	if want := linkedPackages(); !slices.Equal(linked, want) {
		t.Errorf("plugins/hostsyms/std links\n%v\nbut the policy allows\n%v\nedit the go:generate line of plugins/hostsyms/std/doc.go and run go generate", linked, want)
	}

	// The go:generate line is the list the files were made from.
	doc, err := os.ReadFile("hostsyms/std/doc.go")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^//go:generate go run gen.go (.*)$`).FindSubmatch(doc)
	if m == nil {
		t.Fatal("no go:generate line in plugins/hostsyms/std/doc.go")
	}
	gen := append(strings.Fields(string(m[1])), "os/exec")
	slices.Sort(gen)
	if !slices.Equal(gen, linked) {
		t.Errorf("the go:generate line lists\n%v\nbut the generated files hold\n%v\nrun go generate ./plugins/hostsyms/std", gen, linked)
	}
}

// Every policy's imports resolve: each allowed package is linked, and a
// package of yaegi's library that is not linked is reported as not
// available (ErrImport), never as unknown.
func TestLinkedLibraryPolicies(t *testing.T) {
	lib := newLibrary()
	for _, pkg := range linkedPackages() {
		if !lib.has(pkg) {
			t.Errorf("%s is allowed but the library lacks it", pkg)
		}
	}
	trusted := newPolicy(true, nil)
	for _, pkg := range std.Unlinked() {
		if !lib.has(pkg) {
			t.Errorf("unlinked %s is unknown to the library", pkg)
		}
		if trusted.pkgAllowed(pkg) {
			t.Errorf("unlinked %s is allowed to plugins that ship with the app", pkg)
		}
	}
}
