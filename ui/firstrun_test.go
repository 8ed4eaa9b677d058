package ui

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// A new workspace opens on the first-run page in the chat's place; the
// composer takes no focus meanwhile; Skip (or a model saved anywhere)
// brings the chat. A workspace with a model or a conversation opens on
// the chat.
func TestFirstRunTakesTheChatsPlace(t *testing.T) {
	open := func(t *testing.T) *assistant.App {
		core, err := assistant.Open(assistant.Options{Workspace: t.TempDir(), LockTimeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { core.Close() })
		return core
	}
	nothing := func(context.Context) []assistant.LocalServer { return nil }
	build := func(t *testing.T, core *assistant.App) (*fakeChat, chatView, *Shell) {
		a := test.NewTempApp(t)
		w := test.NewTempWindow(t, nil)
		env := &bridge.Env{App: a, Window: w, Core: core, Do: func(f func()) { f() }, Go: func(f func()) { f() }}
		fc := &fakeChat{}
		c := withFirstRun(env, fc, nothing)
		s := &Shell{env: env}
		s.assemble(c, &fakeSettings{page: hint.PageModel})
		return fc, c, s
	}
	t.Run("a new workspace", func(t *testing.T) {
		core := open(t)
		fc, c, s := build(t, core)
		fr, ok := c.(*firstRunChat)
		if !ok {
			t.Fatal("no first-run page")
		}
		if slices.Contains(fc.calls, "focus") {
			t.Errorf("the hidden composer took the focus: %v", fc.calls)
		}
		if !fr.page.Object().Visible() {
			t.Fatal("the page does not show")
		}
		// Skip brings the chat, focused.
		for _, o := range test.LaidOutObjects(s.Object()) {
			if b := asButton(o); b != nil && b.Text == "Skip: set it up later on the Model page" {
				test.Tap(o.(fyne.Tappable))
			}
		}
		if fr.page.Object().Visible() || !slices.Contains(fc.calls, "focus") {
			t.Errorf("after Skip: page %v, chat calls %v", fr.page.Object().Visible(), fc.calls)
		}
	})
	t.Run("the chat beneath hears of a new text size", func(t *testing.T) {
		core := open(t)
		fc, c, s := build(t, core)
		if _, ok := c.(*firstRunChat); !ok {
			t.Fatal("no first-run page")
		}
		s.stepTextSize(1)
		if !slices.Contains(fc.calls, "text size") {
			t.Errorf("Ctrl+plus on the first-run page: chat calls %v", fc.calls)
		}
	})
	t.Run("a model saved elsewhere ends it", func(t *testing.T) {
		core := open(t)
		_, c, _ := build(t, core)
		fr := c.(*firstRunChat)
		if _, err := core.SetConfig("model", "qwen3:8b"); err != nil {
			t.Fatal(err)
		}
		if fr.page.Object().Visible() {
			t.Error("the page stays after the Model page saved a model")
		}
	})
	t.Run("a workspace with a model", func(t *testing.T) {
		core := open(t)
		if _, err := core.UpdateConfig(func(c *workspace.Config) error { return c.Set("model", "llama3.1") }); err != nil {
			t.Fatal(err)
		}
		if _, c, _ := build(t, core); func() bool { _, ok := c.(*firstRunChat); return ok }() {
			t.Error("the first run shows on a workspace with a model")
		}
	})
	t.Run("a workspace with conversations", func(t *testing.T) {
		core := open(t)
		if _, err := core.Engine().DB.CreateConversation("m"); err != nil {
			t.Fatal(err)
		}
		if _, c, _ := build(t, core); func() bool { _, ok := c.(*firstRunChat); return ok }() {
			t.Error("the first run shows on a workspace in use")
		}
	})
}

// asButton is o's button: a *widget.Button or a widget built on one (the
// settings' buttons that pass Esc on embed it); nil for anything else.
func asButton(o fyne.CanvasObject) *widget.Button {
	if b, ok := o.(*widget.Button); ok {
		return b
	}
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	if f := v.Elem().FieldByName("Button"); f.IsValid() && f.Type() == reflect.TypeOf(widget.Button{}) {
		return f.Addr().Interface().(*widget.Button)
	}
	return nil
}
