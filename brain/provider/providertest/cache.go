package providertest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
)

// WithPromptCache makes the Model report usage as a server with a prompt
// cache would: every request it receives counts as part of one
// conversation, and each response's usage says how many of its input
// tokens the cache served (and, over the Anthropic format, wrote), as
// PromptCache computes them. The scripted Usage keeps only its output
// tokens.
func WithPromptCache() Option { return func(c *modelConfig) { c.promptCache = true } }

// CacheUsage is what a prompt cache made of one request, in tokens.
type CacheUsage struct {
	// Input is every input token of the request, cached or not.
	Input int
	// Read are the tokens served from the cache.
	Read int
	// Write are the tokens written to the cache (Anthropic only).
	Write int
}

// Simulated servers' rules, as their documentation states them.
const (
	// anthropicLookback is how many blocks before a breakpoint Anthropic
	// checks for an earlier cache entry.
	anthropicLookback = 20
	// OpenAI caches prompts of at least 1,024 tokens, in steps of 128.
	openAIMinCached = 1024
	openAIStep      = 128
)

// PromptCache simulates a provider's prompt cache over the requests of one
// conversation: the longest prefix a request shares with any earlier one,
// in the provider's order.
//
//   - Anthropic: the prefix is tools (those not deferred), then the system
//     blocks, then the messages' blocks; a deferred tool costs its
//     definition's tokens where a tool_reference names it. Entries are
//     written at cache_control breakpoints; a request reads the longest
//     prefix that ends at one of its breakpoints, or up to 20 blocks before
//     one, and was written earlier. Tokens from there to its last
//     breakpoint are written.
//   - OpenAI: the prompt as servers render it, tools first, then the
//     messages; the cache serves the longest run of leading items equal to
//     an earlier request's, counted when it reaches 1,024 tokens, in steps
//     of 128. No breakpoints, no writes reported.
//
// Tokens are estimated as one per four bytes of each item's JSON. It is
// safe for concurrent use.
type PromptCache struct {
	format Format

	mu sync.Mutex
	// written holds the prefix hashes Anthropic entries were written at.
	written map[uint64]bool
	// seen holds the prefix hashes of every OpenAI request so far.
	seen map[uint64]bool
}

// NewPromptCache returns an empty cache for format f.
func NewPromptCache(f Format) *PromptCache {
	return &PromptCache{format: f, written: map[uint64]bool{}, seen: map[uint64]bool{}}
}

// segment is one item of a request's prefix.
type segment struct {
	key        []byte
	tokens     int
	breakpoint bool
}

var errNotChat = errors.New("not a chat request body")

// Serve accounts one request body (the JSON a provider sent) and returns
// its usage.
func (c *PromptCache) Serve(body []byte) (CacheUsage, error) {
	var segs []segment
	var err error
	if c.format == Anthropic {
		segs, err = anthropicSegments(body)
	} else {
		segs, err = openAISegments(body)
	}
	if err != nil {
		return CacheUsage{}, err
	}
	// prefix[k] is the hash and tokens of the first k segments.
	hashes := make([]uint64, len(segs)+1)
	toks := make([]int, len(segs)+1)
	h := fnv.New64a()
	for i, s := range segs {
		h.Write(s.key)
		h.Write([]byte{0})
		hashes[i+1] = h.Sum64()
		toks[i+1] = toks[i] + s.tokens
	}
	total := toks[len(segs)]
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.format != Anthropic {
		read := 0
		for k := len(segs); k > 0; k-- {
			if c.seen[hashes[k]] {
				read = toks[k]
				break
			}
		}
		for k := 1; k <= len(segs); k++ {
			c.seen[hashes[k]] = true
		}
		if read < openAIMinCached {
			read = 0
		}
		read -= read % openAIStep
		return CacheUsage{Input: total, Read: read}, nil
	}
	read, last := 0, 0
	var points []int
	for i, s := range segs {
		if s.breakpoint {
			points = append(points, i+1)
		}
	}
	for _, b := range points {
		last = b
		for k := b; k > 0 && k >= b-anthropicLookback; k-- {
			if c.written[hashes[k]] {
				read = max(read, toks[k])
				break
			}
		}
	}
	for _, b := range points {
		c.written[hashes[b]] = true
	}
	write := max(toks[last]-read, 0)
	return CacheUsage{Input: total, Read: read, Write: write}, nil
}

func estimate(b []byte) int { return (len(b) + 3) / 4 }

// withoutCacheControl returns an object's JSON without its cache_control
// member: where a breakpoint sits is not part of the prompt.
func withoutCacheControl(raw json.RawMessage) ([]byte, bool, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, false, err
	}
	_, marked := obj["cache_control"]
	delete(obj, "cache_control")
	b, err := json.Marshal(obj)
	return b, marked, err
}

func anthropicSegments(body []byte) ([]segment, error) {
	var in struct {
		Tools    []json.RawMessage `json:"tools"`
		System   json.RawMessage   `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, fmt.Errorf("%w: %w", errNotChat, err)
	}
	var segs []segment
	deferred := map[string][]byte{}
	for _, raw := range in.Tools {
		key, marked, err := withoutCacheControl(raw)
		if err != nil {
			return nil, fmt.Errorf("tool: %w", err)
		}
		var t struct {
			Name         string `json:"name"`
			DeferLoading bool   `json:"defer_loading"`
		}
		_ = json.Unmarshal(raw, &t)
		if t.DeferLoading {
			deferred[t.Name] = key
			continue
		}
		segs = append(segs, segment{key: key, tokens: estimate(key), breakpoint: marked})
	}
	blocks := func(role string, raw json.RawMessage) error {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || string(raw) == "null" {
			return nil
		}
		if raw[0] == '"' {
			segs = append(segs, segment{key: append([]byte(role+":"), raw...), tokens: estimate(raw)})
			return nil
		}
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return err
		}
		for _, b := range list {
			key, marked, err := withoutCacheControl(b)
			if err != nil {
				return err
			}
			tokens := estimate(key)
			// A tool_reference expands the deferred tool's definition here.
			var res struct {
				Content []struct {
					Type     string `json:"type"`
					ToolName string `json:"tool_name"`
				} `json:"content"`
			}
			if json.Unmarshal(b, &res) == nil {
				for _, c := range res.Content {
					if c.Type == "tool_reference" {
						tokens += estimate(deferred[c.ToolName])
					}
				}
			}
			segs = append(segs, segment{key: append([]byte(role+":"), key...), tokens: tokens, breakpoint: marked})
		}
		return nil
	}
	if err := blocks("system", in.System); err != nil {
		return nil, fmt.Errorf("system: %w", err)
	}
	for i, m := range in.Messages {
		if err := blocks(m.Role, m.Content); err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
	}
	return segs, nil
}

func openAISegments(body []byte) ([]segment, error) {
	var in struct {
		Tools    []json.RawMessage `json:"tools"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, fmt.Errorf("%w: %w", errNotChat, err)
	}
	var segs []segment
	for _, raw := range append(in.Tools, in.Messages...) {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return nil, err
		}
		segs = append(segs, segment{key: buf.Bytes(), tokens: estimate(buf.Bytes())})
	}
	return segs, nil
}
