package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// BenchmarkInnerCall measures one inner call's round trip from a program
// to the parent and back, without the agent: the slope between programs of
// 1 and 1+b.N calls, in a child process and in process.
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
			nop := func(ctx context.Context, tool string, args json.RawMessage) (string, error) { return "2*21 = 42", nil }
			run := func(k int) time.Duration {
				src := fmt.Sprintf("package main\n\nfunc main() {\n\tfor i := 0; i < %d; i++ {\n\t\tarchive_size(ArchiveSizeArgs{Name: \"x\"})\n\t}\n}\n", k)
				start := time.Now()
				if _, err := r.Run(context.Background(), Program{Source: src, Tools: testTools}, nop); err != nil {
					b.Fatal(err)
				}
				return time.Since(start)
			}
			base := run(1)
			b.ResetTimer()
			d := run(1 + b.N)
			b.StopTimer()
			b.ReportMetric(float64(d-base)/float64(b.N)/1e3, "µs/call")
		})
	}
}
