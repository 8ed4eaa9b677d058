package settings

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

func TestDependentPageStates(t *testing.T) {
	tests := []struct {
		name string
		// page builds the page under test after prepare changed the core.
		fixture  string
		capName  string
		prepare  func(t *testing.T, h *harness)
		want     depState
		headline string
		failure  string
	}{
		// shell is a core capability, which the engine keeps on; web is the
		// real page that can be switched off.
		{name: "switched off", capName: webName,
			prepare: func(t *testing.T, h *harness) {
				if err := h.core.Disable(webName); err != nil {
					t.Fatal(err)
				}
			},
			want: depOff, headline: "The web capability is switched off"},
		{name: "missing", fixture: "hello", capName: "hello",
			prepare: func(t *testing.T, h *harness) {
				if err := h.core.Remove(context.Background(), "hello"); err != nil {
					t.Fatal(err)
				}
			},
			want: depMissing, headline: "The hello capability is missing"},
		{name: "failed to load", fixture: "badmanifest", capName: "badmanifest",
			want: depFailed, headline: "The badmanifest capability failed to load: badmanifest/SKILL.md:8:13",
			failure: "type: objekt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(ws string) {
				if tt.fixture != "" {
					copyFixture(t, tt.fixture, filepath.Join(ws, "brain", "cerebellum"))
				}
			})
			p := h.s.web
			if tt.capName != webName {
				// A page like Web's, depending on the fixture.
				p = newDependentPage(h.s.env, tt.capName, "test page", []fieldSpec{{Key: "k", Label: "K"}}, h.s.Show)
				h.win.SetContent(p.Object())
			} else {
				h.s.Show(hint.PageCapability, webName)
			}
			if p.State() != depOK && tt.prepare != nil {
				t.Fatalf("before: state %d", p.State())
			}
			if tt.prepare != nil {
				tt.prepare(t, h)
				if tt.capName != webName {
					p.Refresh() // the view's pages refresh from events; this one is ours
				}
			}
			if p.State() != tt.want {
				t.Errorf("state = %d, want %d", p.State(), tt.want)
			}
			if !strings.HasPrefix(p.Headline(), tt.headline) {
				t.Errorf("headline = %q, want %q…", p.Headline(), tt.headline)
			}
			if !p.Inert() {
				t.Error("controls are live")
			}
			for _, f := range p.fields {
				if (f.entry != nil && !f.entry.Disabled()) || (f.check != nil && !f.check.Disabled()) {
					t.Errorf("field %s is live", f.spec.Key)
				}
			}
			if tt.want == depOff {
				// Switched off, the page still says what the values are.
				for _, f := range p.fields {
					if f.spec.Key == "allowedHosts" && f.get() != "*" {
						t.Errorf("allowedHosts shows %q while switched off, want its value *", f.get())
					}
				}
			}
			if tt.failure != "" && (!p.failure.Visible() || !strings.Contains(p.failure.Text(), tt.failure)) {
				t.Errorf("failure block %v: %q", p.failure.Visible(), p.failure.Text())
			}
			if tt.failure == "" && p.failure.Visible() {
				t.Error("a failure block without a failure")
			}
			h.tap("Open " + tt.capName + " on the Capabilities page")
			if h.s.tabs.Selected().Text != "Capabilities" {
				t.Errorf("the button shows %s", h.s.tabs.Selected().Text)
			}
		})
	}
}

// Switching the capability back on wakes the page up through the core's
// events.
func TestDependentPageFollowsEvents(t *testing.T) {
	h := newHarness(t, nil)
	if err := h.core.Disable(webName); err != nil {
		t.Fatal(err)
	}
	if h.s.web.State() != depOff || h.s.shell.State() != depOK {
		t.Fatalf("states: web %d, shell %d", h.s.web.State(), h.s.shell.State())
	}
	if err := h.core.Enable(webName, nil); err != nil {
		t.Fatal(err)
	}
	if h.s.web.State() != depOK || h.s.web.Headline() != "" {
		t.Errorf("after enabling: state %d, headline %q", h.s.web.State(), h.s.web.Headline())
	}
}

func TestSplitList(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"a.com\nb.org", "a.com,b.org"},
		{" a.com , \n\n b.org,", "a.com,b.org"},
	} {
		if got := strings.Join(splitList(tt.in), ","); got != tt.want {
			t.Errorf("splitList(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// With the capability working, the page edits its settings in the core;
// the core's validation errors show under the field.
func TestDependentPageSavesSettings(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageCapability, shellName)
	p := h.s.shell
	if p.Inert() || p.Headline() != "" {
		t.Fatalf("shell page inert %v, headline %q", p.Inert(), p.Headline())
	}
	value := func(name, key string) string {
		vals, err := h.core.Settings(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			if v.Key == key {
				return v.Value
			}
		}
		t.Fatalf("%s declares no %s", name, key)
		return ""
	}
	field := func(p *dependentPage, key string) *depField {
		for _, f := range p.fields {
			if f.spec.Key == key {
				return f
			}
		}
		t.Fatalf("no field %s", key)
		return nil
	}
	timeout := field(p, "timeout")
	if timeout.entry.Text != shortDuration(value(shellName, "timeout")) {
		t.Errorf("timeout shows %q, core has %q", timeout.entry.Text, value(shellName, "timeout"))
	}
	timeout.entry.SetText("forever")
	h.tap("Save")
	if !timeout.err.Visible() || timeout.err.Text == "" {
		t.Error("an invalid timeout shows no error")
	}
	timeout.entry.SetText("5m")
	network := field(p, "network")
	network.check.SetChecked(!network.check.Checked)
	want := strconv.FormatBool(network.check.Checked)
	h.tap("Save")
	if timeout.err.Visible() {
		t.Errorf("error stays: %q", timeout.err.Text)
	}
	if got := value(shellName, "timeout"); got != "5m" && got != "5m0s" {
		t.Errorf("timeout in the core = %q", got)
	}
	if got := value(shellName, "network"); got != want {
		t.Errorf("network in the core = %q, want %q", got, want)
	}

	h.s.Show(hint.PageCapability, webName)
	hosts := field(h.s.web, "allowedHosts")
	hosts.entry.SetText("docs.python.org\n*.example.com\n")
	h.tap("Save")
	if got := value(webName, "allowedHosts"); !strings.Contains(got, "docs.python.org") || !strings.Contains(got, "*.example.com") {
		t.Errorf("allowedHosts in the core = %q (%s)", got, h.s.web.outcome.Text())
	}
}
