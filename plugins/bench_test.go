package plugins

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	wordcount "github.com/wrasse-app/wrasse/plugins/example/wordcount/plugin"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// BenchmarkLoad times a first interpretation: fresh interpreter, compile,
// Init, tool check (the library catalog is built once per Host).
func BenchmarkLoad(b *testing.B) {
	type target struct {
		name string
		c    *cerebellum.Capability
		req  func(*cerebellum.Capability) cerebellum.LoadRequest
	}
	untrusted := func(c *cerebellum.Capability) cerebellum.LoadRequest { return request(c, false) }
	trusted := func(c *cerebellum.Capability) cerebellum.LoadRequest { return request(c, true) }
	targets := []target{
		{"fixture/good", fixture(b, "good"), untrusted},
		{"fixture/timeout", fixture(b, "timeout"), untrusted},
		{"example/wordcount", capabilityAt(b, "example/wordcount"), untrusted},
	}
	for _, c := range builtinPlugins(b) {
		targets = append(targets, target{"builtin/" + c.Name, c, trusted})
	}
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			h := NewHost(Options{Logger: discard()})
			req := tg.req(tg.c)
			req.Workspace = os.TempDir()
			rt, err := h.Load(context.Background(), req) // warm the catalog
			if err != nil {
				b.Fatal(err)
			}
			rt.Close()
			b.ReportAllocs()
			for b.Loop() {
				rt, err := h.Load(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				rt.Close()
			}
		})
	}
}

var wordArgs = json.RawMessage(`{"text":"the cat and the hat","top":2}`)

// BenchmarkCallInterpreted is one count_words call through the host: the
// per-call overhead target for host plus interpreter is 50 µs.
func BenchmarkCallInterpreted(b *testing.B) {
	rt, err := NewHost(Options{Logger: discard()}).Load(context.Background(), request(capabilityAt(b, "example/wordcount"), false))
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res, err := rt.Call(ctx, "count_words", wordArgs); err != nil || res.IsError {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkCallNative is the same handler compiled, without the host.
func BenchmarkCallNative(b *testing.B) {
	p, err := wordcount.Init(&sdk.Env{})
	if err != nil {
		b.Fatal(err)
	}
	h := p.Handler("count_words")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		req, err := sdk.NewRequest("count_words", wordArgs)
		if err != nil {
			b.Fatal(err)
		}
		res, err := h(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(res.JSON); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallTrivial is the host's fixed cost: an echo through Call.
func BenchmarkCallTrivial(b *testing.B) {
	rt, err := NewHost(Options{Logger: discard()}).Load(context.Background(), request(fixture(b, "good"), false))
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close()
	ctx := context.Background()
	args := json.RawMessage(`{"text":"hi"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rt.Call(ctx, "echo", args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChildStart is a load in a plugin process: start the process,
// check and compile the plugin there, run Init; then close it.
func BenchmarkChildStart(b *testing.B) {
	h := NewHost(Options{Logger: discard(), Child: childArgv(childArg)})
	req := request(fixture(b, "good"), false)
	b.ReportAllocs()
	for b.Loop() {
		rt, err := h.Load(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		if err := rt.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallChild is the fixed cost of a call to a plugin process: an
// echo across the pipe and back (compare BenchmarkCallTrivial).
func BenchmarkCallChild(b *testing.B) {
	rt, err := NewHost(Options{Logger: discard(), Child: childArgv(childArg)}).Load(context.Background(), request(fixture(b, "good"), false))
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close()
	ctx := context.Background()
	args := json.RawMessage(`{"text":"hi"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rt.Call(ctx, "echo", args); err != nil {
			b.Fatal(err)
		}
	}
}
