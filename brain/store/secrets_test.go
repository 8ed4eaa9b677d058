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
