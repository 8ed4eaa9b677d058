package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// TestKillDuringAStallKeepsWhatWasShown: a model that streams a few
// words and then stops sending; the text shown reaches the database while
// nothing more arrives (the store writes what streamed 250 ms after it
// stopped), so a SIGKILL then loses none of it, and the next open shows
// the reply as interrupted with that text. On main the stored reply was
// empty after a kill during a stall although 25-50 bytes had been shown.
// Bounded by a context, not by sleeps.
func TestKillDuringAStallKeepsWhatWasShown(t *testing.T) {
	ws := t.TempDir()
	m := providertest.NewModel(t, providertest.OpenAI)
	const shown = "The first words of an answer, 9c41e"
	m.Reply(providertest.Text(shown), providertest.Hold())
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	chat := startChat(t, ctx, ws, m)
	cmd, exited := chat.cmd, chat.exited
	out, errb := &chat.out, &chat.errb
	select {
	case <-m.Waiting(): // the words went out; the model says nothing more
	case err := <-exited:
		t.Fatalf("the chat ended before it reached the model: %v\n%s%s", err, out.String(), errb.String())
	case <-ctx.Done():
		<-exited
		t.Fatalf("the chat never reached the model\n%s%s", out.String(), errb.String())
	}
	db := filepath.Join(ws, "wrasse.db")
	for {
		if b, _ := os.ReadFile(db); bytes.Contains(b, []byte(shown)) {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("the chat ended before it stored the words: %v\n%s%s", err, out.String(), errb.String())
		case <-ctx.Done():
			<-exited
			t.Fatalf("the words shown never reached the database while the model was silent\n%s%s", out.String(), errb.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
	if !strings.Contains(out.String(), shown) {
		t.Errorf("the chat did not show the words:\n%s", out.String())
	}
	d, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	convs, err := d.ListConversations()
	if err != nil || len(convs) != 1 {
		t.Fatalf("conversations %+v, %v", convs, err)
	}
	evs, err := d.Events(convs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var reply *store.Event
	for i := range evs {
		if evs[i].Type == store.EventAssistantText {
			reply = &evs[i]
		}
	}
	if reply == nil || reply.Text != shown || reply.Status != store.StatusInterrupted {
		t.Fatalf("after the kill the reply is %+v, want %q interrupted", reply, shown)
	}
}

// chatProcess is `wrasse chat hello` on ws against model m, run as a
// process of its own (this test binary as wrasse) so a test can signal it.
// exited receives Wait's result; read out and errb only after it has.
type chatProcess struct {
	cmd       *exec.Cmd
	exited    chan error
	out, errb bytes.Buffer
}

func startChat(t *testing.T, ctx context.Context, ws string, m *providertest.Model) *chatProcess {
	t.Helper()
	p := &chatProcess{exited: make(chan error, 1)}
	p.cmd = exec.CommandContext(ctx, testBinary(t), "--workspace", ws, "chat", "--base-url", m.BaseURL(), "--send-key", "--model", "m", "--retries", "0", "hello")
	p.cmd.Env = append(os.Environ(), asWrasseEnv+"=1", "OPENAI_API_KEY=sk-test-key-0123456789")
	p.cmd.Stdin = strings.NewReader("")
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.errb
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exited <- p.cmd.Wait() }()
	return p
}
