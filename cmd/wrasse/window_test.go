package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
)

// The window opens on the doctor page, not the chat, when the database
// is damaged or from a newer Wrasse (the same Open errors the CLI
// reports), and swaps the running chat for it when damage turns up while
// it is open.
func TestWindowOpensTheDoctorPageOnAnUnusableDatabase(t *testing.T) {
	ws := filledWorkspace(t)
	db := filepath.Join(ws, "wrasse.db")
	sound, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"garbage over the root pages", withGarbage(sound, rootPages(t, sound)...)},
		{"cut to half", sound[:len(sound)/2]},
		{"empty", []byte{}},
		{"newer", newerDatabase(t, sound)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(db, tt.data, 0o600); err != nil {
				t.Fatal(err)
			}
			sess := testWindowSession(t, ws)
			core, err := assistant.Open(sess.opts)
			if !databaseTrouble(err) {
				t.Fatalf("Open = %v, want an error the doctor page helps with", err)
			}
			page, err := sess.show(core, err)
			if err != nil || page == nil || sess.w.Content() != page.Object() {
				t.Fatalf("the window shows %T (%v), not the doctor page", sess.w.Content(), err)
			}
			if sess.closeUI != nil {
				t.Error("a shell runs beside the doctor page")
			}
		})
	}
	t.Run("damage while the chat is open", func(t *testing.T) {
		if err := os.WriteFile(db, withGarbage(sound, rootPages(t, sound)...), 0o600); err != nil {
			t.Fatal(err)
		}
		// A shell stands in for the running chat (start's closers): the
		// real one's loaders hand work to the UI goroutine, which Fyne's
		// test driver runs on theirs.
		sess := testWindowSession(t, ws)
		chat := widget.NewLabel("the chat")
		sess.w.SetContent(chat)
		var uiClosed, coreClosed bool
		sess.closeUI = func() { uiClosed = true }
		sess.closeCore = func() { coreClosed = true }
		sess.damaged(fmt.Errorf("reading a conversation: %w", store.ErrCorrupt))
		sess.closing.Wait()
		if sess.w.Content() == chat || sess.closeUI != nil || !uiClosed || !coreClosed {
			t.Fatalf("after damage turned up: %T shown, shell closed %v, core closed %v", sess.w.Content(), uiClosed, coreClosed)
		}
	})
}

// testWindowSession is a window session on ws in Fyne's test app.
func testWindowSession(t *testing.T, ws string) *windowSession {
	t.Helper()
	a := test.NewTempApp(t)
	w := a.NewWindow("Wrasse")
	w.Resize(fyne.NewSize(1000, 720))
	getenv := func(k string) string {
		if k == "WRASSE_HOME" {
			return ws
		}
		return ""
	}
	// The doctor page reads the database in the test's goroutine: Fyne's
	// test driver has no UI goroutine to hand its widgets back to.
	now := func(fn func()) { fn() }
	sess := &windowSession{ctx: t.Context(), getenv: getenv, opts: assistant.Options{Workspace: ws, Getenv: getenv}, a: a, w: w,
		do: now, spawn: now}
	t.Cleanup(func() {
		sess.end()
		w.Close()
	})
	return sess
}
