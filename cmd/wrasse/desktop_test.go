package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"regexp"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
)

func TestAppIDMatchesFyneAppToml(t *testing.T) {
	data, err := os.ReadFile("../../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*ID\s*=\s*"([^"]+)"`).FindSubmatch(data)
	if m == nil {
		t.Fatal("FyneApp.toml has no ID")
	}
	if got := string(m[1]); got != appID {
		t.Errorf("FyneApp.toml ID = %q, appID = %q: keep them equal (Fyne keys preferences by it)", got, appID)
	}
}

func TestWindowServer(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		closing   bool
		wantRaise int
		wantCLI   int
		wantCode  int
	}{
		{"an empty request brings the window forward", nil, false, 1, 0, exitOK},
		{"a command runs as the CLI", []string{"conversations", "list"}, false, 0, 1, 7},
		{"a command while closing is refused", []string{"caps", "list"}, true, 0, 0, exitFail},
		{"an empty request while closing still raises", nil, true, 1, 0, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raised, ran := 0, 0
			s := &windowServer{
				raise: func() { raised++ },
				cli: func(context.Context, assistant.Request, io.Writer, io.Writer) int {
					ran++
					return 7
				},
			}
			if tt.closing {
				s.finish(func() {})
			}
			var out, errOut bytes.Buffer
			code := s.handle(t.Context(), assistant.Request{Args: tt.args}, &out, &errOut)
			if code != tt.wantCode || raised != tt.wantRaise || ran != tt.wantCLI {
				t.Errorf("code %d, raised %d, CLI ran %d; want %d, %d, %d (stderr %q)",
					code, raised, ran, tt.wantCode, tt.wantRaise, tt.wantCLI, errOut.String())
			}
		})
	}
}

// A second `wrasse` for a workspace whose window is open asks that window
// to come forward and exits 0 without opening anything itself.
func TestSecondLaunchBringsTheWindowForward(t *testing.T) {
	dir := t.TempDir()
	core, err := assistant.Open(assistant.Options{Workspace: dir, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	raised := make(chan struct{}, 1)
	s := &windowServer{raise: func() { raised <- struct{}{} }, cli: serveHandler(core)}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if err := core.Serve(ctx, s.handle); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := runDesktop(t.Context(), []string{"--workspace", dir}, stdio{in: &bytes.Buffer{}, out: &out, err: &errOut}, func(string) string { return "" })
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	select {
	case <-raised:
	default:
		t.Error("the running window was not asked to come forward")
	}
}

func TestDesktopUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	code := runDesktop(t.Context(), []string{"--no-such-flag"}, stdio{out: &out, err: &errOut}, func(string) string { return "" })
	if code != exitUsage {
		t.Errorf("exit %d, want %d (stderr %q)", code, exitUsage, errOut.String())
	}
}
