package settings

import (
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// The detail panel follows the filter: the capability it shows stays while
// the list holds it; filtered out, the panel shows the one capability left
// or asks for a selection, never the capability nobody can see.
func TestCapabilityDetailFollowsTheFilter(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageCapabilities, "")
	p := h.s.caps
	// A query that lists exactly one capability other than calc.
	only := ""
	for _, c := range p.all {
		if c.Name == "calc" {
			continue
		}
		p.filter.SetText(c.Name)
		if len(p.shown) == 1 {
			only = c.Name
			break
		}
	}
	if only == "" {
		t.Fatal("no capability name matches that capability alone")
	}
	// A query that lists several, calc not among them.
	several := "guide"

	tests := []struct {
		name, filter string
		detail       string // the capability shown; "" for the empty panel
		empty        string // what the empty panel says
	}{
		{name: "calc still listed", filter: "calc", detail: "calc"},
		{name: "another capability alone", filter: only, detail: only},
		{name: "several, calc hidden", filter: several, empty: selectCapability},
		{name: "nothing matches", filter: "zzz-no-such", empty: "No capability matches “zzz-no-such”."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p.filter.SetText("")
			p.Reveal("calc")
			if p.detail.Name() != "calc" {
				t.Fatalf("Reveal(calc) shows %q", p.detail.Name())
			}
			p.filter.SetText(tt.filter)
			if got := p.detail.Name(); got != tt.detail {
				t.Fatalf("filter %q: the detail shows %q, want %q", tt.filter, got, tt.detail)
			}
			if tt.detail != "" {
				if !strings.Contains(h.screenText(), tt.detail) || p.index(tt.detail) < 0 {
					t.Errorf("filter %q: %s is not in the list beside its detail", tt.filter, tt.detail)
				}
				return
			}
			if got := p.detail.Empty(); got != tt.empty {
				t.Errorf("filter %q: the empty panel says %q, want %q", tt.filter, got, tt.empty)
			}
			if strings.Contains(h.screenText(), "calc\n") {
				t.Errorf("filter %q: calc still shows:\n%s", tt.filter, h.screenText())
			}
		})
	}
}
