package store

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/cerebellum"
)

func TestOpenCreatesPrivateFileAndFolder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX permissions")
	}
	dir := filepath.Join(t.TempDir(), "data", "ws")
	path := filepath.Join(dir, FileName)
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Path() != path {
		t.Errorf("Path() = %q, want %q", db.Path(), path)
	}
	for _, c := range []struct {
		path string
		want os.FileMode
	}{{dir, 0o700}, {filepath.Dir(dir), 0o700}, {path, 0o600}} {
		fi, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != c.want {
			t.Errorf("%s mode = %o, want %o", c.path, got, c.want)
		}
	}
}

func TestOpenTightensLooseMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX permissions")
	}
	db, path, clock := openTest(t)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(path, testOptions(clock))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %o, want 600", fi.Mode().Perm())
	}
}

func TestOpenLocked(t *testing.T) {
	_, path, _ := openTest(t)
	db2, err := Open(path, Options{Timeout: 50 * time.Millisecond})
	if err == nil {
		db2.Close()
		t.Fatal("second Open succeeded while the first holds the file")
	}
	if !errors.Is(err, ErrLocked) || !errors.Is(err, bolterrors.ErrTimeout) {
		t.Fatalf("error = %v, want ErrLocked wrapping bbolt's ErrTimeout", err)
	}
}

func TestOpenSchemaVersion(t *testing.T) {
	tests := []struct {
		name    string
		stored  []byte // nil: leave as Open wrote it
		wantErr error
	}{
		{"current", nil, nil},
		{"older", encodeU64(0), nil},
		{"newer", encodeU64(schemaVersion + 1), ErrNewerSchema},
		{"malformed", []byte("1"), ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, path, clock := openTest(t)
			if tt.stored != nil {
				err := db.bolt.Update(func(tx *bolt.Tx) error {
					return tx.Bucket([]byte(bucketMeta)).Put([]byte(keySchemaVersion), tt.stored)
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			db2, err := Open(path, testOptions(clock))
			wantErr(t, err, tt.wantErr)
			if err != nil {
				// A refused file must not stay locked.
				b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 50 * time.Millisecond})
				if err != nil {
					t.Fatalf("file still locked after a failed Open: %v", err)
				}
				b.Close()
				return
			}
			defer db2.Close()
			var v uint64
			_ = db2.bolt.View(func(tx *bolt.Tx) error {
				v, _ = decodeU64(tx.Bucket([]byte(bucketMeta)).Get([]byte(keySchemaVersion)))
				return nil
			})
			if v != schemaVersion {
				t.Errorf("schema_version = %d, want %d", v, schemaVersion)
			}
		})
	}
}

func TestOpenNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	junk := make([]byte, 16384)
	for i := range junk {
		junk[i] = byte(i * 7)
	}
	if err := os.WriteFile(path, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path, Options{})
	wantErr(t, err, ErrCorrupt)
}

// TestReopenPersistence writes one of everything, reopens, and compares.
func TestReopenPersistence(t *testing.T) {
	db, path, clock := openTest(t)
	c := mustConv(t, db, "gpt-test")
	events := []Event{
		{Type: EventUserMessage, Text: "Plan a trip to Lisbon in spring"},
		{Type: EventAssistantText, Text: "Sure.", Model: "gpt-test"},
		{Type: EventToolCall, ToolCallID: "call_1", ToolName: "web_search", Arguments: []byte(`{"q":"lisbon"}`)},
		{Type: EventApproval, ToolCallID: "call_1", ToolName: "web_search", Decision: &Decision{Kind: ApprovedConversation, Reason: "user said yes"}},
		{Type: EventToolResult, ToolCallID: "call_1", ToolName: "web_search", Text: "results", IsError: true},
		{Type: EventUsage, Model: "gpt-test", Usage: &provider.Usage{InputTokens: 10, OutputTokens: 5, CachedTokens: 2}},
		{Type: EventError, Text: "rate limited"},
	}
	var want []Event
	for _, e := range events {
		want = append(want, mustAppend(t, db, c.ID, e))
	}
	if err := db.SetLoaded(c.ID, []string{"web", "files"}); err != nil {
		t.Fatal(err)
	}
	states := map[string]cerebellum.CapState{
		"web":   {Granted: []string{"network"}},
		"notes": {Disabled: true, Authored: true},
	}
	for n, s := range states {
		if err := db.SetState(n, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.SetSecret("OPENAI_API_KEY", "sk-test-123456"); err != nil {
		t.Fatal(err)
	}
	if err := db.SetSetting("theme", "dark"); err != nil {
		t.Fatal(err)
	}
	wantConv, err := db.GetConversation(c.ID)
	if err != nil {
		t.Fatal(err)
	}

	db = reopen(t, db, path, clock)

	if got := mustEvents(t, db, c.ID); !reflect.DeepEqual(got, want) {
		t.Errorf("events after reopen:\n got %+v\nwant %+v", got, want)
	}
	gotConv, err := db.GetConversation(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotConv, wantConv) {
		t.Errorf("conversation after reopen = %+v, want %+v", gotConv, wantConv)
	}
	if gotConv.Title != "Plan a trip to Lisbon in spring" || gotConv.EventCount != len(events) {
		t.Errorf("conversation = %+v", gotConv)
	}
	loaded, err := db.Loaded(c.ID)
	if err != nil || !reflect.DeepEqual(loaded, []string{"web", "files"}) {
		t.Errorf("Loaded = %v, %v", loaded, err)
	}
	gotStates, err := db.States()
	if err != nil || !reflect.DeepEqual(gotStates, states) {
		t.Errorf("States = %v, %v; want %v", gotStates, err, states)
	}
	if v, err := db.Secret("OPENAI_API_KEY"); err != nil || v != "sk-test-123456" {
		t.Errorf("Secret = %q, %v", v, err)
	}
	if v, err := db.Setting("theme"); err != nil || v != "dark" {
		t.Errorf("Setting = %q, %v", v, err)
	}
	// The redactor is rebuilt from the stored secrets at Open.
	if got := db.Redactor().String("key sk-test-123456"); got != "key [redacted:OPENAI_API_KEY]" {
		t.Errorf("redactor after reopen: %q", got)
	}
}
