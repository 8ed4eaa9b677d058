package gate_test

import (
	"encoding/json"
	"testing"
	"testing/fstest"

	builtin "github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/brain/gate"
)

// Archive tools: an approval covers its own destination only, and packing a
// folder with a credential file asks.

// "Approve for this chat" covers, for tools with a path, "the same path";
// but archive_extract's path is the archive, not where it writes. Approving
// theme.zip extracted over Documents/theme (overwrite, "replaces existing
// files") for the chat covers extracting it over the project with
// overwrite: its Makefile, scripts and sources replaced, unasked, and
// what an approved `make` or `./build.sh` runs with them. archive_create
// with overwrite is covered as "every call", so approving one archive's
// replacement covers replacing any other (Documents/taxes.zip).
func TestArchiveApprovalCoversOtherDestinations(t *testing.T) {
	f, err := builtin.FS().Open("archive/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, st.Size())
	if _, err := f.Read(data); err != nil {
		t.Fatal(err)
	}
	f.Close()
	snap := builtinRegistry(t, fstest.MapFS{"archive/SKILL.md": {Data: data}}, nil).Snapshot()
	for _, c := range []struct{ tool, seen, then string }{
		{"archive_extract",
			`{"path":"/home/ann/Documents/theme.zip","dest":"/home/ann/Documents/theme","overwrite":true}`,
			`{"path":"/home/ann/Documents/theme.zip","dest":"/home/ann/project","overwrite":true}`},
		{"archive_create",
			`{"dest":"/home/ann/project/out.zip","sources":["/home/ann/project/docs"],"overwrite":true}`,
			`{"dest":"/home/ann/Documents/taxes.zip","sources":["/home/ann/project/docs"],"overwrite":true}`},
	} {
		first := gate.CheckIn(snap, corpusEnv, c.tool, json.RawMessage(c.seen))
		if first.Decision != gate.Confirm {
			t.Fatalf("setup: %s %s: %s, want it to ask", c.tool, c.seen, first.Decision)
		}
		var g gate.Grants
		g.Add(first)
		if v := gate.CheckIn(snap, corpusEnv, c.tool, json.RawMessage(c.then)); g.Covers(v) {
			t.Errorf("approving %s %s for the chat (card: %q) covers %s, which replaces other files", c.tool, c.seen, first.Scope, c.then)
		}
	}
}

// tar -c and zip -r over a folder holding a .env ask every time (F10),
// but archive_create of that folder is allowed with no prompt: the .env
// is copied into out.zip, a harmless name a later upload card shows
// instead of the credential (the plugin skips links, not credential
// names).
func TestArchiveCreateOverCredentialFolder(t *testing.T) {
	env, project := grantedProject(t)
	for _, src := range []string{project, ".", "docs/.."} {
		args := map[string]any{"dest": "out.zip", "sources": []string{src}}
		if v := checkArgs(t, env, "archive_create", args); !v.AlwaysAsk {
			t.Errorf("archive_create %v: %s, scope %q; it packs the folder's .env, want it to ask every time as zip -r does", args, v.Decision, v.Scope)
		}
	}
}
