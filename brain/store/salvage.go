package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// SalvageReport says what Salvage read out of a damaged database.
type SalvageReport struct {
	// SetAside is where the damaged file was kept.
	SetAside string
	// What the new database holds.
	Conversations, Events, Secrets, Settings, States, CapabilitySettings, MCPCatalogs, Images int
	// Rebuilt counts conversations whose record was lost and was made
	// again from their events (titled "Recovered conversation cN").
	Rebuilt int
	// Lost says what could not be read (damaged pages, records).
	Lost []string
}

// salvageChunk bounds the bytes written per transaction while salvaging,
// so a large file does not sit in memory as one transaction's pages.
const salvageChunk = 8 << 20

// Salvage reads everything that can still be read from the database at
// path (conversations and their events, secrets, settings, capability
// states and settings, MCP tool lists, images), without bbolt, into a new
// database, which then takes the damaged file's place; the damaged file is
// kept in dir (the backups folder) as a set-aside file. The search index is
// built afresh. It takes the file's lock first. A file a newer Wrasse
// wrote is refused (*SchemaError): its layout is unknown here.
func Salvage(path, dir string, opts Options) (SalvageReport, error) {
	var rep SalvageReport
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	unlock, err := Lock(path, DefaultTimeout)
	if err != nil {
		return rep, err
	}
	defer unlock()
	src, err := os.Open(path)
	if err != nil {
		return rep, fmt.Errorf("salvage %s: %w", path, err)
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return rep, fmt.Errorf("salvage %s: %w", path, err)
	}
	rf, err := openRaw(src, fi.Size())
	if rf == nil {
		return rep, fmt.Errorf("salvage %s: nothing can be read: %w", path, err)
	}
	if err != nil {
		// Cut short: what is left is read.
		rep.Lost = append(rep.Lost, strings.TrimPrefix(err.Error(), ErrCorrupt.Error()+": "))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return rep, fmt.Errorf("salvage %s: %w", path, err)
	}
	// A temporary name atomicfile.Sweep recognises, so an interrupted
	// salvage leaves nothing behind after the next open.
	tmp := filepath.Join(dir, fmt.Sprintf(".salvaged.db.tmp-%d", opts.Clock().UnixNano()))
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rep, fmt.Errorf("salvage %s: %w", path, err)
	}
	defer os.Remove(tmp) // a no-op once it took the damaged file's place
	nd, err := Open(tmp, Options{NoSync: true, Clock: opts.Clock, Logger: opts.Logger})
	if err != nil {
		return rep, fmt.Errorf("salvage %s: create the new database: %w", path, err)
	}
	s := &salvager{w: newWalker(rf), d: nd, rep: &rep}
	err = s.run()
	if err == nil {
		err = nd.bolt.Sync()
	}
	if cerr := nd.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return rep, fmt.Errorf("salvage %s: %w", path, err)
	}
	rep.Lost = append(rep.Lost, s.w.report()...)
	if diag, err := Diagnose(tmp); err != nil || !diag.Healthy() {
		return rep, fmt.Errorf("salvage %s: the new database does not check out: %v%v", path, err, diag.Problems)
	}
	aside, err := replace(path, tmp, dir, opts.Clock())
	rep.SetAside = aside
	if err != nil {
		return rep, fmt.Errorf("salvage %s: %w", path, err)
	}
	return rep, nil
}

// salvager copies what a walker reads into a new database.
type salvager struct {
	w   *walker
	d   *DB
	rep *SalvageReport
	// pending puts, written every salvageChunk bytes.
	pending []put
	size    int
}

// put is one key to write: into the top-level bucket, or into the bucket
// nested in it under nested.
type put struct {
	bucket, nested string
	key, value     []byte
	// seq, when set, raises the bucket's sequence to at least this.
	seq uint64
}

func (s *salvager) lost(format string, a ...any) {
	if len(s.rep.Lost) < maxProblems {
		s.rep.Lost = append(s.rep.Lost, fmt.Sprintf(format, a...))
	}
}

func (s *salvager) run() error {
	top := s.w.buckets(s.w.f.rootBucket(), "root")
	if len(top) == 0 {
		// The root page is lost: the transaction before kept its own.
		if older, ok := s.w.f.olderRoot(); ok {
			top = s.w.buckets(older, "root (the previous transaction's)")
		}
	}
	if len(top) == 0 {
		return fmt.Errorf("%w: nothing can be read: %s", ErrCorrupt, strings.Join(s.w.report(), "; "))
	}
	if m, ok := top[bucketMeta]; ok {
		var found uint64
		_ = s.w.each(m, bucketMeta, func(e entry) error {
			if string(e.key) == keySchemaVersion {
				found, _ = decodeU64(e.value)
			}
			return nil
		})
		if found > schemaVersion {
			return &SchemaError{Found: found, Supported: schemaVersion}
		}
	}
	flat := []struct {
		name  string
		count *int
	}{
		{bucketSecrets, &s.rep.Secrets}, {bucketSecretPlaces, nil}, {bucketSettings, &s.rep.Settings}, {bucketCapabilities, &s.rep.States},
		{bucketMCPCatalogs, &s.rep.MCPCatalogs}, {bucketImages, &s.rep.Images}, {bucketStreaming, nil},
		{bucketTasks, nil}, {bucketTaskRuns, nil}, {bucketProposals, nil},
	}
	for _, f := range flat {
		b, ok := top[f.name]
		if !ok {
			if f.count != nil {
				s.lost("everything in %s", f.name)
			}
			continue
		}
		err := s.w.each(b, f.name, func(e entry) error {
			if e.bucket {
				return nil
			}
			if f.count != nil {
				*f.count++
			}
			return s.add(put{bucket: f.name, key: e.key, value: e.value})
		})
		if err != nil {
			return err
		}
	}
	if b, ok := top[bucketCapSettings]; ok {
		for name, nb := range s.w.buckets(b, bucketCapSettings) {
			s.rep.CapabilitySettings++
			err := s.w.each(nb, bucketCapSettings+"/"+name, func(e entry) error {
				if e.bucket {
					return nil
				}
				return s.add(put{bucket: bucketCapSettings, nested: name, key: e.key, value: e.value})
			})
			if err != nil {
				return err
			}
		}
	}
	if err := s.conversations(top); err != nil {
		return err
	}
	if err := s.flush(); err != nil {
		return err
	}
	// The index is built from what was salvaged; replies that were
	// streaming become interrupted, as at any open.
	return s.d.bolt.Update(func(tx *bolt.Tx) error {
		if err := rebuildIndex(tx); err != nil {
			return err
		}
		secrets, err := loadSecrets(tx)
		if err != nil {
			return err
		}
		return s.d.recoverStreams(tx, func() *Redactor { return NewRedactor(secrets) })
	})
}

