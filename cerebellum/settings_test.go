package cerebellum_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

const settingsSkill = `---
name: runner
description: Runs things.
settings:
  timeout: {type: duration, default: 2m, description: How long a run may take.}
  network: {type: bool, default: true}
  mode: {type: string, default: fast, enum: [fast, thorough]}
  allowedHosts: {type: list, default: "*"}
tools:
  - name: runner_go
    description: Go.
---
x
`

// recordingLoader remembers the settings of every load.
type recordingLoader struct {
	mu    sync.Mutex
	loads []map[string]string
}

func (l *recordingLoader) Load(_ context.Context, req cerebellum.LoadRequest) (cerebellum.Runtime, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.loads = append(l.loads, maps.Clone(req.Settings))
	return cerebellum.RuntimeFunc(func(context.Context, string, json.RawMessage) (cerebellum.Result, error) {
		return cerebellum.Result{Content: "ok"}, nil
	}), nil
}

func (l *recordingLoader) last() (int, map[string]string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.loads) == 0 {
		return 0, nil
	}
	return len(l.loads), l.loads[len(l.loads)-1]
}

func openSettings(t *testing.T, store cerebellum.SettingsStore) (*cerebellum.Registry, *recordingLoader) {
	t.Helper()
	e := newEnv(t)
	e.addWorkspace("runner", settingsSkill, true)
	e.addWorkspace("plain", skill("plain", "No settings.", "plain_go"), true)
	l := &recordingLoader{}
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, Settings: store,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: l}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, l
}

func TestSettingsListDefaultsAndValues(t *testing.T) {
	r, _ := openSettings(t, nil)
	if err := manage.New(r, manage.Options{}).SetSetting("runner", "timeout", "90s"); err != nil {
		t.Fatal(err)
	}
	vals, err := r.Settings("runner")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vals {
		got = append(got, v.Key+"="+v.Value+map[bool]string{true: " (set)", false: ""}[v.Set])
	}
	want := "allowedHosts=*,mode=fast,network=true,timeout=1m30s (set)"
	if strings.Join(got, ",") != want {
		t.Errorf("settings = %s; want %s", strings.Join(got, ","), want)
	}
	if vals[1].Enum == nil || vals[3].Description != "How long a run may take." || vals[3].Default != "2m0s" {
		t.Errorf("declaration not carried: %+v", vals)
	}
	if vals, err := r.Settings("plain"); err != nil || len(vals) != 0 {
		t.Errorf("a capability without settings: %v %v", vals, err)
	}
	if _, err := r.Settings("runnr"); !errors.Is(err, cerebellum.ErrNotFound) {
		t.Errorf("unknown capability: %v", err)
	}
}

func TestSetSettingValidates(t *testing.T) {
	r, _ := openSettings(t, nil)
	cases := []struct {
		cap, key, value string
		want            error
		msg             []string
	}{
		{"runner", "mode", "slow", cerebellum.ErrInvalidSetting, []string{"mode of runner", "use one of fast, thorough"}},
		{"runner", "network", "maybe", cerebellum.ErrInvalidSetting, []string{"true or false"}},
		{"runner", "timeout", "soon", cerebellum.ErrInvalidSetting, []string{"e.g. 90s"}},
		{"runner", "timout", "1s", cerebellum.ErrUnknownSetting, []string{`did you mean "timeout"?`, "its settings: allowedHosts, mode, network, timeout"}},
		{"plain", "timeout", "1s", cerebellum.ErrUnknownSetting, []string{"plain declares no settings"}},
		{"nope", "timeout", "1s", cerebellum.ErrNotFound, nil},
	}
	for _, tc := range cases {
		err := manage.New(r, manage.Options{}).SetSetting(tc.cap, tc.key, tc.value)
		if !errors.Is(err, tc.want) {
			t.Errorf("SetSetting(%s, %s, %q) = %v; want %v", tc.cap, tc.key, tc.value, err, tc.want)
			continue
		}
		for _, m := range tc.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("SetSetting(%s, %s, %q): %q lacks %q", tc.cap, tc.key, tc.value, err, m)
			}
		}
		if tc.want != cerebellum.ErrNotFound {
			h, ok := hint.Of(err)
			if !ok || h.Page != hint.PageCapability || h.Target != tc.cap || strings.Join(h.Command, " ") != "caps settings "+tc.cap {
				t.Errorf("SetSetting(%s, %s, %q): hint %+v", tc.cap, tc.key, tc.value, h)
			}
		}
	}
	vals, _ := r.Settings("runner")
	for _, v := range vals {
		if v.Set {
			t.Errorf("a rejected value was stored: %+v", v)
		}
	}
}

// A change reaches the plugin: the runtime is reloaded and loaded with the
// effective values (stored, else defaults); a reset brings the default back.
func TestSettingChangeReloadsWithNewValues(t *testing.T) {
	r, l := openSettings(t, nil)
	ctx := context.Background()
	call := func() {
		t.Helper()
		if res, err := r.Call(ctx, nil, "runner_go", nil); err != nil || res.IsError {
			t.Fatalf("call: %+v %v", res, err)
		}
	}
	call()
	n, got := l.last()
	want := map[string]string{"allowedHosts": "*", "mode": "fast", "network": "true", "timeout": "2m0s"}
	if n != 1 || !maps.Equal(got, want) {
		t.Fatalf("first load %d with %v; want %v", n, got, want)
	}
	var reasons []string
	cancel := r.Subscribe(func(c cerebellum.Change) { reasons = append(reasons, c.Reason) })
	defer cancel()
	if err := manage.New(r, manage.Options{}).SetSetting("runner", "allowedHosts", " a.com, b.org "); err != nil {
		t.Fatal(err)
	}
	call()
	n, got = l.last()
	want["allowedHosts"] = "a.com,b.org"
	if n != 2 || !maps.Equal(got, want) {
		t.Fatalf("load after the change %d with %v; want 2 with %v", n, got, want)
	}
	if err := manage.New(r, manage.Options{}).ResetSetting("runner", "allowedHosts"); err != nil {
		t.Fatal(err)
	}
	call()
	n, got = l.last()
	want["allowedHosts"] = "*"
	if n != 3 || !maps.Equal(got, want) {
		t.Fatalf("load after the reset %d with %v; want 3 with %v", n, got, want)
	}
	if strings.Join(reasons, ",") != "settings,settings" {
		t.Errorf("changes reported: %v", reasons)
	}
}

// A stored value the declaration no longer allows is shown with the
// problem and not handed to the plugin.
func TestStaleStoredSettingFallsBackToDefault(t *testing.T) {
	store := &cerebellum.MemorySettings{}
	store.SetCapSetting("runner", "mode", "turbo")
	r, l := openSettings(t, store)
	vals, _ := r.Settings("runner")
	var mode cerebellum.SettingValue
	for _, v := range vals {
		if v.Key == "mode" {
			mode = v
		}
	}
	if !mode.Set || mode.Value != "fast" || !strings.Contains(mode.Problem, `"turbo" is no longer valid`) {
		t.Errorf("stale value: %+v", mode)
	}
	r.Call(context.Background(), nil, "runner_go", nil)
	if _, got := l.last(); got["mode"] != "fast" {
		t.Errorf("plugin got mode %q; want the default", got["mode"])
	}
}
