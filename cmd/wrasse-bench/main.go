// Command wrasse-bench measures Wrasse against its performance targets and
// prints one table in which every figure stands beside its baseline,
// measured in the same run. See docs/performance.md.
//
//	wrasse-bench [all] [--short] [--json | --markdown] [--only SECTIONS]
//	wrasse-bench search --tools FILE --queries FILE [--k 5] [--json]
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/wrasse-app/wrasse/cmd/wrasse-bench/internal/bench"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := bench.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}
