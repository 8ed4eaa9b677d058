package plugins

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Code that never yields, in every shape a hostile plugin might try, is
// stopped by the plugin process itself at its deadline ("the plugin was
// stopped"), never by the host after its slack ("did not answer"), in a
// process whose serving goroutine is locked to its thread as in wrasse
// (session 5 attack review, s5-A).
func TestChildStopsEveryLoopShapeAttack5(t *testing.T) {
	shapes := []struct{ name, imports, body string }{
		{"empty for", "", `for {
	}`},
		{"goto", "", `i := 0
L:
	i++
	goto L`},
		{"counting for", "", `s := 0
	for i := 0; ; i++ {
		s += i
	}`},
		{"recursion", "", `var f func(int) int
	f = func(n int) int {
		if n < 0 {
			return 0
		}
		return f(n+1) + 1
	}
	return sdk.Textf("%d", f(0)), nil`},
		{"select {}", "", `select {}`},
		{"own channel", "", `c := make(chan int)
	<-c
	return nil, nil`},
		{"sdk in a loop", "", `for {
		_ = sdk.Text("x")
		_ = req.String("a", "b")
	}`},
		{"sort in a loop", `"sort"`, `for {
		x := make([]int, 1<<16)
		for i := range x {
			x[i] = len(x) - i
		}
		sort.Ints(x)
	}`},
		{"closure loop", "", `f := func() {}
	for {
		f()
	}`},
		{"callback loop", "", `each := func(f func(int)) {
		for i := 0; ; i++ {
			f(i)
		}
	}
	n := 0
	each(func(v int) { n += v })
	return nil, nil`},
		{"recovered panics", "", `for {
		func() {
			defer func() { _ = recover() }()
			panic("again")
		}()
	}`},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			c := inline(t, oneTool, map[string]string{"main.go": wrap(sh.imports, sh.body)})
			c.Manifest.Tools[0].Timeout = 50 * time.Millisecond
			rt, err := childTestHost(&recorder{}, childArg).Load(t.Context(), request(c, false))
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			_, err = rt.Call(t.Context(), "run", nil)
			if !errors.Is(err, ErrPluginTimeout) && !errors.Is(err, ErrPluginCrashed) {
				t.Fatalf("%v; want it stopped", err)
			}
			if err != nil && strings.Contains(err.Error(), "did not answer") {
				t.Fatalf("%v; the plugin process did not stop the call itself", err)
			}
		})
	}
}
