package ui

import (
	"context"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/ui/bridge"
)

// serialEnv runs every UI change under one lock, as fyne.Do puts them on
// one goroutine: ConfirmRemote blocks on its own goroutine while the test
// taps on another.
func serialEnv(t *testing.T) (*bridge.Env, func(func())) {
	t.Helper()
	t.Setenv("LANG", "en_US.UTF-8")
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("chat"))
	w.Resize(fyne.NewSize(1000, 700))
	var mu sync.Mutex
	do := func(fn func()) {
		mu.Lock()
		defer mu.Unlock()
		fn()
	}
	return &bridge.Env{App: a, Window: w, Do: do, Go: func(fn func()) { go fn() }}, do
}

// onTop lists what the window's dialogs show.
func onTop(w fyne.Window) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		out = append(out, o)
		switch v := o.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c)
			}
		}
	}
	for _, o := range w.Canvas().Overlays().List() {
		walk(o)
	}
	return out
}

func TestConfirmRemote(t *testing.T) {
	cmd := RemoteCommand{Line: "wrasse config set baseURL 'http://evil.example/v1'",
		Sender: "wrasse config set baseURL http://evil.example/v1 (pid 4242, /usr/bin/wrasse)",
		Parent: "python3 .s.py (pid 4200, /usr/bin/python3.11)"}
	for _, tc := range []struct {
		tap  string
		want bool
	}{{remoteRun, true}, {remoteCancel, false}} {
		t.Run(tc.tap, func(t *testing.T) {
			env, do := serialEnv(t)
			got := make(chan bool, 1)
			go func() { got <- ConfirmRemote(t.Context(), env, cmd) }()
			var button *widget.Button
			for button == nil { // until the dialog is up
				do(func() {
					var texts []string
					for _, o := range onTop(env.Window) {
						switch v := o.(type) {
						case *widget.Button:
							if v.Text == tc.tap {
								button = v
							}
						case *widget.Label:
							texts = append(texts, v.Text)
						}
					}
					if button == nil {
						return
					}
					shown := strings.Join(texts, "\n")
					for _, want := range []string{remoteTitle, cmd.Line, cmd.Sender, cmd.Parent, "Run it only if you started it yourself"} {
						if !strings.Contains(shown, want) {
							t.Errorf("the dialog does not show %q:\n%s", want, shown)
						}
					}
				})
			}
			do(func() { test.Tap(button) })
			if ok := <-got; ok != tc.want {
				t.Errorf("ConfirmRemote = %v after %s", ok, tc.tap)
			}
			do(func() {
				if n := len(onTop(env.Window)); n != 0 {
					t.Errorf("the dialog stayed: %d objects", n)
				}
			})
		})
	}
}

// A sender that goes away takes its question with it.
func TestConfirmRemoteSenderLeaves(t *testing.T) {
	env, do := serialEnv(t)
	ctx, cancel := context.WithCancel(t.Context())
	got := make(chan bool, 1)
	go func() { got <- ConfirmRemote(ctx, env, RemoteCommand{Line: "wrasse secrets set x"}) }()
	for up := false; !up; {
		do(func() { up = len(onTop(env.Window)) > 0 })
	}
	cancel()
	if ok := <-got; ok {
		t.Error("confirmed without an answer")
	}
	do(func() {
		if n := len(onTop(env.Window)); n != 0 {
			t.Errorf("the dialog stayed: %d objects", n)
		}
	})
}
