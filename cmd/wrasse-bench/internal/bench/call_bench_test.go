package bench

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
)

// callRegistry opens a registry on a workspace holding one trivial plugin
// and returns it with the plugin's first tool.
func callRegistry(tb testing.TB) (*cerebellum.Registry, string) {
	tb.Helper()
	c, err := trivialCapability(1)
	if err != nil {
		tb.Fatal(err)
	}
	ws, err := writeWorkspace(filepath.Join(tb.TempDir(), "ws"), []captest.Capability{c})
	if err != nil {
		tb.Fatal(err)
	}
	reg, err := openRegistryWith(nil, ws, newHost())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { reg.Close() })
	cp, err := reg.Get(c.Name)
	if err != nil || !cp.Usable() {
		tb.Fatalf("%s: %v %s", c.Name, err, cp.Error)
	}
	return reg, cp.Tools()[0].Name
}

// BenchmarkCallInterpreted is one trivial tool call through the registry
// (validation) and the plugin host (interpreted handler under its guard).
func BenchmarkCallInterpreted(b *testing.B) {
	reg, tool := callRegistry(b)
	sess := reg.NewSession("bench", nil)
	ctx := context.Background()
	if _, err := reg.Call(ctx, sess, tool, callArgs); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Call(ctx, sess, tool, callArgs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallNativeRegistry is the same call with the handler compiled
// in and served as a native runtime: the registry's share alone.
func BenchmarkCallNativeRegistry(b *testing.B) {
	c, err := trivialCapability(1)
	if err != nil {
		b.Fatal(err)
	}
	reg, _, err := nativeRegistry(c)
	if err != nil {
		b.Fatal(err)
	}
	defer reg.Close()
	cp, err := reg.Get(c.Name)
	if err != nil || !cp.Usable() {
		b.Fatalf("%s: %v %s", c.Name, err, cp.Error)
	}
	tool := cp.Tools()[0].Name
	sess := reg.NewSession("bench", nil)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Call(ctx, sess, tool, callArgs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallNative is the handler compiled in, called directly.
func BenchmarkCallNative(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := nativeRuntime.Call(ctx, "t", callArgs); err != nil {
			b.Fatal(err)
		}
	}
}
