package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/wrasse-app/wrasse/plugins"
)

// callFunc carries one inner call to whoever answers it.
type callFunc func(ctx context.Context, tool string, args json.RawMessage) (string, error)

// noDeadline is the interpreter guard's own bound: the program's deadline
// is a clock that stops while an inner call runs (clock), so that waiting
// for the user's approval does not use the program's time up.
const noDeadline = 24 * time.Hour

// execute checks and interprets one program and returns its done message.
// It is the same in a child process and in process.
func execute(ctx context.Context, h *plugins.Host, req *message, call callFunc, log *slog.Logger) *message {
	done := &message{Op: opDone, ID: req.ID}
	if err := h.CheckProgram([]byte(req.Checked)); err != nil {
		done.Err = toWire(fmt.Errorf("%w:\n%w", ErrRefused, err))
		return done
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	out := &capWriter{max: req.MaxOutput, full: func() { cancel(errOutput) }}
	clock := startClock(req.Timeout, func() { cancel(errDeadline) })
	defer clock.stop()
	calls := 0
	bridge := func(tool string, args any) (string, error) {
		clock.pause()
		defer clock.resume()
		if req.MaxCalls > 0 && calls >= req.MaxCalls {
			return "", fmt.Errorf("%s: not run: a program may make at most %d calls; do the rest in another program", tool, req.MaxCalls)
		}
		calls++
		raw, err := json.Marshal(args)
		if err != nil {
			return "", fmt.Errorf("the arguments of %s cannot be encoded as JSON: %w", tool, err)
		}
		if len(raw) > maxArgsBytes {
			return "", fmt.Errorf("the arguments of %s are %d bytes; at most %d may be sent", tool, len(raw), maxArgsBytes)
		}
		if string(raw) == "null" {
			raw = json.RawMessage("{}")
		}
		return call(ctx, tool, raw)
	}
	err := h.RunProgram(ctx, plugins.Program{
		Source: []byte(req.Checked), Run: []byte(req.Run), Stdout: out, Timeout: noDeadline, Logger: log,
		Exports: interp.Exports{bridgePath + "/tools": {"Call": reflect.ValueOf(bridge)}},
	})
	done.Text, done.Truncated = out.text()
	done.Calls = calls
	switch {
	case err == nil:
	case errors.Is(context.Cause(ctx), errDeadline):
		done.Err = toWire(fmt.Errorf("%w: it ran longer than %s (time in tool calls not counted) and was stopped; loop less, or split the work", ErrTimeout, req.Timeout))
	case errors.Is(context.Cause(ctx), errOutput):
		done.Err = toWire(fmt.Errorf("%w: it printed more than %d bytes and was stopped; print less (a summary, a count, the first lines)", ErrOutputLimit, req.MaxOutput))
	case errors.Is(err, plugins.ErrPluginPanic):
		done.Err = toWire(fmt.Errorf("%w: %s", ErrPanic, strings.TrimPrefix(err.Error(), plugins.ErrPluginPanic.Error()+": ")))
	case errors.Is(err, plugins.ErrPluginTimeout):
		done.Err = toWire(fmt.Errorf("%w: %s", ErrTimeout, strings.TrimPrefix(err.Error(), plugins.ErrPluginTimeout.Error()+": ")))
	case ctx.Err() != nil:
		done.Err = toWire(fmt.Errorf("%w: %w", ErrStopped, context.Cause(ctx)))
	default:
		done.Err = toWire(fmt.Errorf("%w:\n%w", ErrCompile, err))
	}
	return done
}

// clock is a deadline that stops while paused: expire runs once the
// running time reaches the limit.
type clock struct {
	mu     sync.Mutex
	left   time.Duration
	since  time.Time // when it last resumed
	timer  *time.Timer
	paused bool
}

func startClock(limit time.Duration, expire func()) *clock {
	return &clock{left: limit, since: time.Now(), timer: time.AfterFunc(limit, expire)}
}

func (c *clock) pause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused {
		return
	}
	if c.timer.Stop() {
		c.left -= time.Since(c.since)
	}
	c.paused = true
}

func (c *clock) resume() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.paused {
		return
	}
	c.paused = false
	c.since = time.Now()
	c.timer.Reset(max(c.left, 0))
}

func (c *clock) stop() { c.timer.Stop() }

// capWriter keeps the first max bytes written and calls full once when
// more come.
type capWriter struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	cut     bool
	full    func()
	tripped bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	room := w.max - len(w.buf)
	if room >= len(p) {
		w.buf = append(w.buf, p...)
		w.mu.Unlock()
		return len(p), nil
	}
	if room > 0 {
		w.buf = append(w.buf, p[:room]...)
	}
	w.cut = true
	trip := !w.tripped
	w.tripped = true
	w.mu.Unlock()
	if trip {
		w.full()
	}
	return 0, errOutput
}

func (w *capWriter) text() (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf), w.cut
}
