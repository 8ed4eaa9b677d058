// Package crash is a plugin fixture whose tools cause faults the Go
// runtime cannot recover from. The host must run it out of process.
package crash

import (
	"context"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

var calls int

// trick is a context whose Done works for the two calls context.WithCancel
// makes on the caller's goroutine and panics on the third, which the
// library makes on a goroutine of its own.
type trick struct{ n *int }

func (t trick) Deadline() (time.Time, bool) { return time.Time{}, false }
func (t trick) Err() error                  { return nil }
func (t trick) Value(key any) any           { return nil }
func (t trick) Done() <-chan struct{} {
	*t.n++
	if *t.n > 2 {
		panic("Done called on the library's goroutine")
	}
	return make(chan struct{})
}

func deep(n int) int { return deep(n+1) + 1 }

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("unlock", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		var mu sync.Mutex
		mu.Unlock()
		return sdk.Text("unlocked"), nil
	})
	p.Handle("context_trick", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		n := 0
		derived, cancel := context.WithCancel(trick{&n})
		defer cancel()
		select {
		case <-derived.Done():
		case <-ctx.Done():
		}
		return sdk.Text("survived"), nil
	})
	p.Handle("recurse", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Textf("%d", deep(0)), nil
	})
	p.Handle("allocate", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		b := make([]byte, 1<<40)
		b[len(b)-1] = 1
		return sdk.Textf("%d", len(b)), nil
	})
	p.Handle("ok", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		calls++
		return sdk.Textf("ok %d", calls), nil
	})
	return p, nil
}
