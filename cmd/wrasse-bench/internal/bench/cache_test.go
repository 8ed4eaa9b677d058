package bench

import (
	"context"
	"strings"
	"testing"
)

// The cache section measures every provider, meets its target and beats
// the old layout: a regression in the request layout shows here.
func TestCacheSection(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 6 conversations of 45 requests; brain/agent and the providers test the parts")
	}
	r := &runner{cfg: Config{Short: true}, tmp: t.TempDir()}
	rows := r.cacheSection(context.Background())
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	for _, row := range rows {
		if row.Pass != Pass {
			t.Errorf("%s: %s (%s), target %s: %s", row.Measure, row.Value, row.Baseline, row.Target, row.Note)
		}
		if !strings.HasPrefix(row.Baseline, "before issue 16: ") {
			t.Errorf("%s: baseline %q", row.Measure, row.Baseline)
		}
	}
	if rows[0].Number < 95 {
		t.Errorf("deferred tools serve %.1f%%: something before the newest message moves", rows[0].Number)
	}
}
