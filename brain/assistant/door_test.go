package assistant

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// TestDeleteStopsTheRunningTurnFirst: deleting a conversation whose turn
// waits for its model stops that turn and waits for it to end, so nothing
// the turn writes lands after the delete. Before, the window cancelled its
// own turn and deleted at once (through the store), and the CLI's delete
// was refused with ErrBusy.
func TestDeleteStopsTheRunningTurnFirst(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	m.Reply(providertest.Text("Half an answer"), providertest.Hold())
	if _, err := a.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model, c.ContextWindow = "openai", m.BaseURL(), "m", 32000
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	started := make(chan store.ID, 1)
	type result struct {
		id  store.ID
		err error
	}
	done := make(chan result, 1)
	go func() {
		id, err := a.Turn(context.Background(), 0, "tell me a long story", TurnOptions{Started: func(id store.ID) { started <- id }})
		done <- result{id, err}
	}()
	id := <-started
	<-m.Waiting()
	var seen []EventKind
	stop := a.Subscribe(func(e Event) {
		if slices.Contains(e.Names, id.String()) {
			seen = append(seen, e.Kind)
		}
	})
	defer stop()
	if err := a.DeleteConversation(context.Background(), id); err != nil {
		t.Fatalf("DeleteConversation = %v, want the turn stopped and the conversation deleted", err)
	}
	// The turn has already ended: Delete waited for it.
	select {
	case r := <-done:
		if !errors.Is(r.err, context.Canceled) {
			t.Errorf("the stopped turn returned %v, want context.Canceled", r.err)
		}
	default:
		t.Fatal("DeleteConversation returned while the turn was still running")
	}
	if _, err := a.History().GetConversation(id); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after delete: %v, want ErrNotFound", err)
	}
	if evs, _ := a.History().Events(id); len(evs) != 0 {
		t.Errorf("%d events of the deleted conversation remain", len(evs))
	}
	if !slices.Contains(seen, EventConversations) {
		t.Errorf("delete announced %v, want EventConversations", seen)
	}
}

// TestDeleteGivesUpWhenItsContextEnds: a delete waiting for a turn that
// does not stop says so, and deletes nothing.
func TestDeleteGivesUpWhenItsContextEnds(t *testing.T) {
	a := openTest(t)
	c, err := a.db.CreateConversation("m")
	if err != nil {
		t.Fatal(err)
	}
	if !a.claim(c.ID) { // held by something that is not a turn: no cancel
		t.Fatal("claim")
	}
	defer a.release(c.ID)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := a.DeleteConversation(ctx, c.ID); !errors.Is(err, context.Canceled) {
		t.Fatalf("DeleteConversation = %v, want context.Canceled", err)
	}
	if _, err := a.History().GetConversation(c.ID); err != nil {
		t.Errorf("a delete that gave up deleted: %v", err)
	}
}

func TestRenameConversationAnnounces(t *testing.T) {
	a := openTest(t)
	c, err := a.db.CreateConversation("m")
	if err != nil {
		t.Fatal(err)
	}
	var seen []EventKind
	stop := a.Subscribe(func(e Event) { seen = append(seen, e.Kind) })
	defer stop()
	if err := a.RenameConversation(c.ID, "  Ferns  "); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.History().GetConversation(c.ID); got.Title != "Ferns" {
		t.Errorf("title %q, want Ferns", got.Title)
	}
	if !slices.Contains(seen, EventConversations) {
		t.Errorf("rename announced %v, want EventConversations", seen)
	}
	if err := a.RenameConversation(c.ID+1000, "x"); !errors.Is(err, ErrNoConversation) {
		t.Errorf("rename of a missing conversation = %v, want ErrNoConversation", err)
	}
}

// TestFrontEndsGoThroughApp: no front end (the window's ui/ packages, the
// CLI's cmd/) reaches the store or the registry behind the App: reads go
// through App.History and App.Capabilities, changes through App methods
// that claim, wait and announce. Engine is for tests only.
func TestFrontEndsGoThroughApp(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, dir := range []string{"ui", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Engine" {
					t.Errorf("%s uses App.Engine: front ends read through History and Capabilities and change through App methods", path)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
