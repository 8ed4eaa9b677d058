package bench

import (
	"strings"
	"testing"
)

// The code-mode task runs both ways at a small size (programs in process,
// as a test binary cannot serve the program process) and code mode needs
// fewer round trips and tokens.
func TestCodeModeTask(t *testing.T) {
	r := &runner{tmp: t.TempDir()}
	rows := r.codeModeTask(t.Context(), 5)
	if len(rows) != 2 {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	for _, row := range rows {
		if row.Pass == Broken {
			t.Fatalf("%s: %s", row.Measure, row.Note)
		}
	}
	if rows[0].Number != 2 || !strings.Contains(rows[0].Baseline, "6,") {
		t.Errorf("round trips %v (baseline %s); want 2 against 6", rows[0].Number, rows[0].Baseline)
	}
	if !strings.Contains(rows[1].Value, "fewer") {
		t.Errorf("tokens row %+v", rows[1])
	}
}
