package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// asWrasseEnv makes this test binary run as wrasse itself (main), for the
// tests that need a process of their own to signal.
const asWrasseEnv = "WRASSE_TEST_AS_WRASSE"

// filledWorkspace is a workspace whose database the real store wrote:
// conversations, events long enough for many pages, a secret.
func filledWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	app, err := assistant.Open(assistant.Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	if err := app.SetSecret("openai_api_key", "sk-doctor-cli-0123456789"); err != nil {
		t.Fatal(err)
	}
	db := app.Engine().DB
	for i := range 8 {
		c, err := db.CreateConversation("m")
		if err != nil {
			t.Fatal(err)
		}
		_ = db.SetTitle(c.ID, "garden "+strings.Repeat("x", i))
		for j := range 30 {
			if _, err := db.AppendEvent(c.ID, store.Event{Type: store.EventUserMessage, Text: strings.Repeat("what grows in the shade? ", 10+j)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	app.Close()
	return ws
}

// rootPages are the root pages of the two meta pages of a bbolt file
// (page size 4096), the newest transaction's first, read from the file's
// bytes as bbolt lays them out.
func rootPages(t *testing.T, data []byte) []uint64 {
	t.Helper()
	root := func(i int) uint64 { return binary.LittleEndian.Uint64(data[i*4096+16+16:]) }
	txid := func(i int) uint64 { return binary.LittleEndian.Uint64(data[i*4096+16+48:]) }
	if txid(1) > txid(0) {
		return []uint64{root(1), root(0)}
	}
	return []uint64{root(0), root(1)}
}

func withGarbage(data []byte, pages ...uint64) []byte {
	out := bytes.Clone(data)
	r := rand.New(rand.NewPCG(7, pages[0]))
	for _, p := range pages {
		for i := int(p) * 4096; i < int(p+1)*4096; i++ {
			out[i] = byte(r.Uint32())
		}
	}
	return out
}

// TestDamagedDatabaseCommands: with a damaged database every command
// exits 1 saying what is wrong and pointing at wrasse doctor, none
// panics, and the file is left as it was; wrasse doctor says what can be
// read. On main garbage over the root page made every command panic with
// a stack trace (which ends this test binary), and an empty file became a
// new database.
func TestDamagedDatabaseCommands(t *testing.T) {
	ws := filledWorkspace(t)
	db := filepath.Join(ws, "wrasse.db")
	sound, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	roots := rootPages(t, sound)
	tests := []struct {
		name   string
		data   []byte
		says   string
		doctor string
	}{
		{"garbage over the root pages", withGarbage(sound, roots...), "the workspace database is damaged", "is damaged"},
		{"garbage over the newest root", withGarbage(sound, roots[0]), "the workspace database is damaged", "wrasse doctor --salvage"},
		{"cut to half", sound[:len(sound)/2], "it was cut short", "is damaged"},
		{"empty", []byte{}, "is empty (0 bytes)", "is damaged"},
		{"newer", newerDatabase(t, sound), "was written by a newer Wrasse", "Update Wrasse"},
	}
	m := newModel(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(db, tt.data, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"conversations", "list"}, {"caps", "list"}, {"secrets", "list"}, {"config", "set", "model", "x"},
				{"chat", "--base-url", m.BaseURL(), "--model", "m", "hello"},
			} {
				code, out, errOut := cli(t, ws, args...)
				if code != 1 || !strings.Contains(errOut, tt.says) || !strings.Contains(errOut, "→ wrasse doctor") {
					t.Errorf("%s: exit %d\n%s%s\nwant exit 1 saying %q and pointing at wrasse doctor", strings.Join(args, " "), code, out, errOut, tt.says)
				}
			}
			code, out, errOut := cli(t, ws, "doctor")
			if code != 1 || !strings.Contains(out, tt.doctor) || !strings.Contains(out, "Nothing was changed in it") {
				t.Errorf("doctor: exit %d\n%s%s", code, out, errOut)
			}
			if got, _ := os.ReadFile(db); !bytes.Equal(got, tt.data) {
				t.Fatal("the damaged file was changed")
			}
		})
	}
	if len(m.Requests()) != 0 {
		t.Fatal("a chat asked the model with a database it cannot store into")
	}
}

func newerDatabase(t *testing.T, sound []byte) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "newer.db")
	if err := os.WriteFile(path, sound, 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Update(func(tx *bolt.Tx) error {
		v := make([]byte, 8)
		binary.BigEndian.PutUint64(v, store.SchemaVersion+1)
		return tx.Bucket([]byte("meta")).Put([]byte("schema_version"), v)
	}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDoctorCommands: salvage, fresh, restore and the list of backups,
// each leaving a workspace the other commands use again.
func TestDoctorCommands(t *testing.T) {
	ws := filledWorkspace(t)
	db := filepath.Join(ws, "wrasse.db")
	sound, _ := os.ReadFile(db)
	// An open makes the daily backup.
	if code, _, errOut := cli(t, ws, "conversations", "list"); code != 0 {
		t.Fatalf("conversations list: %s", errOut)
	}
	// Sound: nothing to repair.
	if code, out, errOut := cli(t, ws, "doctor"); code != 0 || !strings.Contains(out, "is sound") || !strings.Contains(out, "8 conversations") {
		t.Fatalf("doctor on a sound database: %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := cli(t, ws, "doctor", "--fresh"); code != 1 || !strings.Contains(errOut, "is sound") {
		t.Fatalf("doctor --fresh on a sound database: %d %s", code, errOut)
	}
	if code, _, errOut := cli(t, ws, "doctor", "--fresh", "--salvage"); code != 2 || !strings.Contains(errOut, "choose one") {
		t.Fatalf("two actions: %d %s", code, errOut)
	}
	code, out, errOut := cli(t, ws, "doctor", "--list-backups", "--json")
	var backups []store.Backup
	if code != 0 || json.Unmarshal([]byte(out), &backups) != nil || len(backups) != 1 {
		t.Fatalf("doctor --list-backups: %d %s %s", code, out, errOut)
	}
	// Damaged: salvage reads it out through the older root.
	roots := rootPages(t, sound)
	if err := os.WriteFile(db, withGarbage(sound, roots[0]), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = cli(t, ws, "doctor", "--salvage")
	if code != 0 || !strings.Contains(out, "Salvaged 8 conversations") || !strings.Contains(out, "1 secret") || !strings.Contains(out, "kept as") {
		t.Fatalf("doctor --salvage: %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := cli(t, ws, "conversations", "list"); code != 0 || strings.Count(out, "garden") != 8 {
		t.Fatalf("after salvage: %d %s", code, out)
	}
	// Fresh, then restore the backup.
	if err := os.WriteFile(db, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := cli(t, ws, "doctor", "--fresh"); code != 0 || !strings.Contains(out, "empty database") {
		t.Fatalf("doctor --fresh: %d %s %s", code, out, errOut)
	}
	if code, out, _ := cli(t, ws, "conversations", "list"); code != 0 || strings.Contains(out, "garden") {
		t.Fatalf("after --fresh: %d %s", code, out)
	}
	code, out, errOut = cli(t, ws, "doctor", "--restore", backups[0].Name)
	if code != 0 || !strings.Contains(out, "Restored "+backups[0].Name) {
		t.Fatalf("doctor --restore: %d %s %s", code, out, errOut)
	}
	if code, out, _ := cli(t, ws, "conversations", "list"); code != 0 || strings.Count(out, "garden") != 8 {
		t.Fatalf("after --restore: %d %s", code, out)
	}
	if code, _, errOut := cli(t, ws, "doctor", "--restore", "nope.db"); code != 1 || !strings.Contains(errOut, "→ wrasse doctor --list-backups") {
		t.Fatalf("restore of an unknown backup: %d %s", code, errOut)
	}
}

// TestDoctorThroughARunningWrasse: with the workspace open elsewhere,
// doctor checks its database through it (on a copy) and refuses to
// replace it.
func TestDoctorThroughARunningWrasse(t *testing.T) {
	ws := filledWorkspace(t)
	holdWorkspace(t, ws, serveHandler)
	if code, out, errOut := cli(t, ws, "doctor"); code != 0 || !strings.Contains(out, "is sound") {
		t.Fatalf("doctor through the running Wrasse: %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := cli(t, ws, "doctor", "--fresh"); code != 1 || !strings.Contains(errOut, "close it first") {
		t.Fatalf("doctor --fresh through the running Wrasse: %d %s", code, errOut)
	}
}

// TestBrokenConfigCLI: a config.json with a syntax error stops no
// command, `config` says where the error is, and `config set` repairs it
// with --replace (without a terminal it says how). On main every command
// failed, config set included.
func TestBrokenConfigCLI(t *testing.T) {
	ws := t.TempDir()
	cfg := filepath.Join(ws, "config.json")
	broken := "{\n  \"model\": \"qwen\",\n  oops\n}\n"
	write(t, cfg, broken)
	if code, out, errOut := cli(t, ws, "caps", "list"); code != 0 || !strings.Contains(out, "calc") {
		t.Fatalf("caps list with a broken config.json: %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := cli(t, ws, "config")
	if code != 0 || !strings.Contains(out, `"model": "qwen"`) || !strings.Contains(errOut, "config.json:3:3: invalid character 'o'") {
		t.Fatalf("config: %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = cli(t, ws, "config", "set", "maxSteps", "9")
	if code != 1 || !strings.Contains(errOut, "→ wrasse config set maxSteps 9 --replace") {
		t.Fatalf("config set on a broken file: %d %s", code, errOut)
	}
	if got, _ := os.ReadFile(cfg); string(got) != broken {
		t.Fatal("a refused config set changed config.json")
	}
	code, out, errOut = cli(t, ws, "config", "set", "maxSteps", "9", "--replace")
	if code != 0 || !strings.Contains(out, "config.json.broken") || !strings.Contains(out, "Saved maxSteps = 9") {
		t.Fatalf("config set --replace: %d %s %s", code, out, errOut)
	}
	if kept, _ := os.ReadFile(cfg + ".broken"); string(kept) != broken {
		t.Fatalf("config.json.broken = %q", kept)
	}
	if code, out, errOut := cli(t, ws, "config"); code != 0 || strings.Contains(errOut, "warning:") || !strings.Contains(out, `"model": "qwen"`) || !strings.Contains(out, `"maxSteps": 9`) {
		t.Fatalf("config after the repair: %d\n%s%s", code, out, errOut)
	}
	write(t, cfg, "")
	if code, out, errOut := cli(t, ws, "config"); code != 0 || strings.Contains(errOut, "warning:") || !strings.Contains(out, `"model": "llama3.1"`) {
		t.Fatalf("an empty config.json: %d\n%s%s", code, out, errOut)
	}
}

// TestDamageUnderARunningChatAndSIGTERM: a chat waiting for its model
// when its database is cut short under it ends at SIGTERM, promptly,
// with no Go panic, and leaves the file as the damage left it. On main
// the damaged read panicked inside bbolt, Close deadlocked and SIGTERM
// was ignored. Bounded by a context, not by sleeps.
func TestDamageUnderARunningChatAndSIGTERM(t *testing.T) {
	ws := filledWorkspace(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	const shown = "thinking-7f3a9c"
	m.Reply(providertest.Text(shown), providertest.Hold())
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	chat := startChat(t, ctx, ws, m)
	cmd, exited := chat.cmd, chat.exited
	out, errb := &chat.out, &chat.errb
	select {
	case <-m.Waiting():
	case err := <-exited:
		t.Fatalf("the chat ended before it reached the model: %v\n%s%s", err, out.String(), errb.String())
	case <-ctx.Done():
		<-exited // CommandContext killed it
		t.Fatalf("the chat never reached the model\n%s%s", out.String(), errb.String())
	}
	db := filepath.Join(ws, "wrasse.db")
	// The damage lands once the streamed piece is stored and nothing is
	// being written: a cut in the middle of a commit (its pages written,
	// its meta page not yet) is one the store cannot see coming, and the
	// commit's last write would land in what is left.
	// Quiet: the piece stored, and the file unchanged for longer than the
	// store waits before it writes what streamed (250 ms).
	var last []byte
	for {
		b, _ := os.ReadFile(db)
		if bytes.Contains(b, []byte(shown[:10])) && bytes.Equal(b, last) {
			break
		}
		last = b
		select {
		case err := <-exited:
			t.Fatalf("the chat ended before it stored the reply: %v\n%s%s", err, out.String(), errb.String())
		case <-ctx.Done():
			t.Fatalf("the streamed piece never reached the database\n%s%s", out.String(), errb.String())
		case <-time.After(600 * time.Millisecond):
		}
	}
	if err := os.Truncate(db, 8192); err != nil {
		t.Fatal(err)
	}
	cut, _ := os.ReadFile(db)
	// The chat may have found the damage and ended on its own already: what
	// follows checks how it ended either way.
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-exited:
	case <-ctx.Done():
		<-exited
		t.Fatalf("the chat did not end after SIGTERM\n%s%s", out.String(), errb.String())
	}
	var ee *exec.ExitError
	if err == nil || !errors.As(err, &ee) || ee.ExitCode() == 2 || strings.Contains(errb.String(), "goroutine ") {
		t.Fatalf("exit %v, want a failure that is not a Go panic\n%s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "the workspace database is damaged") || !strings.Contains(errb.String(), "→ wrasse doctor") {
		t.Errorf("stderr does not say the database is damaged and what to do:\n%s", errb.String())
	}
	if got, _ := os.ReadFile(db); !bytes.Equal(got, cut) {
		t.Fatalf("the damaged file was written after the damage (%d bytes, was %d)", len(got), len(cut))
	}
}
