package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// A program process refuses a run request from a parent speaking another
// protocol version before it runs anything, and the parent reports it as
// the run's error, saying what to do.
func TestChildRefusesOtherProtocolVersion(t *testing.T) {
	r := childRunner(time.Minute)
	never := func(context.Context, string, json.RawMessage) (string, error) {
		t.Error("an inner call ran")
		return "", nil
	}
	src := "package main\n\nfunc main() { println(\"ran\") }\n"
	for _, v := range []int{childproc.Version + 1, 0} {
		req := &message{Op: opRun, ID: 1, Version: v, Checked: src, Run: src, Timeout: time.Minute, MaxOutput: 1 << 10, MaxCalls: 1}
		res, err := r.inChild(t.Context(), req, never)
		if !errors.Is(err, ErrVersion) || !strings.Contains(err.Error(), "restart Wrasse") || res.Output != "" {
			t.Errorf("version %d: %+v, %v; want ErrVersion saying to restart Wrasse, nothing run", v, res, err)
		}
	}
}
