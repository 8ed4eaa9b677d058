package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// The damage tests work on copies of a database the real store wrote (a
// few hundred pages: branch pages, overflow pages, nested buckets), damaged
// as files are in practice: garbage over pages, cut short, emptied, or
// written by a newer Wrasse. Every step runs under a context deadline, so
// a hang fails the test instead of stopping the run.

// fixture writes a realistic database at path: conversations of a
// question, a tool call and its result, an answer (some long enough for
// overflow pages), secrets, settings, capability states and settings,
// an MCP catalog and an image.
func fixture(t testing.TB, path string, convs int) {
	t.Helper()
	opts := testOptions(newClock())
	opts.NoSync = true
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.SetSecret("openai_api_key", "sk-fixture-0123456789abcdef"))
	must(db.SetSecret("mcp.notes.TOKEN", "tok-fixture-abcdef0123456789"))
	must(db.SetSetting("ui.theme", "dark"))
	must(db.SetState("shell", cerebellum.CapState{Granted: []string{"exec"}}))
	must(db.SetState("web", cerebellum.CapState{Disabled: true}))
	must(db.SetCapSetting("shell", "timeout", "5m"))
	must(db.SetRemoteCatalog("notes", cerebellum.Catalog{Key: "k", Tools: []cerebellum.RemoteTool{{Name: "search"}}}))
	for i := range convs {
		c, err := db.CreateConversation("llama3.1")
		must(err)
		must(db.SetTitle(c.ID, fmt.Sprintf("conversation %d about the garden", i)))
		for turn := range 3 {
			call := fmt.Sprintf("call_%d_%d", i, turn)
			for _, e := range []Event{
				{Type: EventUserMessage, Text: fmt.Sprintf("question %d of %d: what grows in the shade?", turn, i)},
				{Type: EventToolCall, ToolCallID: call, ToolName: "shell_exec", Arguments: json.RawMessage(`{"command":"ls ~/garden"}`)},
				{Type: EventToolResult, ToolCallID: call, ToolName: "shell_exec", Text: strings.Repeat(fmt.Sprintf("fern-%d.jpg\n", i), 40*(1+i%3))},
				{Type: EventAssistantText, Model: "llama3.1", Text: strings.Repeat("Ferns and hostas grow in the shade. ", 3+i%5*60)},
			} {
				_, err := db.AppendEvent(c.ID, e)
				must(err)
			}
		}
	}
}

// fixtureBytes is a fixture of convs conversations, written once per call.
func fixtureBytes(t testing.TB, convs int) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fixture.db")
	fixture(t, path, convs)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// layout finds pages worth damaging in a sound file.
type layout struct {
	pageSize       int
	root, freelist uint64
	conversations  uint64   // the conversations bucket's root page
	eventLeaves    []uint64 // leaf pages of one conversation's events
	eventsConv     ID       // that conversation
	highWater      uint64
}

func findLayout(t testing.TB, data []byte) layout {
	t.Helper()
	rf, err := openRaw(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	l := layout{pageSize: rf.pageSize, root: rf.meta.root, freelist: rf.meta.freelist, highWater: rf.meta.pgid}
	w := newWalker(rf)
	top := w.buckets(rf.rootBucket(), "root")
	l.conversations = top[bucketConversations].root
	// The conversation with the most leaf pages of its own.
	for key, eb := range w.buckets(top[bucketEvents], bucketEvents) {
		if eb.root == 0 {
			continue
		}
		leaves := leavesOf(t, rf, eb.root)
		if len(leaves) > len(l.eventLeaves) {
			n, _ := decodeU64([]byte(key))
			l.eventLeaves, l.eventsConv = leaves, ID(n)
		}
	}
	if l.conversations == 0 || len(l.eventLeaves) < 2 {
		t.Fatalf("fixture too small to damage: %+v", l)
	}
	return l
}

func leavesOf(t testing.TB, rf *rawFile, id uint64) []uint64 {
	p, err := rf.page(id)
	if err != nil {
		t.Fatal(err)
	}
	if binary.LittleEndian.Uint16(p[8:]) == leafPageFlag {
		return []uint64{id}
	}
	var out []uint64
	for i := range int(binary.LittleEndian.Uint16(p[10:])) {
		out = append(out, leavesOf(t, rf, binary.LittleEndian.Uint64(p[pageHeaderSize+i*elemSize+8:]))...)
	}
	return out
}

// garbage writes seeded random bytes over the given pages.
func garbage(data []byte, pageSize int, pages ...uint64) []byte {
	out := bytes.Clone(data)
	r := rand.New(rand.NewPCG(uint64(len(pages)), pages[0]))
	for _, p := range pages {
		for i := int(p) * pageSize; i < int(p+1)*pageSize; i++ {
			out[i] = byte(r.Uint32())
		}
	}
	return out
}

// within runs fn and fails the test when it does not return before ctx's
// deadline: a hang is a failure, not a stuck test run.
func within(t *testing.T, ctx context.Context, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("%s did not return: it hangs", what)
	}
}

