package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// BenchmarkInnerCall measures one inner call's trip from a program to the
// parent and back, without the agent (the parent answers at once), timed
// by the program itself so the process's start is not in it: in a child
// process, as in the app, and in process.
func BenchmarkInnerCall(b *testing.B) {
	for _, child := range []bool{false, true} {
		name := "in-process"
		if child {
			name = "child"
		}
		b.Run(name, func(b *testing.B) {
			r := &Runner{Timeout: time.Minute}
			if child {
				r = childRunner(time.Minute)
			}
			r.MaxCalls = b.N
			nop := func(ctx context.Context, tool string, args json.RawMessage) (string, error) { return "2*21 = 42", nil }
			src := fmt.Sprintf("package main\n\nimport \"time\"\n\nfunc main() {\n\tstart := time.Now()\n\tfor i := 0; i < %d; i++ {\n\t\tarchive_size(ArchiveSizeArgs{Name: \"x\"})\n\t}\n\tfmt.Println(time.Since(start).Nanoseconds())\n}\n", b.N)
			b.ResetTimer()
			res, err := r.Run(context.Background(), Program{Source: src, Tools: testTools}, nop)
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			var ns int64
			if _, err := fmt.Sscan(res.Output, &ns); err != nil {
				b.Fatalf("output %q: %v", res.Output, err)
			}
			b.ReportMetric(float64(ns)/float64(b.N)/1e3, "µs/call")
		})
	}
}
