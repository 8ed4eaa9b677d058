package store

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
)

// Conversation is one conversation's summary record; its events are read
// with Events.
type Conversation struct {
	ID ID `json:"id"`
	// Title comes from the first user message (see MakeTitle) unless set
	// with SetTitle.
	Title   string    `json:"title,omitempty"`
	Model   string    `json:"model,omitempty"`
	Created time.Time `json:"created"`
	// Updated moves when an event is appended, updated or finished; renames,
	// model changes and loaded-set changes do not reorder the list.
	Updated time.Time `json:"updated"`
	// Loaded is the conversation's loaded-capability set as given to
	// SetLoaded: in the order the capabilities were loaded (the order of
	// the request's tools array).
	Loaded []string `json:"loaded,omitempty"`
	// EventCount is the number of events stored.
	EventCount int `json:"events,omitempty"`
	// Choice is the model the person chose for this conversation (the
	// chat header's picker; modelchoice.go), nil for the default.
	Choice *ModelChoice `json:"choice,omitempty"`
	// Pinned, Archived and Instructions are the person's organisation of
	// the conversation and its own standing instructions (organise.go).
	Pinned       bool   `json:"pinned,omitempty"`
	Archived     bool   `json:"archived,omitempty"`
	Instructions string `json:"instructions,omitempty"`
	// Attached are the files the person attached here (attached.go).
	Attached []AttachedFile `json:"attached,omitempty"`
}

// TitleLen is the longest title MakeTitle produces, in characters,
// not counting the ellipsis.
const TitleLen = 60

// MakeTitle turns a first user message into a title: whitespace collapsed,
// cut to at most TitleLen characters at a word boundary, "…" marking a cut.
func MakeTitle(text string) string {
	t := strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(t) <= TitleLen {
		return t
	}
	r := []rune(t)
	cut := TitleLen
	// Prefer the last space within the limit, unless that leaves too little.
	for i := TitleLen; i > TitleLen/2; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	head := strings.TrimRightFunc(string(r[:cut]), func(c rune) bool {
		return unicode.IsSpace(c) || unicode.IsPunct(c)
	})
	if head == "" {
		head = string(r[:cut])
	}
	return head + "…"
}

func conversationKey(id ID) []byte { return encodeU64(uint64(id)) }

func eventBucket(tx *bolt.Tx, id ID) *bolt.Bucket {
	return tx.Bucket([]byte(bucketEvents)).Bucket(conversationKey(id))
}

// getConversation reads one record inside tx.
func getConversation(tx *bolt.Tx, id ID) (Conversation, error) {
	raw := tx.Bucket([]byte(bucketConversations)).Get(conversationKey(id))
	if raw == nil {
		return Conversation{}, fmt.Errorf("conversation %s: %w", id, ErrNotFound)
	}
	return decodeConversation(id, raw)
}

func putConversation(tx *bolt.Tx, c Conversation) error {
	b, err := encodeConversation(c)
	if err != nil {
		return err
	}
	if err := tx.Bucket([]byte(bucketConversations)).Put(conversationKey(c.ID), b); err != nil {
		return fmt.Errorf("write conversation %s: %w", c.ID, err)
	}
	return nil
}

// CreateConversation starts an empty conversation with the given model.
func (d *DB) CreateConversation(model string) (Conversation, error) {
	var c Conversation
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		n, err := tx.Bucket([]byte(bucketConversations)).NextSequence()
		if err != nil {
			return fmt.Errorf("number conversation: %w", err)
		}
		now := d.stamp()
		c = Conversation{ID: ID(n), Model: model, Created: now, Updated: now}
		if _, err := tx.Bucket([]byte(bucketEvents)).CreateBucket(conversationKey(c.ID)); err != nil {
			return fmt.Errorf("create events of %s: %w", c.ID, err)
		}
		return putConversation(tx, c)
	})
	if err != nil {
		return Conversation{}, fmt.Errorf("create conversation: %w", err)
	}
	return c, nil
}

// GetConversation returns one conversation's record.
func (d *DB) GetConversation(id ID) (Conversation, error) {
	d.convReads.Add(1)
	var c Conversation
	err := d.bolt.View(func(tx *bolt.Tx) (err error) {
		c, err = getConversation(tx, id)
		return err
	})
	return c, err
}

