package store

import (
	"fmt"
	"slices"
)

// AttachedFile is a file the person attached to a message of a
// conversation: the assistant may read exactly it, in that conversation
// only, wherever it lies (brain/assistant's attachread.go). Kept in the
// conversation's record, it survives a restart and goes with the
// conversation when that is deleted.
type AttachedFile struct {
	// Path is the path as attached, the one the message names to the model.
	Path string `json:"path"`
	// Real is Path with its symbolic links resolved when it was attached:
	// what is read, so that a link retargeted later leads nowhere new.
	Real string `json:"real"`
	// Dev and Ino identify the file that was read when it was attached
	// (0 where the system does not say): a read that opens another file
	// there (replaced since, also by a hard link) is refused.
	Dev uint64 `json:"dev,omitempty"`
	Ino uint64 `json:"ino,omitempty"`
	// Changed is when its inode last changed (ctime, ns): a new file
	// given a freed inode number, or a hard link made to it, differs.
	Changed int64 `json:"changed,omitempty"`
}

// MaxAttached is how many attached files a conversation remembers; the
// oldest give way to new ones.
const MaxAttached = 200

// AddAttached records files as attached to conversation id: one already
// recorded (by Path) is not recorded twice, and past MaxAttached the
// oldest are forgotten.
func (d *DB) AddAttached(id ID, files []AttachedFile) error {
	if len(files) == 0 {
		return nil
	}
	return d.updateConversation("record the attached files", id, func(c *Conversation) {
		for _, f := range files {
			if f.Path == "" || f.Real == "" {
				continue
			}
			c.Attached = slices.DeleteFunc(c.Attached, func(old AttachedFile) bool { return old.Path == f.Path })
			c.Attached = append(c.Attached, f)
		}
		if n := len(c.Attached); n > MaxAttached {
			c.Attached = slices.Delete(c.Attached, 0, n-MaxAttached)
		}
	})
}

// Attached are the files attached to conversation id, oldest first.
func (d *DB) Attached(id ID) ([]AttachedFile, error) {
	c, err := d.GetConversation(id)
	if err != nil {
		return nil, fmt.Errorf("the files attached to %s: %w", id, err)
	}
	return c.Attached, nil
}
