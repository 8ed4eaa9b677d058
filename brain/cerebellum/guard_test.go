package builtin_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// TestWorkspaceGuards: the model cannot slip a capability or a settings
// change past the user with the file or shell tools; it asks first.
func TestWorkspaceGuards(t *testing.T) {
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: builtin.FS(), Native: map[string]cerebellum.Runtime{"history": cerebellum.RuntimeFunc(nil)},
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: fakeLoader{}}})
	if err != nil {
		t.Fatal(err)
	}
	snap := reg.Snapshot()
	js := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	// guarded: a pattern of the capability matched (not just the
	// destructive default, which every fs_write and shell_exec has).
	tests := []struct {
		tool    string
		args    json.RawMessage
		guarded bool
	}{
		{"fs_write", js(map[string]any{"path": "/home/u/.local/share/wrasse/brain/cerebellum/evil/SKILL.md", "content": "x"}), true},
		{"fs_write", js(map[string]any{"path": "brain/cerebellum/evil/plugin/main.go", "content": "x"}), true},
		{"fs_patch", js(map[string]any{"path": `C:\Users\u\AppData\Local\wrasse\brain\cerebellum\x\SKILL.md`, "search": "a", "replace": "b"}), true},
		{"fs_write", js(map[string]any{"path": "/home/u/.local/share/wrasse/config.json", "content": "{}"}), true},
		{"shell_exec", js(map[string]any{"command": "cp -r /tmp/x ~/.local/share/wrasse/brain/cerebellum/"}), true},
		{"fs_write", js(map[string]any{"path": "/home/u/notes/cerebellum.md", "content": "x"}), false},
		{"fs_write", js(map[string]any{"path": "/home/u/project/config.json", "content": "{}"}), false},
		{"fs_read", js(map[string]any{"path": "brain/cerebellum/git/SKILL.md"}), false},
	}
	for _, tt := range tests {
		v := gate.Check(snap, tt.tool, tt.args)
		if guarded := len(v.Matches) > 0; guarded != tt.guarded || v.Decision == gate.Block {
			t.Errorf("%s %s: %s %v (patterns matched: %v), want guarded=%v and not blocked", tt.tool, tt.args, v.Decision, v.Reasons, guarded, tt.guarded)
		}
	}
}

// fakeLoader stands in for the plugin host: the gate only reads patterns.
type fakeLoader struct{}

func (fakeLoader) Load(context.Context, cerebellum.LoadRequest) (cerebellum.Runtime, error) {
	return nil, nil
}