func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func sameBytes(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s was changed (%d bytes, was %d)", path, len(got), len(want))
	}
}

// TestOpenRefusesDamagedFiles: every kind of damage is found when the file
// is opened, said plainly, and the file is left byte for byte as it was.
// On main, garbage over the root or the free list panicked inside bbolt,
// a file cut to half faulted (fatal), and an empty file became a new
// database.
func TestOpenRefusesDamagedFiles(t *testing.T) {
	sound := fixtureBytes(t, 12)
	l := findLayout(t, sound)
	newer := newerSchema(t, sound)
	tests := []struct {
		name string
		data []byte
		// quick opens with the quick check only (a large file's).
		quick bool
		want  error
		text  string
	}{
		{"garbage over the root and the conversations", garbage(sound, l.pageSize, l.root, l.conversations), false, ErrCorrupt, "page"},
		{"garbage over the root, quick check", garbage(sound, l.pageSize, l.root, l.conversations), true, ErrCorrupt, "page"},
		{"garbage over the free list", garbage(sound, l.pageSize, l.freelist), true, ErrCorrupt, "freelist"},
		{"garbage over a conversation's events", garbage(sound, l.pageSize, l.eventLeaves[0], l.eventLeaves[1]), false, ErrCorrupt, "events"},
		{"cut to half", sound[:len(sound)/2], false, ErrCorrupt, "cut short"},
		{"cut to half, quick check", sound[:len(sound)/2], true, ErrCorrupt, "cut short"},
		{"empty", []byte{}, false, ErrCorrupt, "empty (0 bytes)"},
		{"both meta pages", garbage(sound, l.pageSize, 0, 1), false, ErrCorrupt, "meta"},
		{"not a database", bytes.Repeat([]byte("not a database\n"), 1000), false, ErrCorrupt, "meta"},
		{"a newer schema", newer, false, ErrNewerSchema, fmt.Sprintf("database version %d; this Wrasse reads up to %d", schemaVersion+1, schemaVersion)},
		{"a schema version that is not one", rewritten(t, sound, func(tx *bolt.Tx) error {
			return tx.Bucket([]byte(bucketMeta)).Put([]byte(keySchemaVersion), []byte("three"))
		}), false, ErrCorrupt, "not a version number"},
		{"another program's bbolt file", rewritten(t, nil, func(tx *bolt.Tx) error {
			_, err := tx.CreateBucket([]byte("orders"))
			return err
		}), true, ErrCorrupt, `not a Wrasse database: it holds the buckets "orders"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			path := writeFile(t, tt.data)
			opts := testOptions(newClock())
			if tt.quick {
				opts.fullCheck = -1
			}
			opts.Backups = filepath.Join(filepath.Dir(path), "backups")
			var err error
			within(t, ctx, "Open", func() {
				var db *DB
				db, err = Open(path, opts)
				if db != nil {
					db.Close()
				}
			})
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("Open = %v, want %v saying %q", err, tt.want, tt.text)
			}
			sameBytes(t, path, tt.data)
			if list, _ := ListBackups(opts.Backups); len(list) != 0 {
				t.Fatalf("a refused file was backed up: %v", list)
			}
		})
	}
}

// newerSchema is sound with its schema version raised past this Wrasse's.
func newerSchema(t *testing.T, sound []byte) []byte {
	t.Helper()
	return rewritten(t, sound, func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketMeta)).Put([]byte(keySchemaVersion), encodeU64(schemaVersion+1))
	})
}

// rewritten is data (nil: a new bbolt file) after fn's transaction,
// made by bbolt itself.
func rewritten(t *testing.T, data []byte, fn func(*bolt.Tx) error) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rewritten.db")
	if data != nil {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Update(fn); err != nil {
		t.Fatal(err)
	}
	b.Close()
	out, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDamageFoundInUse: damage the quick check cannot see (a large file
// is not read in full at open) surfaces as ErrCorrupt where it is read,
// never as a panic; the rest stays readable, writes stop, Close returns,
// and the file is left as it was. On main, reading the damaged
// conversation panicked, and after a panic in a write Close deadlocked.
func TestDamageFoundInUse(t *testing.T) {
	sound := fixtureBytes(t, 12)
	l := findLayout(t, sound)
	data := garbage(sound, l.pageSize, l.eventLeaves[0], l.eventLeaves[1])
	path := writeFile(t, data)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	opts := testOptions(newClock())
	opts.fullCheck = -1
	var notices []error
	opts.OnStorage = func(err error) { notices = append(notices, err) }
	var db *DB
	var err error
	within(t, ctx, "Open", func() { db, err = Open(path, opts) })
	if err != nil {
		t.Fatalf("the quick check should not read the events: %v", err)
	}
	within(t, ctx, "reading", func() {
		convs, err := db.ListConversations()
		if err != nil || len(convs) != 12 {
			t.Errorf("ListConversations = %d, %v", len(convs), err)
		}
		if _, err := db.Events(l.eventsConv); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Events of the damaged conversation = %v, want ErrCorrupt", err)
		}
		if _, err := db.Secret("openai_api_key"); err != nil {
			t.Errorf("Secret after the damage: %v", err)
		}
		if _, err := db.AppendEvent(l.eventsConv, Event{Type: EventUserMessage, Text: "more"}); !errors.Is(err, ErrCorrupt) {
			t.Errorf("AppendEvent after the damage = %v, want ErrCorrupt", err)
		}
		if _, err := db.CreateConversation("m"); !errors.Is(err, ErrCorrupt) {
			t.Errorf("CreateConversation after the damage = %v, want ErrCorrupt", err)
		}
		if err := db.Damage(); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Damage() = %v", err)
		}
	})
	within(t, ctx, "Close", func() { err = db.Close() })
	if err != nil {
		t.Fatalf("Close: %v", err)
	}
	if len(notices) != 1 || !errors.Is(notices[0], ErrCorrupt) {
		t.Fatalf("storage notices %v, want one ErrCorrupt", notices)
	}
	sameBytes(t, path, data)
}

// TestPanicInWriteDoesNotDeadlockClose: damage met inside a write
// transaction (bbolt reads the damaged page to insert into it) is an
// error, the transaction's locks are released without reading the file
// again, later writes are refused, and Close returns.
func TestPanicInWriteDoesNotDeadlockClose(t *testing.T) {
	sound := fixtureBytes(t, 12)
	l := findLayout(t, sound)
	data := garbage(sound, l.pageSize, l.eventLeaves...)
	path := writeFile(t, data)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	opts := testOptions(newClock())
	opts.fullCheck = -1
	var notices []error
	opts.OnStorage = func(err error) { notices = append(notices, err) }
	db, err := Open(path, opts)
	if err != nil {
		t.Fatalf("the quick check should not read the events: %v", err)
	}
	within(t, ctx, "a write over damage", func() {
		_, err = db.AppendEvent(l.eventsConv, Event{Type: EventUserMessage, Text: "one more"})
	})
	if !errors.Is(err, ErrCorrupt) || len(notices) != 1 {
		t.Fatalf("AppendEvent = %v (notices %v), want ErrCorrupt found in the write", err, notices)
	}
	within(t, ctx, "the next write", func() { err = db.SetSetting("k", "v") })
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a write after damage = %v, want it refused", err)
	}
	within(t, ctx, "Close", func() { err = db.Close() })
	if err != nil {
		t.Fatal(err)
	}
	sameBytes(t, path, data)
}

// TestFileCutWhileOpen: a file cut short under an open database (another
// program, a failing disk) is a fault when bbolt reads past the end; the
// store turns it into ErrCorrupt instead of a fatal error.
func TestFileCutWhileOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	fixture(t, path, 12)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	db, err := Open(path, testOptions(newClock()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 8192); err != nil {
		t.Fatal(err)
	}
	var found error
	within(t, ctx, "reading past the end", func() {
		convs, err := db.ListConversations()
		if err != nil {
			found = err
			return
		}
		for _, c := range convs {
			if _, err := db.Events(c.ID); err != nil {
				found = err
				return
			}
		}
	})
	if !errors.Is(found, ErrCorrupt) {
		t.Fatalf("reading a file cut under it = %v, want ErrCorrupt", found)
	}
	within(t, ctx, "Close", func() { _ = db.Close() })
}

// TestFileCutDuringAWrite: a file cut short while a write transaction
// runs is not written to when it commits (bbolt would grow it back and
// write its pages without a fault), and later writes are refused.
func TestFileCutDuringAWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	fixture(t, path, 12)
	db, err := Open(path, testOptions(newClock()))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var cut []byte
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("cut-test"))
		if err != nil {
			return err
		}
		if err := b.Put([]byte("k"), bytes.Repeat([]byte("v"), 64<<10)); err != nil {
			return err
		}
		// The last page only: what the commit reads (the free list, the
		// pages it changes) is still in the file, so bbolt finds nothing
		// wrong by itself.
		if err := os.Truncate(path, tx.Size()-int64(os.Getpagesize())); err != nil {
			return err
		}
		cut, err = os.ReadFile(path)
		return err
	})
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a commit to a file cut during the transaction = %v, want ErrCorrupt", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, cut) {
		t.Fatalf("the cut file was written to (%d bytes, was %d)", len(got), len(cut))
	}
	if _, err := db.CreateConversation("after"); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a later write = %v, want refused with ErrCorrupt", err)
	}
}

// TestDiagnose: the doctor's report counts what can be read and names
// what cannot.
func TestDiagnose(t *testing.T) {
	sound := fixtureBytes(t, 12)
	l := findLayout(t, sound)
	d, err := Diagnose(writeFile(t, sound))
	if err != nil || !d.Healthy() || d.Conversations != 12 || d.Events != 12*12 || d.Secrets != 2 || d.Schema != schemaVersion {
		t.Fatalf("sound file: %+v, %v", d, err)
	}
	d, err = Diagnose(writeFile(t, garbage(sound, l.pageSize, l.eventLeaves[0])))
	if err != nil || d.Healthy() || d.Conversations != 12 || d.Events >= 12*12 || d.Events == 0 ||
		!strings.Contains(strings.Join(d.Problems, ";"), "events/"+l.eventsConv.String()) {
		t.Fatalf("damaged events: %+v, %v", d, err)
	}
	d, err = Diagnose(filepath.Join(t.TempDir(), "missing.db"))
	if err != nil || !d.Missing || d.Healthy() || d.Err() != nil {
		t.Fatalf("missing file: %+v, %v", d, err)
	}
}

// TestSalvageRecoversWhatCanBeRead: salvage copies every conversation,
// event, secret and setting that can still be read into a new database
// that opens and searches, keeps the damaged file as it was, and says what
// was lost.
func TestSalvageRecoversWhatCanBeRead(t *testing.T) {
	sound := fixtureBytes(t, 12)
	l := findLayout(t, sound)
	tests := []struct {
		name       string
		data       []byte
		lostEvents bool
		rebuilt    int
	}{
		{"events damaged", garbage(sound, l.pageSize, l.eventLeaves[0], l.eventLeaves[1]), true, 0},
		{"conversation records damaged", garbage(sound, l.pageSize, l.conversations), false, 12},
		{"sound", sound, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			path := writeFile(t, tt.data)
			dir := filepath.Join(filepath.Dir(path), "backups")
			var rep SalvageReport
			var err error
			within(t, ctx, "Salvage", func() { rep, err = Salvage(path, dir, testOptions(newClock())) })
			if err != nil {
				t.Fatal(err)
			}
			sameBytes(t, rep.SetAside, tt.data)
			if rep.Conversations != 12 || rep.Secrets != 2 || rep.Settings != 1 || rep.States != 2 ||
				rep.CapabilitySettings != 1 || rep.MCPCatalogs != 1 || rep.Rebuilt != tt.rebuilt {
				t.Fatalf("report %+v", rep)
			}
			if lost := rep.Events < 12*12; lost != tt.lostEvents || (tt.lostEvents && len(rep.Lost) == 0) {
				t.Fatalf("events %d, lost %q", rep.Events, rep.Lost)
			}
			db, err := Open(path, testOptions(newClock()))
			if err != nil {
				t.Fatalf("the salvaged database does not open: %v", err)
			}
			defer db.Close()
			if v, err := db.Secret("openai_api_key"); err != nil || v != "sk-fixture-0123456789abcdef" {
				t.Fatalf("secret = %q, %v", v, err)
			}
			if s, _ := db.CapSettings("shell"); s["timeout"] != "5m" {
				t.Fatalf("capability settings %v", s)
			}
			convs, err := db.ListConversations()
			if err != nil || len(convs) != 12 {
				t.Fatalf("conversations %d, %v", len(convs), err)
			}
			total := 0
			for _, c := range convs {
				evs, err := db.Events(c.ID)
				if err != nil || len(evs) != c.EventCount {
					t.Fatalf("%s: %d events, count %d, %v", c.ID, len(evs), c.EventCount, err)
				}
				total += len(evs)
			}
			if total != rep.Events {
				t.Fatalf("%d events readable, report says %d", total, rep.Events)
			}
			if hits, err := db.Search("hostas", 5); err != nil || len(hits) == 0 {
				t.Fatalf("search after salvage: %v, %v", hits, err)
			}
			// New events go after the salvaged ones.
			c := convs[0]
			e, err := db.AppendEvent(c.ID, Event{Type: EventUserMessage, Text: "after"})
			if err != nil {
				t.Fatal(err)
			}
			if evs, _ := db.Events(c.ID); evs[len(evs)-1].Seq != e.Seq || len(evs) != c.EventCount+1 {
				t.Fatalf("append after salvage overwrote an event: %d events", len(evs))
			}
			if nc, err := db.CreateConversation("m"); err != nil || nc.ID <= 12 {
				t.Fatalf("new conversation %v, %v", nc.ID, err)
			}
		})
	}
}

// TestSalvageRefusesNewerSchema: a layout this Wrasse does not know is
// not guessed at.
func TestSalvageRefusesNewerSchema(t *testing.T) {
	data := newerSchema(t, fixtureBytes(t, 2))
	path := writeFile(t, data)
	_, err := Salvage(path, filepath.Join(t.TempDir(), "b"), testOptions(newClock()))
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("Salvage = %v, want ErrNewerSchema", err)
	}
	sameBytes(t, path, data)
}

// FuzzRawFile: whatever the bytes, reading a file as Diagnose and Salvage
// do ends without a panic, a fault or a loop. Seeds are real files the
// store wrote, so mutations reach deep into valid page structures.
func FuzzRawFile(f *testing.F) {
	// Small files keep the fuzzer fast: 1 KB pages, one short
	// conversation (nested buckets, inline and not), a secret.
	path := filepath.Join(f.TempDir(), FileName)
	b, err := bolt.Open(path, 0o600, &bolt.Options{PageSize: 1024})
	if err != nil {
		f.Fatal(err)
	}
	b.Close()
	db, err := Open(path, testOptions(newClock()))
	if err != nil {
		f.Fatal(err)
	}
	c, _ := db.CreateConversation("m")
	_ = db.SetSecret("key", "secret-value-0123")
	for i := range 6 {
		_, _ = db.AppendEvent(c.ID, Event{Type: EventUserMessage, Text: strings.Repeat("word ", 20*i)})
	}
	db.Close()
	small, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(small)
	f.Add(small[:len(small)/2])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		rf, err := openRaw(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		var d Diagnosis
		diagnose(rf, &d, true)
		quickCheck(rf, &d)
		_ = rf.checkFreelist()
		w := newWalker(rf)
		w.eachDeep(rf.rootBucket(), "root")
	})
}
