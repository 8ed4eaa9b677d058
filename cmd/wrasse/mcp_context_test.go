package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"
)

// everythingEntry is server-everything's entry point and the npm folder
// holding it, installed once by mcptest.
func everythingEntry(t *testing.T) (entry, dir string) {
	t.Helper()
	dir = mcptest.Servers(t)
	entry = mcptest.ServerPath(dir, "server-everything")
	return entry, dir
}

// The prompts and resources of a server from the command line.
func TestMCPPromptsAndResourcesCommands(t *testing.T) {
	entry, dir := everythingEntry(t)
	ws := t.TempDir()
	mustCLI(t, ws, "mcp", "add", "everything", "--", "node", entry)
	mustCLI(t, ws, "config", "set", "folders", dir)

	for _, tc := range []struct {
		args []string
		want []string
		code int
	}{
		{args: []string{"mcp", "prompts", "everything"}, want: []string{"PROMPT", "args-prompt", "city* state", "A prompt with two arguments"}},
		{args: []string{"mcp", "prompt", "everything", "args-prompt", "city=Lisbon"}, want: []string{"Lisbon"}},
		{args: []string{"mcp", "prompt", "everything", "resource-prompt", "resourceType=Text", "resourceId=2"},
			want: []string{`<resource server="everything" uri="demo://resource/dynamic/text/2"`, "Resource 2"}},
		{args: []string{"mcp", "prompt", "everything", "args-prompt", "city"}, code: 2, want: []string{`"city" is not ARG=VALUE`}},
		{args: []string{"mcp", "resources", "everything"}, want: []string{"demo://resource/static/document/features.md", "demo://resource/dynamic/text/{resourceId} (template)"}},
		{args: []string{"mcp", "read", "everything", "demo://resource/dynamic/text/5"}, want: []string{`<resource server="everything" uri="demo://resource/dynamic/text/5" type="text/plain">`, "Resource 5"}},
		{args: []string{"mcp", "read", "everything", "demo://no/such"}, code: 1, want: []string{"MCP server everything: reading demo://no/such"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := cli(t, ws, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d; want %d\n%s%s", code, tc.code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
		})
	}
}

// chat --resource reads the resource and sends it after the message.
func TestChatResource(t *testing.T) {
	entry, dir := everythingEntry(t)
	ws := t.TempDir()
	mustCLI(t, ws, "mcp", "add", "everything", "--", "node", entry)
	mustCLI(t, ws, "config", "set", "folders", dir)
	m := newModel(t, text("Read."))
	env := map[string]string{"OPENAI_API_KEY": "sk-env-key-123"}
	code, out, errOut := chatCLI(t, ws, "", env, "chat", "--send-key", "--base-url", m.BaseURL(), "--model", "m1",
		"--resource", "everything:demo://resource/dynamic/text/6", "what does it say?")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	reqs := m.Requests()
	msgs := reqs[len(reqs)-1].Messages
	last := msgs[len(msgs)-1].Content
	if !strings.HasPrefix(last, "what does it say?\n\n<resource server=\"everything\" uri=\"demo://resource/dynamic/text/6\" type=\"text/plain\">\nResource 6") {
		t.Errorf("the model was sent %q", last)
	}
	for _, tc := range []struct{ flag, want string }{
		{"nocolon", "is not SERVER:URI"},
		{"everything:demo://no/such", "attach everything:demo://no/such"},
	} {
		code, out, errOut := chatCLI(t, ws, "", env, "chat", "--send-key", "--base-url", m.BaseURL(), "--model", "m1", "--resource", tc.flag, "hi")
		if code == 0 || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("--resource %s: exit %d, want an error with %q:\n%s%s", tc.flag, code, tc.want, out, errOut)
		}
	}
}

// chat --resource with an image resource sends the picture as an image of
// the message: a model that takes images (gpt-4o) gets an image_url part.
func TestChatResourceImage(t *testing.T) {
	_, dir := everythingEntry(t)
	script, err := filepath.Abs(filepath.Join("testdata", "image-resource-server.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	mustCLI(t, ws, "mcp", "add", "pics", "--", "node", script, dir)
	mustCLI(t, ws, "config", "set", "folders", dir+","+filepath.Dir(script))
	m := newModel(t, text("A grey square."))
	env := map[string]string{"OPENAI_API_KEY": "sk-env-key-123"}
	code, out, errOut := chatCLI(t, ws, "", env, "chat", "--send-key", "--base-url", m.BaseURL(), "--model", "gpt-4o",
		"--resource", "pics:pics://logo.png", "what is this?")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	reqs := m.Requests()
	body := string(reqs[len(reqs)-1].Body)
	for _, want := range []string{
		`what is this?\n\n[Attached image pics://logo.png from MCP server pics (image/png, 75 bytes): image 1 of this message]`,
		`"image_url":{"url":"data:image/png;base64,iVBORw0KGgo`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %q:\n%.1500s", want, body)
		}
	}
}
