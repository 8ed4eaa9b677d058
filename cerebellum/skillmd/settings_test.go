package skillmd

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSettingsValidGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/settings/valid.md")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(data, Options{File: "SKILL.md", Folder: "settings-demo"})
	if err != nil {
		t.Fatalf("unexpected error:\n%v", err)
	}
	var warns []string
	for _, w := range m.Warnings {
		warns = append(warns, w.String())
	}
	b, _ := json.MarshalIndent(map[string]any{"settings": m.Settings, "warnings": warns}, "", "  ")
	checkGolden(t, "testdata/settings/valid.golden", string(b)+"\n")
	for i := 1; i < len(m.Settings); i++ {
		if m.Settings[i-1].Key >= m.Settings[i].Key {
			t.Errorf("settings not sorted by key: %s before %s", m.Settings[i-1].Key, m.Settings[i].Key)
		}
	}
}

func TestSettingsInvalidGolden(t *testing.T) {
	for _, name := range []string{"invalid", "notmapping"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata/settings", name+".md"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(data, Options{File: "SKILL.md"})
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v; want an *Error", err)
			}
			for _, p := range pe.Problems {
				if p.Line == 0 || p.Column == 0 {
					t.Errorf("problem without line:column: %s", p)
				}
			}
			checkGolden(t, filepath.Join("testdata/settings", name+".golden"), pe.Detail()+"\n")
		})
	}
}

func TestSettingCheck(t *testing.T) {
	str := Setting{Key: "s", Type: SettingString}
	mode := Setting{Key: "mode", Type: SettingString, Enum: []string{"fast", "thorough"}}
	hosts := Setting{Key: "hosts", Type: SettingList}
	exts := Setting{Key: "exts", Type: SettingList, Enum: []string{"md", "txt"}}
	cases := []struct {
		s       Setting
		in      string
		want    string
		errPart string
	}{
		{str, " as given ", " as given ", ""},
		{Setting{Type: SettingBool}, "TRUE", "true", ""},
		{Setting{Type: SettingBool}, "0", "false", ""},
		{Setting{Type: SettingBool}, "yes", "", "use true or false"},
		{Setting{Type: SettingInt}, " 42 ", "42", ""},
		{Setting{Type: SettingInt}, "-7", "-7", ""},
		{Setting{Type: SettingInt}, "4.2", "", "whole number"},
		{Setting{Type: SettingDuration}, "90s", "1m30s", ""},
		{Setting{Type: SettingDuration}, "0", "0s", ""},
		{Setting{Type: SettingDuration}, "-1s", "", "not a duration"},
		{Setting{Type: SettingDuration}, "ten", "", "e.g. 90s"},
		{hosts, " a.com , ,b.org ", "a.com,b.org", ""},
		{hosts, "", "", ""},
		{mode, "fast", "fast", ""},
		{mode, "slow", "", "use one of fast, thorough"},
		{exts, "md, txt", "md,txt", ""},
		{exts, "md,pdf", "", `"pdf" is not allowed; each item must be one of md, txt`},
		{Setting{Type: "float"}, "1", "", "unknown setting type"},
	}
	for _, tc := range cases {
		got, err := tc.s.Check(tc.in)
		if tc.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errPart) {
				t.Errorf("%s Check(%q) = %q, %v; want an error containing %q", tc.s.Type, tc.in, got, err, tc.errPart)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s Check(%q) = %q, %v; want %q", tc.s.Type, tc.in, got, err, tc.want)
		}
		// Canonical values are fixed points.
		if again, err := tc.s.Check(got); err != nil || again != got {
			t.Errorf("%s Check(Check(%q)) = %q, %v; want %q", tc.s.Type, tc.in, again, err, got)
		}
	}
}

func TestValidSettingKey(t *testing.T) {
	tests := map[string]bool{"timeout": true, "allowedHosts": true, "max_bytes": true, "a1": true,
		"": false, "1a": false, "no-dash": false, "_x": false, "has space": false, strings.Repeat("a", 65): false}
	for in, want := range tests {
		if got := ValidSettingKey(in); got != want {
			t.Errorf("ValidSettingKey(%q) = %v; want %v", in, got, want)
		}
	}
}

// FuzzSettings: whatever a settings block holds, an accepted manifest has
// valid, sorted keys and defaults that pass their own Check unchanged.
func FuzzSettings(f *testing.F) {
	files, _ := filepath.Glob("testdata/settings/*.md")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data, Options{File: "SKILL.md"})
		if err != nil {
			return
		}
		for i, s := range m.Settings {
			if !ValidSettingKey(s.Key) || (i > 0 && m.Settings[i-1].Key >= s.Key) {
				t.Fatalf("accepted key %q at %d", s.Key, i)
			}
			if got, err := s.Check(s.Default); err != nil || got != s.Default {
				t.Fatalf("default %q of %s does not pass Check: %q %v", s.Default, s.Key, got, err)
			}
		}
	})
}
