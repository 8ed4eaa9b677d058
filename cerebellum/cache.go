package cerebellum

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"regexp"
	"sync"

	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// manifestCacheVersion changes whenever the parser's output may change, so
// an old cache is ignored rather than trusted.
const manifestCacheVersion = "skillmd-2"

// manifestCache remembers parsed SKILL.md files by content hash in one file
// in the workspace, so a start-up with hundreds of capabilities decodes JSON
// instead of parsing YAML. Only successful parses are cached; a file that
// fails is parsed again (and reports its errors) every time.
type manifestCache struct {
	path string

	mu      sync.Mutex
	entries map[string]json.RawMessage
	used    map[string]bool
	dirty   bool
}

type cacheFile struct {
	Version string                     `json:"version"`
	Entries map[string]json.RawMessage `json:"entries"`
}

// cachedManifest carries the fields of a Manifest that JSON tags leave out.
type cachedManifest struct {
	M    *skillmd.Manifest `json:"m"`
	Body string            `json:"body"`
}

func openManifestCache(path string) *manifestCache {
	c := &manifestCache{path: path, entries: map[string]json.RawMessage{}, used: map[string]bool{}}
	if path == "" {
		return c
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return c
	}
	var f cacheFile
	if json.Unmarshal(data, &f) == nil && f.Version == manifestCacheVersion && f.Entries != nil {
		c.entries = f.Entries
	}
	return c
}

func cacheKey(folder string, data []byte) string {
	h := sha256.New()
	h.Write([]byte(folder))
	h.Write([]byte{0})
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// get returns the cached manifest for this folder and content, or nil.
func (c *manifestCache) get(key string) *skillmd.Manifest {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	raw, ok := c.entries[key]
	if ok {
		c.used[key] = true
	}
	c.mu.Unlock()
	if !ok {
		return nil
	}
	var cm cachedManifest
	if json.Unmarshal(raw, &cm) != nil || cm.M == nil {
		return nil
	}
	cm.M.Body = cm.Body
	for _, list := range [][]skillmd.Pattern{cm.M.DangerPatterns, cm.M.ConfirmPatterns} {
		for i := range list {
			re, err := regexp.Compile("(?i)" + list[i].Pattern)
			if err != nil {
				return nil
			}
			list[i].Re = re
			list[i].DotAll = regexp.MustCompile("(?is)" + list[i].Pattern) // valid: Re compiled
		}
	}
	return cm.M
}

func (c *manifestCache) put(key string, m *skillmd.Manifest) {
	if c == nil {
		return
	}
	raw, err := json.Marshal(cachedManifest{M: m, Body: m.Body})
	if err != nil {
		return
	}
	c.mu.Lock()
	c.entries[key] = raw
	c.used[key] = true
	c.dirty = true
	c.mu.Unlock()
}

// save writes the cache when it changed, keeping only entries used by the
// last scan so it never grows without bound.
func (c *manifestCache) save() error {
	if c == nil || c.path == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty && len(c.used) == len(c.entries) {
		c.used = map[string]bool{}
		return nil
	}
	kept := make(map[string]json.RawMessage, len(c.used))
	for k := range c.used {
		if raw, ok := c.entries[k]; ok {
			kept[k] = raw
		}
	}
	if err := atomicfile.WriteJSON(c.path, cacheFile{Version: manifestCacheVersion, Entries: kept}, 0o600); err != nil {
		return err
	}
	c.entries = kept
	c.used = map[string]bool{}
	c.dirty = false
	return nil
}
