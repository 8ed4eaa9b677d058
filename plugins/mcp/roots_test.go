package mcp

//lint:file-ignore SA1019 MCP roots and logging are deprecated from protocol 2026-07-28 on and still what servers of earlier versions (most) use

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// rootsServerArg makes this test binary an MCP server on stdio that works
// in its roots, as server-filesystem does: its "roots" tool lists them
// (roots/list) and says how many roots/list_changed it received.
const rootsServerArg = "__roots-server"

func rootsServer() int {
	var mu sync.Mutex
	changes, listed := 0, ""
	// As server-filesystem does: it asks for the roots once initialised
	// and again on each list_changed, outside any request.
	list := func(ss *sdk.ServerSession) {
		res, err := ss.ListRoots(context.Background(), nil)
		var uris []string
		if err == nil {
			for _, r := range res.Roots {
				uris = append(uris, r.URI)
			}
		} else {
			uris = []string{"error: " + err.Error()}
		}
		mu.Lock()
		listed = strings.Join(uris, ",")
		mu.Unlock()
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "roots-test", Version: "1"}, &sdk.ServerOptions{
		// Roots are a feature of the protocol versions before 2026-07-28,
		// which the servers that read them speak.
		SupportedProtocolVersions: []string{"2025-11-25"},
		InitializedHandler:        func(_ context.Context, req *sdk.InitializedRequest) { go list(req.Session) },
		RootsListChangedHandler: func(_ context.Context, req *sdk.RootsListChangedRequest) {
			mu.Lock()
			changes++
			mu.Unlock()
			go list(req.Session)
		},
	})
	textTool(srv, &sdk.Tool{Name: "roots", Description: "Lists the roots.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, map[string]any) (*sdk.CallToolResult, error) {
			mu.Lock()
			defer mu.Unlock()
			return text(fmt.Sprintf("changes=%d roots=%s", changes, listed)), nil
		})
	if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}

// TestRootsListChanged: a running server that was given the granted
// folders as roots hears of a grant or a revocation
// (notifications/roots/list_changed) and lists the new roots; it is not
// restarted for it.
func TestRootsListChanged(t *testing.T) {
	exe, err := mcptest.ServerExecutable(t)
	if err != nil {
		t.Fatal(err)
	}
	a, b := t.TempDir(), t.TempDir()
	var mu sync.Mutex
	folders := []string{a}
	loader := NewLoader(Options{Folders: func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), folders...)
	}})
	ws := t.TempDir()
	writeCap(t, ws, "rooted", "---\nname: rooted\ndescription: Works in the granted folders.\nmcp:\n  command: "+exe+"\n  args: ["+rootsServerArg+"]\n---\n")
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	approveAll(t, reg)
	if err := reg.Start(context.Background(), "rooted"); err != nil {
		t.Fatal(err)
	}
	pid := liveServer(t, loader, "rooted").pid()
	roots := func() string {
		res, err := call(t, reg, "rooted__roots", `{}`)
		if err != nil || res.IsError {
			t.Fatalf("roots = %+v, %v", res, err)
		}
		return res.Content
	}
	uri := func(dir string) string { return "file://" + dir }
	waitFor(t, "the server to list its roots", func() bool { return roots() == "changes=0 roots="+uri(a) })
	set := func(fs ...string) {
		mu.Lock()
		folders = fs
		mu.Unlock()
		loader.RootsChanged()
	}
	set(a, b)
	waitFor(t, "the grant to reach the server", func() bool { return roots() == "changes=1 roots="+uri(a)+","+uri(b) })
	set(b)
	waitFor(t, "the revocation to reach the server", func() bool { return roots() == "changes=2 roots="+uri(b) })
	if got := liveServer(t, loader, "rooted").pid(); got != pid {
		t.Errorf("the server was restarted (pid %d, then %d)", pid, got)
	}
	set(b) // nothing changed: no notification
	if got := roots(); got != "changes=2 roots="+uri(b) {
		t.Errorf("after an unchanged grant: %q", got)
	}
}
