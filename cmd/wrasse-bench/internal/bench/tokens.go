package bench

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/wrasse-app/wrasse/cerebellum/tokens"
)

// counter counts BPE tokens, spreading long lists over one tokenizer per
// core (a tokens.Counter serialises its callers, and the pure-Go BPE runs
// at about 1 MB/s).
type counter struct {
	name string
	mu   sync.Mutex
	pool []*tokens.Counter
}

func newCounter(encoding string) (*counter, error) {
	c, err := tokens.New(encoding)
	if err != nil {
		return nil, fmt.Errorf("token counter: %w", err)
	}
	return &counter{name: encoding, pool: []*tokens.Counter{c}}, nil
}

// Count counts one text.
func (c *counter) Count(s string) int { return c.pool[0].Count(s) }

// Sum returns the total tokens of texts, counted in parallel.
func (c *counter) Sum(texts []string) (int, error) {
	workers := min(runtime.NumCPU(), max(1, len(texts)/8))
	c.mu.Lock()
	for len(c.pool) < workers {
		t, err := tokens.New(c.name)
		if err != nil {
			c.mu.Unlock()
			return 0, fmt.Errorf("token counter: %w", err)
		}
		c.pool = append(c.pool, t)
	}
	pool := c.pool[:workers]
	c.mu.Unlock()
	sums := make([]int, workers)
	var wg sync.WaitGroup
	for w, t := range pool {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(texts); i += workers {
				sums[w] += t.Count(texts[i])
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, s := range sums {
		total += s
	}
	return total, nil
}
