package cerebellum_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// TestBillionLaughsInTheWorkspace is issue 10's reproduction end to end at
// the registry: testdata/laughs/SKILL.md (under 500 bytes, 9^9 nodes once
// its aliases are expanded) placed in the workspace's brain/cerebellum.
// Opening the registry, listing, the index, CheckPlugins, skill_list and
// skill_validate all keep working; the capability is listed failed with
// the alias budget's error; every other capability stays usable.
func TestBillionLaughsInTheWorkspace(t *testing.T) {
	laughs, err := os.ReadFile(filepath.Join("testdata", "laughs", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(laughs) > 600 {
		t.Fatalf("the reproduction is %d bytes; it should stay a few hundred", len(laughs))
	}
	e := newEnv(t)
	data, err := os.ReadFile(filepath.Join("..", "brain", "cerebellum", "skills", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	e.addBuiltin("skills", string(data), false)
	e.addWorkspace("notes", skill("notes", "Keeps notes."), false)
	writeFile(t, filepath.Join(cerebellum.CapabilitiesDir(e.ws), "laughs", "SKILL.md"), string(laughs))
	r := e.open()
	ctx := context.Background()

	c := stateOf(t, r, "laughs")
	if c.State != cerebellum.StateFailed || !strings.Contains(c.Error+c.Detail, "YAML aliases expand too far") {
		t.Fatalf("laughs: state %s, error %q; want failed with the alias budget", c.State, c.Error)
	}
	if !strings.Contains(c.Error+c.Detail, "SKILL.md") {
		t.Errorf("laughs error %q does not name the file", c.Error)
	}
	if n := stateOf(t, r, "notes"); n.State != cerebellum.StateOK {
		t.Fatalf("notes: %s %s; a broken neighbour must not break it", n.State, n.Error)
	}
	if len(r.List()) < 3 {
		t.Fatalf("List: %d capabilities", len(r.List()))
	}
	if idx := r.Index(nil); strings.Contains(idx, "laughs") || !strings.Contains(idx, "notes") {
		t.Fatalf("index: %q; want notes and not the failed laughs", idx)
	}
	manage.New(r, manage.Options{}).CheckPlugins(ctx, 0)

	sess := r.NewSession("c", nil)
	res, err := r.Call(ctx, sess, "skill_list", []byte(`{"filter":"failed"}`))
	if err != nil || !strings.Contains(res.Content, "laughs") {
		t.Fatalf("skill_list: %+v %v", res, err)
	}
	args, _ := json.Marshal(map[string]string{"skill_md": strings.Replace(string(laughs), "name: laughs", "name: laughs-two", 1)})
	res, err = r.Call(ctx, sess, "skill_validate", args)
	if err != nil {
		t.Fatalf("skill_validate: %v", err)
	}
	if !strings.Contains(res.Content, "YAML aliases expand too far") {
		t.Fatalf("skill_validate: %q; want the alias budget error", res.Content)
	}
	// And the registry still answers afterwards.
	if _, err := r.Get("notes"); err != nil {
		t.Fatal(err)
	}
}
