package plugins

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// BenchmarkChildOverhead is what a plugin process adds to a call (issue
// 14's target: ≤ 40 µs): the same echo of the same plugin in process and
// in its own process, in alternating blocks of calls so that both see the
// same load. It reports each block's median per call (inproc-ns/call,
// child-ns/call) and the median of the blocks' differences
// (overhead-ns/call), which a busy machine disturbs far less than
// comparing two separate runs.
func BenchmarkChildOverhead(b *testing.B) {
	load := func(child bool) cerebellum.Runtime {
		opts := Options{Logger: discard()}
		if child {
			opts.Child = childArgv(childArg)
		}
		rt, err := NewHost(opts).Load(context.Background(), request(fixture(b, "good"), false))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { rt.Close() })
		return rt
	}
	inProc, child := load(false), load(true)
	ctx := context.Background()
	args := json.RawMessage(`{"text":"hi"}`)
	const block = 50
	timeBlock := func(rt cerebellum.Runtime) float64 {
		began := time.Now()
		for range block {
			if res, err := rt.Call(ctx, "echo", args); err != nil || res.Content != "hi" {
				b.Fatal(res, err)
			}
		}
		return float64(time.Since(began).Nanoseconds()) / block
	}
	timeBlock(inProc) // warm both
	timeBlock(child)
	var in, out, over []float64
	b.ResetTimer()
	for i := 0; i < b.N; i += 2 * block {
		a, c := timeBlock(inProc), timeBlock(child)
		in, out, over = append(in, a), append(out, c), append(over, c-a)
	}
	b.StopTimer()
	b.ReportMetric(median(in), "inproc-ns/call")
	b.ReportMetric(median(out), "child-ns/call")
	b.ReportMetric(median(over), "overhead-ns/call")
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