// conversations salvages the conversation records and their events,
// making a record for events whose record was lost and counting each
// conversation's events again.
func (s *salvager) conversations(top map[string]rawBucket) error {
	convs := map[ID]Conversation{}
	var convSeq uint64
	if b, ok := top[bucketConversations]; ok {
		convSeq = b.seq
		_ = s.w.each(b, bucketConversations, func(e entry) error {
			n, ok := decodeU64(e.key)
			if !ok || e.bucket {
				return nil
			}
			c, err := decodeConversation(ID(n), e.value)
			if err != nil {
				s.lost("the record of conversation %s", ID(n))
				return nil
			}
			convs[c.ID] = c
			return nil
		})
	} else {
		s.lost("every conversation record")
	}
	counts := map[ID]int{}
	if b, ok := top[bucketEvents]; ok {
		for key, eb := range s.w.buckets(b, bucketEvents) {
			n, ok := decodeU64([]byte(key))
			if !ok {
				continue
			}
			id := ID(n)
			path := bucketEvents + "/" + id.String()
			var first, last time.Time
			seq := eb.seq
			err := s.w.each(eb, path, func(e entry) error {
				k, ok := decodeU64(e.key)
				if !ok || e.bucket {
					return nil
				}
				ev, err := decodeEvent(e.value)
				if err != nil {
					s.lost("event %d of conversation %s", k, id)
					return nil
				}
				if first.IsZero() || ev.Time.Before(first) {
					first = ev.Time
				}
				if ev.Time.After(last) {
					last = ev.Time
				}
				counts[id]++
				seq = max(seq, k)
				return s.add(put{bucket: bucketEvents, nested: key, key: e.key, value: e.value, seq: seq})
			})
			if err != nil {
				return err
			}
			if _, ok := convs[id]; !ok {
				convs[id] = Conversation{ID: id, Title: "Recovered conversation " + id.String(), Created: first, Updated: last}
				s.rep.Rebuilt++
			}
			// An empty conversation still needs its events bucket.
			if err := s.add(put{bucket: bucketEvents, nested: key, seq: seq}); err != nil {
				return err
			}
		}
	} else {
		s.lost("every conversation's events")
	}
	ids := make([]ID, 0, len(convs))
	for id := range convs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		c := convs[id]
		if c.EventCount > counts[id] {
			s.lost("%d of the %d events of conversation %s", c.EventCount-counts[id], c.EventCount, id)
		}
		c.EventCount = counts[id]
		raw, err := encodeConversation(c)
		if err != nil {
			return err
		}
		convSeq = max(convSeq, uint64(id))
		if err := s.add(put{bucket: bucketConversations, key: conversationKey(id), value: raw, seq: convSeq}); err != nil {
			return err
		}
		if counts[id] == 0 {
			if err := s.add(put{bucket: bucketEvents, nested: string(conversationKey(id))}); err != nil {
				return err
			}
		}
		s.rep.Conversations++
		s.rep.Events += counts[id]
	}
	return nil
}

// add queues p (copying its bytes: they live in the walker's page
// buffers) and writes the queue once it is large.
func (s *salvager) add(p put) error {
	p.key, p.value = bytes.Clone(p.key), bytes.Clone(p.value)
	s.pending = append(s.pending, p)
	s.size += len(p.key) + len(p.value) + 64
	if s.size >= salvageChunk {
		return s.flush()
	}
	return nil
}

// flush writes the queued puts in one transaction.
func (s *salvager) flush() error {
	if len(s.pending) == 0 {
		return nil
	}
	err := s.d.bolt.Update(func(tx *bolt.Tx) error {
		for _, p := range s.pending {
			b := tx.Bucket([]byte(p.bucket))
			if p.nested != "" {
				nb, err := b.CreateBucketIfNotExists([]byte(p.nested))
				if err != nil {
					return fmt.Errorf("%s/%x: %w", p.bucket, p.nested, err)
				}
				b = nb
			}
			if p.key != nil {
				if err := b.Put(p.key, p.value); err != nil {
					return fmt.Errorf("%s/%x: %w", p.bucket, p.key, err)
				}
			}
			if p.seq > b.Sequence() {
				if err := b.SetSequence(p.seq); err != nil {
					return err
				}
			}
		}
		return nil
	})
	s.pending, s.size = s.pending[:0], 0
	return err
}
