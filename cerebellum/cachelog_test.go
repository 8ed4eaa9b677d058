package cerebellum

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// cacheProcess is what one process does to the cache log between open and
// exit: its changes to the model, made by put and then saved once (a scan
// saves once), or kill, which leaves the last record torn as a process
// killed mid-append would.
type cacheProcess struct {
	change func(run int, model map[string][]byte)
	kill   bool
}

// bigValue is a value the size of a capability's entry, different per run
// as a re-read entry's (its stat time changes).
func bigValue(run, i int) []byte {
	return append([]byte(fmt.Sprintf("run %d entry %d ", run, i)), bytes.Repeat([]byte{'x'}, 3000)...)
}

func reStoreBig(run int, model map[string][]byte) {
	for i := range 200 {
		model[fmt.Sprintf("cap/%04d", i)] = bigValue(run, i)
	}
}

// TestCacheLogStaysBoundedOverEarlyExits: however short-lived the processes
// (each opens the log, re-stores what it read and ends: a window closed at
// its first frame, a CLI command on a workspace edited in the last
// seconds), the file holds about twice its live records at most, and what
// a reopened log holds is what was last stored.
func TestCacheLogStaysBoundedOverEarlyExits(t *testing.T) {
	smallLive := func(run int, model map[string][]byte) {
		if run == 0 {
			// Many small live records (logged failures) once inflated a
			// bound counted in records, letting the big ones triple.
			for i := range 400 {
				model[fmt.Sprintf("fail/%04d", i)] = []byte("manifest: missing plugin")
			}
		}
		reStoreBig(run, model)
	}
	shrink := func(run int, model map[string][]byte) {
		if run == 0 {
			reStoreBig(run, model)
			return
		}
		// Most entries go; the file must not keep their bytes.
		for i := 20; i < 200; i++ {
			delete(model, fmt.Sprintf("cap/%04d", i))
		}
		model[fmt.Sprintf("cap/%04d", run%20)] = bigValue(run, run%20)
	}
	tests := []struct {
		name  string
		procs []cacheProcess
	}{
		{"re-stores with many small live records", repeatProcs(cacheProcess{change: smallLive}, 12)},
		{"re-stores only", repeatProcs(cacheProcess{change: reStoreBig}, 12)},
		{"killed mid-append every other run", alternate(cacheProcess{change: smallLive}, cacheProcess{change: smallLive, kill: true}, 12)},
		{"most entries deleted", repeatProcs(cacheProcess{change: shrink}, 6)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "manifests.json")
			model := map[string][]byte{}
			for run, p := range tt.procs {
				l := openCacheLog(path, "v1")
				if !sameLog(l, model) {
					t.Fatalf("run %d: the reopened log differs from what was stored", run)
				}
				next := make(map[string][]byte, len(model))
				for k, v := range model {
					next[k] = v
				}
				p.change(run, next)
				for k := range model {
					if _, ok := next[k]; !ok {
						l.put(k, nil)
					}
				}
				for k, v := range next {
					l.put(k, v)
				}
				if err := l.save(); err != nil {
					t.Fatalf("run %d: %v", run, err)
				}
				model = next
				if p.kill {
					// The last record's tail never reached the file; the
					// next open ignores that record, so the model loses it.
					tearLastRecord(t, path, model)
				}
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				live := int64(len(l.header))
				for k, v := range model {
					live += cacheRecordSize(k, v)
				}
				if limit := 2*live + cacheSlackBytes + cacheRecordSize("cap/0000", bigValue(run, 0)); fi.Size() > limit {
					t.Fatalf("run %d: file %d bytes for %d live bytes (limit %d): not compacted", run, fi.Size(), live, limit)
				}
			}
		})
	}
}

func repeatProcs(p cacheProcess, n int) []cacheProcess {
	out := make([]cacheProcess, n)
	for i := range out {
		out[i] = p
	}
	return out
}

func alternate(a, b cacheProcess, n int) []cacheProcess {
	out := make([]cacheProcess, n)
	for i := range out {
		out[i] = a
		if i%2 == 1 {
			out[i] = b
		}
	}
	return out
}

func sameLog(l *cacheLog, model map[string][]byte) bool {
	if len(l.keys("")) != len(model) {
		return false
	}
	for k, v := range model {
		if !bytes.Equal(l.get(k), v) {
			return false
		}
	}
	return true
}

// tearLastRecord cuts the file inside its last record and drops that
// record's key from model, restoring what the record replaced if an
// earlier complete record of the key survives.
func tearLastRecord(t *testing.T, path string, model map[string][]byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)-5], 0o600); err != nil {
		t.Fatal(err)
	}
	// Whatever the torn file now says is the truth a reopen must give:
	// rebuild the model from a parse that stops at the torn record, as
	// openCacheLog does, checked independently of it by key count.
	got := openCacheLog(path, "v1")
	if !got.rewrite {
		t.Fatal("a torn tail was not noticed")
	}
	missing := 0
	for k := range model {
		if got.get(k) == nil {
			missing++
		}
	}
	if missing > 1 {
		t.Fatalf("tearing one record lost %d keys", missing)
	}
	clear(model)
	for _, k := range got.keys("") {
		model[k] = got.get(k)
	}
}

// TestCacheLogCompactsAFileLeftMostlyDead: a file already mostly dead
// records when opened (written under an older policy, or by processes that
// all ended before compacting) is rewritten by the first save, even one
// with nothing to change; a compact file is left alone.
func TestCacheLogCompactsAFileLeftMostlyDead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "manifests.json")
	l := openCacheLog(path, "v1")
	for i := range 50 {
		l.put(fmt.Sprintf("cap/%d", i), bigValue(0, i))
	}
	if err := l.save(); err != nil {
		t.Fatal(err)
	}
	compact, _ := os.ReadFile(path)
	// Append two dead generations by hand, as no save of this policy would.
	var buf bytes.Buffer
	for run := 1; run <= 3; run++ {
		for i := range 50 {
			v := bigValue(0, i)
			if run < 3 {
				v = bigValue(run, i)
			}
			appendRecord(&buf, fmt.Sprintf("cap/%d", i), v)
		}
	}
	if err := os.WriteFile(path, append(compact[:len(compact):len(compact)], buf.Bytes()...), 0o600); err != nil {
		t.Fatal(err)
	}
	r := openCacheLog(path, "v1")
	if !r.rewrite {
		t.Fatal("a file three-quarters dead was not marked for rewriting")
	}
	if err := r.save(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got, compact) {
		t.Fatalf("after the save the file is %d bytes; want the compact %d", len(got), len(compact))
	}
	if again := openCacheLog(path, "v1"); again.rewrite {
		t.Fatal("a compact file was marked for rewriting")
	}
	if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*")); len(leftovers) != 0 {
		t.Fatalf("the rewrite left temporary files: %v", leftovers)
	}
}
