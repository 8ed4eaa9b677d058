package cerebellum_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
	"github.com/wrasse-app/wrasse/cerebellum/tokens"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Fatalf("%s differs from golden:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestIndexFormat(t *testing.T) {
	e := newEnv(t)
	e.addBuiltin("shell", "---\nname: shell\ndescription: Run shell commands.\ncore: true\ntools:\n  - name: shell_exec\n    description: Run one command.\n---\nx\n", true)
	e.addWorkspace("archive", skill("archive", "List, extract and create zip and tar.gz archives safely, with limits on size and count that stop zip bombs.", "archive_list", "archive_extract"), true)
	e.addWorkspace("git", skill("git", "Git conventions layered on the shell capability."), false)
	e.addWorkspace("weather", skill("weather", "Forecast   for  a city.", "weather_now"), true)
	e.addWorkspace("broken", "---\nname: broken\n---\n", false)
	e.addWorkspace("off", skill("off", "Disabled one.", "off_run"), true)
	e.states["off"] = cerebellum.CapState{Disabled: true}
	r := e.open()
	sess := r.NewSession("c", nil)
	r.Activate(sess, "weather")
	idx := r.Index(sess)
	golden(t, "index-small.txt", idx)
	if again := r.Index(sess); again != idx {
		t.Fatal("index is not byte-identical for the same state")
	}
	// A fresh registry over the same folders renders the same bytes.
	r2 := e.open()
	s2 := r2.NewSession("other", nil)
	r2.Activate(s2, "weather")
	if r2.Index(s2) != idx {
		t.Fatal("index differs across registries with the same state")
	}
}

func TestIndexBudgetHoldsAtScale(t *testing.T) {
	counter, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	// 10,000 is covered in memory by TestIndexBudgetInMemory: scanning that
	// many folders would make this test slow without testing the index more.
	sizes := []int{10, 1000}
	for _, n := range sizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			e := newEnv(t)
			caps := captest.Generate(n, 0, int64(n))
			for i := range caps {
				caps[i].Plugin = ""
			}
			if err := captest.Write(cerebellum.CapabilitiesDir(e.ws), caps); err != nil {
				t.Fatal(err)
			}
			// Make the tool capabilities usable: give each a plugin source stand-in.
			for _, c := range caps {
				if c.Tools > 0 {
					os.MkdirAll(filepath.Join(cerebellum.CapabilitiesDir(e.ws), c.Name, "plugin"), 0o755)
					os.WriteFile(filepath.Join(cerebellum.CapabilitiesDir(e.ws), c.Name, "plugin", "main.go"), []byte(pluginSrc), 0o644)
				}
			}
			r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws,
				Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: e.loader}})
			if err != nil {
				t.Fatal(err)
			}
			usable := 0
			for _, c := range r.List() {
				if c.Usable() {
					usable++
				}
			}
			if usable != n+1 {
				t.Fatalf("usable = %d, want %d", usable, n+1)
			}
			sess := r.NewSession("c", nil)
			for i := 0; i < 10 && i < len(caps); i++ {
				r.Activate(sess, caps[i].Name)
			}
			idx := r.Index(sess)
			real := counter.Count(idx)
			if real > cerebellum.DefaultIndexBudget {
				t.Fatalf("%d capabilities: index is %d o200k tokens, budget %d", n, real, cerebellum.DefaultIndexBudget)
			}
			if est := cerebellum.EstimateTokens(idx); est < real {
				t.Fatalf("estimate %d under-counts the real %d tokens", est, real)
			}
			lines := strings.Split(idx, "\n")
			if n > 100 && !strings.Contains(idx, "more capabilities") {
				t.Fatalf("no collapse line at %d capabilities", n)
			}
			// Loaded lines come first.
			seenUnloaded := false
			for _, l := range lines[2 : len(lines)-1] {
				loaded := strings.HasSuffix(l, "[loaded]")
				if loaded && seenUnloaded {
					t.Fatalf("loaded line after an unloaded one: %q", l)
				}
				seenUnloaded = seenUnloaded || !loaded
			}
			t.Logf("%d capabilities: %d lines, %d o200k tokens (estimate %d)", n, len(lines), real, cerebellum.EstimateTokens(idx))
		})
	}
}

func TestIndexRecentlyUsedGetsPriority(t *testing.T) {
	e := newEnv(t)
	caps := captest.Generate(300, 0, 3)
	for i := range caps {
		caps[i].SkillMD = skill(caps[i].Name, "Guide number "+fmt.Sprint(i)+" about something useful for the user.")
	}
	captest.Write(cerebellum.CapabilitiesDir(e.ws), caps)
	r := e.open()
	sess := r.NewSession("c", nil)
	last := caps[len(caps)-1].Name // sorts late, so by name alone it would collapse
	if strings.Contains(r.Index(sess), "- "+last+" ") {
		t.Fatalf("precondition: %s should not fit the index by name alone", last)
	}
	if _, err := r.ReadSource(last, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Activate(sess, last); err != nil { // guides are recorded as recently used
		t.Fatal(err)
	}
	if !strings.Contains(r.Index(sess), "- "+last+" (guide)") {
		t.Fatalf("recently used guide %s missing from the index", last)
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"short", "short"},
		{"  spaced \n\t out  ", "spaced out"},
		{strings.Repeat("a", 90), strings.Repeat("a", 90)},
		{strings.Repeat("a", 91), strings.Repeat("a", 89) + "…"},
		{strings.Repeat("é", 100), strings.Repeat("é", 89) + "…"},
	}
	for _, tt := range tests {
		if got := cerebellum.OneLine(tt.in, 90); got != tt.want {
			t.Errorf("OneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
