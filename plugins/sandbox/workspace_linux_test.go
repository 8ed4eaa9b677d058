package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// The workspace is read-only for every sandboxed command and plugin: a
// command could otherwise rewrite brain/identity.md, the prompt every turn
// starts with (the built-in shell has the workspace among its roots). Run
// for real in both layouts: the workspace inside a granted home folder (a
// read-only folder holding no-access entries, carved out of a read-write
// one) and beside the granted folder. Its protected entries stay out of
// reach, what else it holds stays readable where a grant reaches it, and
// a plugin that was granted no folder cannot read it at all.
func TestWorkspaceReadOnlyInSandbox(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	home := filepath.Dir(f.ws)
	for p, body := range map[string]string{
		filepath.Join(f.ws, "brain", "identity.md"): "You are Wrasse.",
		filepath.Join(f.ws, "logs", "wrasse.log"):   "SECRET-KEY in a log",
		filepath.Join(f.granted, "g.txt"):           "granted",
	} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	id := f.ws + "/brain/identity.md"
	// The built-in shell's roots are the granted folders and the workspace.
	inHome := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home, f.ws}, Protected: f.protected(), Temp: f.temp})
	beside := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted, f.ws}, Protected: f.protected(), Temp: f.temp})
	plugin := sandbox.ForPlugin(sandbox.PluginOptions{Protected: f.protected(), Exec: true})
	pluginHome := sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{home}, Protected: f.protected(), Files: true, Exec: true})
	tests := []struct {
		name string
		p    sandbox.Policy
		line string
		ok   bool
	}{
		{"inside home: rewrite the identity", inHome, "echo 'obey the file' > " + id, false},
		{"inside home: append to the identity", inHome, "echo x >> " + id, false},
		{"inside home: replace the identity by rename", inHome, "echo x > " + f.granted + "/i && mv " + f.granted + "/i " + id, false},
		{"inside home: remove the identity", inHome, "rm " + id, false},
		{"inside home: new file in the workspace", inHome, "echo x > " + f.ws + "/new.txt", false},
		{"inside home: new folder in brain", inHome, "mkdir " + f.ws + "/brain/new", false},
		{"inside home: read the identity", inHome, "cat " + id, true},
		{"inside home: list the workspace", inHome, "ls " + f.ws + "/brain", true},
		{"inside home: read the database", inHome, "cat " + f.ws + "/wrasse.db", false},
		{"inside home: read the log", inHome, "cat " + f.ws + "/logs/wrasse.log", false},
		{"inside home: read config.json", inHome, "cat " + f.ws + "/config.json", false},
		{"inside home: run a skill's script", inHome, "cd " + f.ws + "/brain/cerebellum/x && ./run.sh", true},
		{"inside home: write in the granted folder beside it", inHome, "echo x > " + f.granted + "/new.txt && cat " + f.granted + "/g.txt", true},
		{"beside: rewrite the identity", beside, "echo 'obey the file' > " + id, false},
		{"beside: new file in the workspace", beside, "echo x > " + f.ws + "/new.txt", false},
		{"beside: read the identity", beside, "cat " + id, true},
		{"beside: read the database", beside, "cat " + f.ws + "/wrasse.db", false},
		{"beside: read the log", beside, "cat " + f.ws + "/logs/wrasse.log", false},
		{"beside: write in the granted folder", beside, "echo x > " + f.granted + "/new2.txt", true},
		{"plugin without files: read the identity", plugin, "cat " + id, false},
		{"plugin without files: list the workspace", plugin, "ls " + f.ws, false},
		{"plugin granted home: read the identity", pluginHome, "cat " + id, true},
		{"plugin granted home: rewrite the identity", pluginHome, "echo x > " + id, false},
		{"plugin granted home: read the database", pluginHome, "cat " + f.ws + "/wrasse.db", false},
		{"plugin granted home: write in the granted folder", pluginHome, "echo x > " + f.granted + "/new3.txt", true},
	}
	for _, tt := range tests {
		out, ok := run(t, tt.p, tt.line)
		if ok != tt.ok {
			t.Errorf("%s: `%s` succeeded=%v, want %v; output: %s", tt.name, tt.line, ok, tt.ok, out)
		}
		if strings.Contains(out, "SECRET-KEY") {
			t.Errorf("%s: protected content was read: %s", tt.name, out)
		}
	}
	if b, _ := os.ReadFile(id); string(b) != "You are Wrasse." {
		t.Errorf("the identity was changed: %q", b)
	}
}
