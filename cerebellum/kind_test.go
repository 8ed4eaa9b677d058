package cerebellum_test

import (
	"testing"
	"testing/fstest"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// QA (session 4): `caps list` showed KIND guide for a plugin whose
// SKILL.md does not parse. A folder with files under plugin/ is a plugin
// whatever its SKILL.md says, or when it cannot be read.
func TestKindOfUnreadableCapability(t *testing.T) {
	const broken = "---\nname: [\n---\n"
	for _, tc := range []struct {
		name  string
		files fstest.MapFS
		want  cerebellum.Kind
	}{
		{"broken SKILL.md, plugin source", fstest.MapFS{"SKILL.md": {Data: []byte(broken)}, "plugin/main.go": {Data: []byte(pluginSrc)}}, cerebellum.KindPlugin},
		{"broken SKILL.md, other file under plugin/", fstest.MapFS{"SKILL.md": {Data: []byte(broken)}, "plugin/go.mod": {Data: []byte("module p\n")}}, cerebellum.KindPlugin},
		{"no SKILL.md, plugin source", fstest.MapFS{"plugin/main.go": {Data: []byte(pluginSrc)}}, cerebellum.KindPlugin},
		{"broken SKILL.md, no plugin", fstest.MapFS{"SKILL.md": {Data: []byte(broken)}, "notes.md": {Data: []byte("x")}}, cerebellum.KindGuide},
		{"valid guide", fstest.MapFS{"SKILL.md": {Data: []byte(skill("g", "A guide."))}}, cerebellum.KindGuide},
		{"valid plugin", fstest.MapFS{"SKILL.md": {Data: []byte(skill("p", "A plugin.", "p_run"))}, "plugin/main.go": {Data: []byte(pluginSrc)}}, cerebellum.KindPlugin},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cerebellum.ReadCapability(tc.files, "x", "", cerebellum.SourceWorkspace)
			if c.Kind != tc.want {
				t.Fatalf("kind %s (state %s, %q), want %s", c.Kind, c.State, c.Error, tc.want)
			}
		})
	}
	// The same through a registry's scan (the manifest cache's read).
	e := newEnv(t)
	e.addWorkspace("greeter", broken, true)
	r := e.open()
	if c := stateOf(t, r, "greeter"); c.Kind != cerebellum.KindPlugin || c.State != cerebellum.StateFailed {
		t.Fatalf("registry: kind %s state %s, want plugin failed", c.Kind, c.State)
	}
}