// ListConversations returns every conversation, most recently updated first
// (ties: higher ID first). A damaged record is listed with a placeholder
// title so the user can still delete it.
func (d *DB) ListConversations() ([]Conversation, error) {
	var out []Conversation
	err := d.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketConversations)).ForEach(func(k, v []byte) error {
			n, ok := decodeU64(k)
			if !ok {
				d.log.Warn("skipping malformed conversation key", "key", fmt.Sprintf("%x", k))
				return nil
			}
			c, err := decodeConversation(ID(n), v)
			if err != nil {
				d.log.Warn("damaged conversation record", "conversation", ID(n).String(), "err", err)
				c = Conversation{ID: ID(n), Title: "(damaged conversation)"}
			}
			out = append(out, c)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	slices.SortFunc(out, func(a, b Conversation) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	return out, nil
}

// DeleteConversation removes a conversation and all its events, kept
// versions included.
func (d *DB) DeleteConversation(id ID) error {
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		cb := tx.Bucket([]byte(bucketConversations))
		if cb.Get(conversationKey(id)) == nil {
			return fmt.Errorf("conversation %s: %w", id, ErrNotFound)
		}
		if err := cb.Delete(conversationKey(id)); err != nil {
			return err
		}
		eb := tx.Bucket([]byte(bucketEvents))
		if eb.Bucket(conversationKey(id)) != nil {
			if err := eb.DeleteBucket(conversationKey(id)); err != nil {
				return err
			}
		}
		if err := deleteImages(tx.Bucket([]byte(bucketImages)), conversationKey(id)); err != nil {
			return err
		}
		if err := dropIndex(tx, id); err != nil {
			return err
		}
		// Its kept versions (their images went with the conversation's).
		vb := tx.Bucket([]byte(bucketVersions))
		if vb.Bucket(conversationKey(id)) != nil {
			if err := vb.DeleteBucket(conversationKey(id)); err != nil {
				return err
			}
		}
		// Forget its streaming replies too, or Open would look for them.
		sb := tx.Bucket([]byte(bucketStreaming))
		prefix := conversationKey(id)
		var stale [][]byte
		c := sb.Cursor()
		for k, _ := c.Seek(prefix); len(k) >= 8 && string(k[:8]) == string(prefix); k, _ = c.Next() {
			stale = append(stale, append([]byte(nil), k...))
		}
		for _, k := range stale {
			if err := sb.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	d.cache.drop(id)
	if err != nil {
		return fmt.Errorf("delete conversation: %w", err)
	}
	d.streamMu.Lock()
	for k := range d.tails {
		if ID(binary.BigEndian.Uint64(k[:8])) == id {
			delete(d.tails, k)
		}
	}
	d.streamMu.Unlock()
	return nil
}

// updateConversation applies fn to one record in its own transaction.
func (d *DB) updateConversation(what string, id ID, fn func(*Conversation)) error {
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		c, err := getConversation(tx, id)
		if err != nil {
			return err
		}
		fn(&c)
		return putConversation(tx, c)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// SetTitle renames a conversation (whitespace collapsed, secrets redacted).
// An empty title lets the next user message name it again.
func (d *DB) SetTitle(id ID, title string) error {
	t := d.Redactor().String(strings.Join(strings.Fields(title), " "))
	return d.updateConversation("set title", id, func(c *Conversation) { c.Title = t })
}

// SetModel records the model the conversation now uses.
func (d *DB) SetModel(id ID, model string) error {
	return d.updateConversation("set model", id, func(c *Conversation) { c.Model = model })
}

// SetLoaded stores the conversation's loaded-capability set, in LRU order
// (the caller's order is kept as given).
func (d *DB) SetLoaded(id ID, names []string) error {
	l := slices.Clone(names)
	if len(l) == 0 {
		l = nil
	}
	return d.updateConversation("set loaded capabilities", id, func(c *Conversation) { c.Loaded = l })
}

// Loaded returns the conversation's loaded-capability set in the order
// SetLoaded stored it.
func (d *DB) Loaded(id ID) ([]string, error) {
	c, err := d.GetConversation(id)
	if err != nil {
		return nil, fmt.Errorf("loaded capabilities: %w", err)
	}
	return c.Loaded, nil
}
