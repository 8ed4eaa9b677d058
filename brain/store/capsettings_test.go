package store

import (
	"errors"
	"maps"
	"strings"
	"testing"
)

func TestCapSettings(t *testing.T) {
	type op struct {
		del            bool
		name, key, val string
	}
	tests := []struct {
		name string
		ops  []op
		want map[string]map[string]string // capability → values
	}{
		{"empty", nil, map[string]map[string]string{"shell": {}}},
		{"set", []op{{name: "shell", key: "timeout", val: "2m0s"}, {name: "web", key: "allowedHosts", val: "a.com,b.org"}},
			map[string]map[string]string{"shell": {"timeout": "2m0s"}, "web": {"allowedHosts": "a.com,b.org"}}},
		{"overwrite and empty value", []op{{name: "shell", key: "workdir", val: "/tmp"}, {name: "shell", key: "workdir", val: ""}},
			map[string]map[string]string{"shell": {"workdir": ""}}},
		{"delete", []op{
			{name: "shell", key: "timeout", val: "1s"}, {name: "shell", key: "network", val: "false"},
			{del: true, name: "shell", key: "timeout"}, {del: true, name: "shell", key: "never-set"}, {del: true, name: "absent", key: "x"},
		}, map[string]map[string]string{"shell": {"network": "false"}, "absent": {}}},
		{"delete last value", []op{{name: "web", key: "k", val: "v"}, {del: true, name: "web", key: "k"}},
			map[string]map[string]string{"web": {}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, _, _ := openTest(t)
			for _, o := range tt.ops {
				var err error
				if o.del {
					err = db.DeleteCapSetting(o.name, o.key)
				} else {
					err = db.SetCapSetting(o.name, o.key, o.val)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			for capName, want := range tt.want {
				got, err := db.CapSettings(capName)
				if err != nil {
					t.Fatal(err)
				}
				if !maps.Equal(got, want) {
					t.Errorf("CapSettings(%s) = %v; want %v", capName, got, want)
				}
			}
		})
	}
}

func TestCapSettingsRejectBadNames(t *testing.T) {
	db, _, _ := openTest(t)
	for _, tc := range []struct{ name, key string }{{"", "k"}, {"shell", ""}, {"shell", "has space"}, {"shell", strings.Repeat("k", MaxNameLen+1)}} {
		if err := db.SetCapSetting(tc.name, tc.key, "v"); !errors.Is(err, ErrInvalidName) {
			t.Errorf("SetCapSetting(%q, %q) = %v; want ErrInvalidName", tc.name, tc.key, err)
		}
	}
}

func TestCapSettingsSurviveReopen(t *testing.T) {
	db, path, clock := openTest(t)
	if err := db.SetCapSetting("shell", "timeout", "5m0s"); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db, path, clock)
	got, err := db.CapSettings("shell")
	if err != nil || got["timeout"] != "5m0s" {
		t.Fatalf("after reopen: %v %v", got, err)
	}
}
