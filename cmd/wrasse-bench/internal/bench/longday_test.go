package bench

import (
	"context"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/store"
)

func TestParseStatCPU(t *testing.T) {
	tests := []struct {
		name, stat string
		want       time.Duration
		ok         bool
	}{
		{"plain", "4242 (wrasse) S 1 4242 4242 0 -1 4194560 5000 0 0 0 150 25 0 0 20 0 12 0 100 0 0", 1750 * time.Millisecond, true},
		{"a name with spaces and parentheses", "7 (a (b) c) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0", 70 * time.Millisecond, true},
		{"no name", "4242 S 1", 0, false},
		{"too short", "1 (x) S 1 2 3", 0, false},
		{"not numbers", "1 (x) S 1 1 1 0 -1 0 0 0 0 0 u s 0 0", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseStatCPU(tc.stat)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("parseStatCPU = %v, %v; want %v (ok %v)", got, err, tc.want, tc.ok)
			}
		})
	}
}

// BenchmarkLongDayTurns is the long-day section's per-turn rows as a Go
// benchmark: each op is turn dayEarly of a new conversation and then turn
// dayTurns of one long conversation (see earlyAndLate; the long one is
// brought to its turn before the timer). It reports the median wall and
// CPU time of each and their ratio (target: ms-late/ms-early ≤ 1.3).
func BenchmarkLongDayTurns(b *testing.B) {
	srv, err := newDayServer()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	d, closeApp, err := openDayRun(filepath.Join(b.TempDir(), "longday"), srv.url)
	if err != nil {
		b.Fatal(err)
	}
	defer closeApp()
	srv.deferCheck, d.srv = true, srv
	ctx := context.Background()
	var long store.ID
	for i := 1; i < dayTurns; i++ {
		if long, _, err = d.turn(ctx, long, i); err != nil {
			b.Fatal(err)
		}
	}
	var es, ls turnSamples
	n := dayTurns
	for b.Loop() {
		var fresh store.ID
		var s turnSample
		for i := 1; i < dayEarly; i++ {
			if fresh, s, err = d.turn(ctx, fresh, i); err != nil {
				b.Fatal(err)
			}
		}
		// The sampled turns are labelled, so a CPU profile of the
		// benchmark can be narrowed to each (go tool pprof -tagfocus
		// turn=late, turn=early) and the two compared.
		pprof.Do(ctx, pprof.Labels("turn", "early"), func(ctx context.Context) {
			fresh, s, err = d.turn(ctx, fresh, dayEarly)
		})
		if err != nil {
			b.Fatal(err)
		}
		es = append(es, s)
		pprof.Do(ctx, pprof.Labels("turn", "late"), func(ctx context.Context) {
			_, s, err = d.turn(ctx, long, n)
		})
		if err != nil {
			b.Fatal(err)
		}
		n++
		ls = append(ls, s)
	}
	ew, ec, ea := es.medians()
	lw, lc, la := ls.medians()
	b.ReportMetric(float64(ew)/1e6, "ms-turn10")
	b.ReportMetric(float64(lw)/1e6, "ms-turn300")
	b.ReportMetric(float64(lw)/float64(ew), "late/early")
	b.ReportMetric(float64(ec)/1e6, "cpu-ms-turn10")
	b.ReportMetric(float64(lc)/1e6, "cpu-ms-turn300")
	b.ReportMetric(float64(ea), "allocs-turn10")
	b.ReportMetric(float64(la), "allocs-turn300")
	b.ReportMetric(float64(es.medianBytes())/1e3, "kB-turn10")
	b.ReportMetric(float64(ls.medianBytes())/1e3, "kB-turn300")
	b.ReportMetric(es.gcRate(), "gcs/turn10")
	b.ReportMetric(ls.gcRate(), "gcs/turn300")
}

// The window counts as idle once its use over the last span is back at its
// idle rate, however bursty that use is: a blink's repaint every half
// second must not restart the wait.
func TestQuietSpan(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const step = 100 * time.Millisecond
	tests := []struct {
		name string
		// per is the CPU used in each 100 ms step, repeated.
		per  []time.Duration
		n    int
		want int // the reading at which it is quiet, -1 never
	}{
		{"idle from the start", []time.Duration{8 * time.Millisecond}, 40, 20},
		{"bursts of an idle window's repaint", []time.Duration{40 * time.Millisecond, 0, 0, 0, 0}, 60, 20},
		{"busy, then idle", append(slices.Repeat([]time.Duration{100 * time.Millisecond}, 30), slices.Repeat([]time.Duration{8 * time.Millisecond}, 100)...), 100, 50},
		{"never idle", []time.Duration{30 * time.Millisecond}, 100, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := quietSpan{base: 0.08, margin: 0.03, quiet: 2 * time.Second}
			var cpu time.Duration
			got := -1
			for i := range tc.n {
				if q.add(t0.Add(time.Duration(i)*step), cpu) {
					got = i
					break
				}
				cpu += tc.per[i%len(tc.per)]
			}
			if got != tc.want {
				t.Errorf("quiet at reading %d, want %d", got, tc.want)
			}
		})
	}
}

// The memory rows take the median of their readings, so one reading off
// the others moves nothing.
func TestMedianResident(t *testing.T) {
	r := func(anon int) residentSet { return residentSet{anon: anon, total: anon + 1} }
	tests := []struct {
		name  string
		reads []residentSet
		want  int
	}{
		{"none", nil, 0},
		{"one", []residentSet{r(7)}, 7},
		{"a low one", []residentSet{r(130), r(125), r(131)}, 130},
		{"a high one", []residentSet{r(130), r(140), r(129)}, 130},
		{"even count: the upper", []residentSet{r(2), r(1)}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := medianResident(tc.reads)
			if got.anon != tc.want || (tc.want != 0 && got.total != tc.want+1) {
				t.Errorf("medianResident = %+v, want the reading of %d", got, tc.want)
			}
		})
	}
}
