package mcp

//lint:file-ignore SA1019 MCP roots and logging are deprecated from protocol 2026-07-28 on and still what servers of earlier versions (most) use

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// loggingTools gives the server a tool that logs n messages at each of
// debug, info and warning (one with the server's API key in it), as
// servers log while they work.
func loggingTools(s *sdk.Server) {
	textTool(s, &sdk.Tool{Name: "work", Description: "Works and logs about it.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, args map[string]any) (*sdk.CallToolResult, error) {
			ss := sessionOf(ctx)
			n := 1
			if v, ok := args["n"].(float64); ok {
				n = int(v)
			}
			for i := range n {
				for _, lv := range []sdk.LoggingLevel{"debug", "info", "warning"} {
					_ = ss.Log(ctx, &sdk.LoggingMessageParams{Level: lv, Logger: "worker", Data: fmt.Sprintf("%s %d", lv, i)})
				}
			}
			_ = ss.Log(ctx, &sdk.LoggingMessageParams{Level: "error", Data: map[string]any{"msg": "auth failed", "key": "sk-live-0123456789"}})
			return text("done"), nil
		})
}

type sessionKey struct{}

func sessionOf(ctx context.Context) *sdk.ServerSession {
	return ctx.Value(sessionKey{}).(*sdk.ServerSession)
}

// TestServerLogs: what a server logs (notifications/message) is kept per
// server at the level asked for (logging/setLevel), the newest LogKeep
// lines, its secrets redacted, and never in a tool's result.
func TestServerLogs(t *testing.T) {
	ws := t.TempDir()
	writeCap(t, ws, "notes", "---\nname: notes\ndescription: Keep short notes on a notes server.\nmcp:\n  command: notes-server\n  env: {API_KEY: '${secret:notes-key}'}\n---\n")
	srv := &inproc{build: func(s *sdk.Server) {
		// The tool handler learns its session from the request.
		s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
			return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
				if ss, ok := req.GetSession().(*sdk.ServerSession); ok {
					ctx = context.WithValue(ctx, sessionKey{}, ss)
				}
				return next(ctx, method, req)
			}
		})
		loggingTools(s)
	}}
	loader := NewLoader(Options{Dial: srv.Dial,
		Secrets:       func(string) (string, error) { return "sk-live-0123456789", nil },
		SecretAllowed: func(string, string) error { return nil }})
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	approveAll(t, reg)
	if err := reg.Start(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	if got := loader.LogLevel("notes"); got != DefaultLogLevel {
		t.Errorf("level = %q, want %q", got, DefaultLogLevel)
	}
	res, err := call(t, reg, "notes__work", `{"n":1}`)
	if err != nil || res.Content != "done" {
		t.Fatalf("call = %+v, %v; the log must not reach the result", res, err)
	}
	var lines []string
	waitFor(t, "the log messages", func() bool {
		lines = lines[:0]
		for _, l := range loader.Logs("notes") {
			lines = append(lines, l.Level+" "+l.Logger+" "+l.Text)
		}
		return len(lines) == 3
	})
	want := []string{"info worker info 0", "warning worker warning 0", `error  {"key":"[redacted:notes-key]","msg":"auth failed"}`}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("kept at info:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}

	// A level chosen on the page reaches the live session.
	if err := loader.SetLogLevel(context.Background(), "notes", "warning"); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, reg, "notes__work", `{"n":1}`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the warning-level messages", func() bool { return len(loader.Logs("notes")) == 5 })
	for _, l := range loader.Logs("notes")[3:] {
		if l.Level != "warning" && l.Level != "error" {
			t.Errorf("kept %q at level warning", l)
		}
	}

	// Bounded: the newest LogKeep lines.
	if err := loader.SetLogLevel(context.Background(), "notes", "debug"); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, reg, "notes__work", fmt.Sprintf(`{"n":%d}`, LogKeep)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the last message", func() bool {
		logs := loader.Logs("notes")
		return len(logs) == LogKeep && logs[len(logs)-1].Level == "error"
	})
	logs := loader.Logs("notes")
	if got := logs[len(logs)-2].Text; got != fmt.Sprintf("warning %d", LogKeep-1) {
		t.Errorf("second newest = %q", got)
	}

	if err := loader.SetLogLevel(context.Background(), "notes", "loud"); !errors.Is(err, ErrBadLogLevel) {
		t.Errorf("SetLogLevel(loud) = %v, want ErrBadLogLevel", err)
	}
}
