package cerebellum

import (
	"encoding/json"
	"os"
	"sync"

	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
)

// verdictCache remembers plugin check results ("" = fine, else the error)
// keyed by source, code hash and grants, in one small file.
type verdictCache struct {
	path string

	mu    sync.Mutex
	m     map[string]string
	dirty bool
}

func openVerdictCache(path string) *verdictCache {
	c := &verdictCache{path: path, m: map[string]string{}}
	if path == "" {
		return c
	}
	if data, err := os.ReadFile(path); err == nil {
		var m map[string]string
		if json.Unmarshal(data, &m) == nil && m != nil {
			c.m = m
		}
	}
	return c
}

func (c *verdictCache) get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

func (c *verdictCache) put(key, verdict string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[key]; ok && old == verdict {
		return
	}
	c.m[key] = verdict
	c.dirty = true
}

// save writes the verdicts when they changed. Old keys are few and small
// (one per plugin version), so nothing is pruned.
func (c *verdictCache) save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.path == "" || !c.dirty {
		return nil
	}
	if err := atomicfile.WriteJSON(c.path, c.m, 0o600); err != nil {
		return err
	}
	c.dirty = false
	return nil
}
