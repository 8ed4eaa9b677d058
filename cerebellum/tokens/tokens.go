package tokens

import (
	"fmt"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encoding names supported offline.
const (
	O200k  = "o200k_base"
	CL100k = "cl100k_base"
)

// Counter counts tokens with a real BPE encoding whose ranks are embedded
// in the binary (no download at run time).
type Counter struct {
	enc *tiktoken.Tiktoken
	mu  sync.Mutex // tiktoken's encoder keeps a cache that is not safe for concurrent use
}

// New loads an encoding by name (O200k or CL100k).
func New(encoding string) (*Counter, error) {
	tiktoken.SetBpeLoader(loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding(encoding)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", encoding, err)
	}
	return &Counter{enc: enc}, nil
}

// Count returns the number of tokens of s.
func (c *Counter) Count(s string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.enc.Encode(s, nil, nil))
}
