//go:build linux

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// sandboxedEverything runs the reference server (server-everything) as
// MCP capability "everything" in a fresh workspace.
func sandboxedEverything(t *testing.T) (*Loader, *cerebellum.Registry) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts node servers")
	}
	dir := npmServers(t)
	ws := t.TempDir()
	writeCap(t, ws, "everything", "---\nname: everything\ndescription: The MCP reference server.\nmcp:\n  command: node\n  args: ["+serverPath(dir, "server-everything")+"]\n---\n")
	loader := NewLoader(Options{Sandbox: testLauncher(t), Folders: func() []string { return []string{dir} }, CacheDir: t.TempDir()})
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader}})
	if err != nil {
		t.Fatal(err)
	}
	approveAll(t, reg)
	t.Cleanup(func() { _ = reg.Close() })
	return loader, reg
}

func TestNPMPrompts(t *testing.T) {
	l, reg := sandboxedEverything(t)
	ctx := t.Context()
	prompts, err := l.Prompts(ctx, reg, "everything")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Prompt{}
	for _, p := range prompts {
		byName[p.Name] = p
	}
	args := byName["args-prompt"]
	if args.Server != "everything" || len(args.Arguments) != 2 || args.Arguments[0].Name != "city" || !args.Arguments[0].Required || args.Arguments[1].Required {
		t.Fatalf("args-prompt = %+v; want city (required) and state", args)
	}

	for _, tc := range []struct {
		prompt   string
		args     map[string]string
		wantRole string
		contains string
		attached string // an attachment's text contains it
		errIs    error
	}{
		{prompt: "simple-prompt", wantRole: "user", contains: "without arguments"},
		{prompt: "args-prompt", args: map[string]string{"city": "Lisbon", "state": ""}, wantRole: "user", contains: "Lisbon"},
		{prompt: "args-prompt", args: map[string]string{"city": "Porto", "state": "Norte"}, wantRole: "user", contains: "Norte"},
		{prompt: "resource-prompt", args: map[string]string{"resourceType": "Text", "resourceId": "3"}, wantRole: "user", attached: "Resource 3"},
		{prompt: "args-prompt", args: map[string]string{}, errIs: ErrRefused},
		{prompt: "no-such-prompt", errIs: ErrRefused},
	} {
		t.Run(tc.prompt, func(t *testing.T) {
			msgs, err := l.GetPrompt(ctx, reg, "everything", tc.prompt, tc.args)
			if tc.errIs != nil {
				if !errors.Is(err, tc.errIs) || !strings.Contains(err.Error(), "everything") {
					t.Fatalf("err = %v; want %v naming the server", err, tc.errIs)
				}
				return
			}
			if err != nil || len(msgs) == 0 {
				t.Fatalf("= %+v, %v", msgs, err)
			}
			var text, attached strings.Builder
			for _, m := range msgs {
				if m.Role != tc.wantRole {
					t.Errorf("role %q; want %q", m.Role, tc.wantRole)
				}
				text.WriteString(m.Text)
				for _, a := range m.Attachments {
					attached.WriteString(a.URI + " " + a.Text)
				}
			}
			if !strings.Contains(text.String(), tc.contains) {
				t.Errorf("text %q; want %q in it", text.String(), tc.contains)
			}
			if !strings.Contains(attached.String(), tc.attached) {
				t.Errorf("attachments %q; want %q in them", attached.String(), tc.attached)
			}
		})
	}
}

func TestNPMResources(t *testing.T) {
	l, reg := sandboxedEverything(t)
	ctx := t.Context()
	res, err := l.Resources(ctx, reg, "everything")
	if err != nil {
		t.Fatal(err)
	}
	var static, template *Resource
	for i, r := range res {
		switch {
		case r.URI == "demo://resource/static/document/features.md":
			static = &res[i]
		case r.Template && strings.HasPrefix(r.URI, "demo://resource/dynamic/text/"):
			template = &res[i]
		}
	}
	if static == nil || static.MIMEType != "text/markdown" || static.Template {
		t.Fatalf("no static features.md among %+v", res)
	}
	if template == nil || len(template.Variables) != 1 || template.Variables[0] != "resourceId" {
		t.Fatalf("no text template with its variable among %+v", res)
	}

	got, err := l.ReadResource(ctx, reg, "everything", static.URI)
	if err != nil || len(got) != 1 || got[0].URI != static.URI || !strings.Contains(got[0].Text, "#") {
		t.Fatalf("read %s = %+v, %v", static.URI, got, err)
	}

	uri, err := Expand(template.URI, map[string]string{"resourceId": "7"})
	if err != nil || uri != "demo://resource/dynamic/text/7" {
		t.Fatalf("Expand = %q, %v", uri, err)
	}
	got, err = l.ReadResource(ctx, reg, "everything", uri)
	if err != nil || len(got) != 1 || !strings.Contains(got[0].Text, "Resource 7") {
		t.Fatalf("read %s = %+v, %v", uri, got, err)
	}
	if _, err := Expand(template.URI, map[string]string{}); !errors.Is(err, ErrBadTemplate) {
		t.Errorf("Expand without the variable: %v; want ErrBadTemplate", err)
	}
	if _, err := l.ReadResource(ctx, reg, "everything", "demo://no/such"); !errors.Is(err, ErrRefused) {
		t.Errorf("read of an unknown URI: %v; want ErrRefused", err)
	}
}

// TestNPMResourceSubscribe subscribes to a dynamic resource and has the
// server send updates (its toggle-subscriber-updates tool): the callback
// runs; after unsubscribing it no longer does.
func TestNPMResourceSubscribe(t *testing.T) {
	l, reg := sandboxedEverything(t)
	ctx := context.Background()
	const uri = "demo://resource/dynamic/text/1"
	var n atomic.Int32
	unsubscribe, err := l.Subscribe(ctx, reg, "everything", uri, func() { n.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	if res, err := reg.Call(ctx, nil, "everything__toggle-subscriber-updates", json.RawMessage(`{}`)); err != nil || res.IsError {
		t.Fatalf("toggle-subscriber-updates = %+v, %v", res, err)
	}
	waitFor(t, "an update of the subscribed resource", func() bool { return n.Load() > 0 })
	s := liveServer(t, l, "everything")
	if got := len(s.updates.of(uri)); got != 1 {
		t.Errorf("%d watchers; want 1", got)
	}
	unsubscribe()
	unsubscribe() // twice is harmless
	if got := len(s.updates.of(uri)); got != 0 {
		t.Errorf("%d watchers after unsubscribing; want 0", got)
	}
	s.mu.Lock()
	inflight := s.inflight
	s.mu.Unlock()
	if inflight != 0 {
		t.Errorf("inflight = %d after unsubscribing; want 0 (the server may idle again)", inflight)
	}
}
