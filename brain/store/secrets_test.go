package store

import (
	"reflect"
	"strings"
	"testing"
)

func TestSecrets(t *testing.T) {
	db, path, clock := openTest(t)
	names, err := db.SecretNames()
	if err != nil || len(names) != 0 {
		t.Fatalf("SecretNames on empty = %v, %v", names, err)
	}
	if db.Redactor() != nil {
		t.Errorf("redactor without secrets should be nil")
	}
	for name, v := range map[string]string{"OPENAI_API_KEY": "sk-1111", "anthropic.key": "ak-2222", "gh-token": "ghp_3333"} {
		if err := db.SetSecret(name, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.SetSecret("OPENAI_API_KEY", "sk-replaced"); err != nil {
		t.Fatal(err)
	}
	if got := db.Redactor().String("sk-1111 sk-replaced ghp_3333"); got != "sk-1111 [redacted:OPENAI_API_KEY] [redacted:gh-token]" {
		t.Errorf("redactor after set = %q", got)
	}
	wantErr(t, db.DeleteSecret("gh-token"), nil)
	wantErr(t, db.DeleteSecret("gh-token"), ErrNotFound)
	if got := db.Redactor().String("ghp_3333"); got != "ghp_3333" {
		t.Errorf("deleted secret still redacted: %q", got)
	}

	db = reopen(t, db, path, clock)
	names, err = db.SecretNames()
	if err != nil || !reflect.DeepEqual(names, []string{"OPENAI_API_KEY", "anthropic.key"}) {
		t.Errorf("SecretNames = %v, %v", names, err)
	}
	if v, err := db.Secret("OPENAI_API_KEY"); err != nil || v != "sk-replaced" {
		t.Errorf("Secret = %q, %v", v, err)
	}
	_, err = db.Secret("gh-token")
	wantErr(t, err, ErrNotFound)
	if got := db.Redactor().Names(); !reflect.DeepEqual(got, []string{"OPENAI_API_KEY", "anthropic.key"}) {
		t.Errorf("Redactor().Names() = %v", got)
	}
}

func TestSecretValidation(t *testing.T) {
	tests := []struct {
		name, value string
		wantErr     error
	}{
		{"API_KEY", "v", nil},
		{"_x", "v", nil},
		{"a.b-c_9", "v", nil},
		{"", "v", ErrInvalidName},
		{"9lives", "v", ErrInvalidName},
		{"-x", "v", ErrInvalidName},
		{"has space", "v", ErrInvalidName},
		{"quote\"", "v", ErrInvalidName},
		{"brack]et", "v", ErrInvalidName},
		{"é", "v", ErrInvalidName},
		{strings.Repeat("a", MaxNameLen), "v", nil},
		{strings.Repeat("a", MaxNameLen+1), "v", ErrInvalidName},
		{"EMPTY", "", ErrEmptyValue},
	}
	db, _, _ := openTest(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantErr(t, db.SetSecret(tt.name, tt.value), tt.wantErr)
		})
	}
}

func TestSettings(t *testing.T) {
	db, path, clock := openTest(t)
	_, err := db.Setting("theme")
	wantErr(t, err, ErrNotFound)
	wantErr(t, db.SetSetting("theme", "dark"), nil)
	wantErr(t, db.SetSetting("empty", ""), nil)
	wantErr(t, db.SetSetting("bad key", "x"), ErrInvalidName)
	db = reopen(t, db, path, clock)
	for k, want := range map[string]string{"theme": "dark", "empty": ""} {
		if v, err := db.Setting(k); err != nil || v != want {
			t.Errorf("Setting(%q) = %q, %v; want %q", k, v, err, want)
		}
	}
	wantErr(t, db.DeleteSetting("theme"), nil)
	wantErr(t, db.DeleteSetting("theme"), nil)
	_, err = db.Setting("theme")
	wantErr(t, err, ErrNotFound)
}

// AddRedaction redacts a value that is not stored (a key from the
// environment) alongside the stored secrets, even under a stored name, and
// only for this DB value's life.
func TestAddRedaction(t *testing.T) {
	db, path, clock := openTest(t)
	tests := []struct {
		name, value string
		wantErr     error
	}{
		{"OPENAI_API_KEY", "sk-env-0123456789", nil},
		{"OPENAI_API_KEY", "sk-env-0123456789", nil}, // again: no-op
		{"openai_api_key", "sk-stored-987654", nil},  // same name as the stored secret, another value
		{"short", "abc", nil},                        // accepted, too short to redact
		{"bad name", "sk-xxxxxxxx", ErrInvalidName},
		{"EMPTY", "", ErrEmptyValue},
	}
	if err := db.SetSecret("openai_api_key", "sk-stored-0000"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		wantErr(t, db.AddRedaction(tt.name, tt.value), tt.wantErr)
	}
	const in = "env sk-env-0123456789 stored sk-stored-0000 other sk-stored-987654 abc"
	const want = "env [redacted:OPENAI_API_KEY] stored [redacted:openai_api_key] other [redacted:openai_api_key] abc"
	if got := db.Redactor().String(in); got != want {
		t.Errorf("redacted %q\nwant %q", got, want)
	}
	// Changing the stored secrets keeps the added values.
	if err := db.DeleteSecret("openai_api_key"); err != nil {
		t.Fatal(err)
	}
	if got := db.Redactor().String("sk-env-0123456789 sk-stored-0000"); got != "[redacted:OPENAI_API_KEY] sk-stored-0000" {
		t.Errorf("after delete: %q", got)
	}
	c := mustConv(t, db, "")
	e := mustAppend(t, db, c.ID, Event{Type: EventToolResult, ToolCallID: "1", Text: "HOME=/h OPENAI_API_KEY=sk-env-0123456789"})
	if e.Text != "HOME=/h OPENAI_API_KEY=[redacted:OPENAI_API_KEY]" {
		t.Errorf("stored %q", e.Text)
	}
	if len(db.extra) != 3 {
		t.Errorf("added values %v, want 3 distinct", db.extra)
	}
	if names, _ := db.SecretNames(); len(names) != 0 {
		t.Errorf("an added value was stored as a secret: %v", names)
	}
	// Not kept across Open.
	db = reopen(t, db, path, clock)
	if db.Redactor() != nil {
		t.Errorf("added values outlived the DB: %v", db.Redactor().Names())
	}
}
