package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/brain/tasks"
)

// Scheduled tasks live in three buckets: tasks (8-byte id → JSON task),
// task_runs (8-byte task id + 8-byte run sequence → JSON run, so a task's
// runs are one ordered key range) and task_proposals (8-byte id → JSON
// proposal). Each method is one transaction.

// MaxRunsKept is how many runs of one task are kept; older ones go as
// new ones are added.
const MaxRunsKept = 200

func runKey(task tasks.ID, seq uint64) []byte {
	k := make([]byte, 16)
	binary.BigEndian.PutUint64(k, uint64(task))
	binary.BigEndian.PutUint64(k[8:], seq)
	return k
}

// Tasks returns every task, oldest first.
func (d *DB) Tasks() ([]tasks.Task, error) {
	var out []tasks.Task
	err := d.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketTasks)).ForEach(func(k, v []byte) error {
			var t tasks.Task
			if err := json.Unmarshal(v, &t); err != nil {
				return fmt.Errorf("task %x: %w: %v", k, ErrCorrupt, err)
			}
			out = append(out, t)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read the scheduled tasks: %w", err)
	}
	return out, nil
}

// Task returns task id, or an error matching ErrNotFound.
func (d *DB) Task(id tasks.ID) (tasks.Task, error) {
	var t tasks.Task
	err := d.bolt.View(func(tx *bolt.Tx) error {
		var err error
		t, err = getTask(tx, id)
		return err
	})
	return t, err
}

func getTask(tx *bolt.Tx, id tasks.ID) (tasks.Task, error) {
	var t tasks.Task
	v := tx.Bucket([]byte(bucketTasks)).Get(encodeU64(uint64(id)))
	if v == nil {
		return t, fmt.Errorf("task %s: %w", id, ErrNotFound)
	}
	if err := json.Unmarshal(v, &t); err != nil {
		return t, fmt.Errorf("task %s: %w: %v", id, ErrCorrupt, err)
	}
	return t, nil
}

func putTask(tx *bolt.Tx, t tasks.Task) error {
	raw, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("encode task %s: %w", t.ID, err)
	}
	return tx.Bucket([]byte(bucketTasks)).Put(encodeU64(uint64(t.ID)), raw)
}

// AddTask stores t as a new task (its ID is given here) and returns it.
func (d *DB) AddTask(t tasks.Task) (tasks.Task, error) {
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		seq, err := tx.Bucket([]byte(bucketTasks)).NextSequence()
		if err != nil {
			return err
		}
		t.ID = tasks.ID(seq)
		return putTask(tx, t)
	})
	if err != nil {
		return t, fmt.Errorf("store the task %q: %w", t.Name, err)
	}
	return t, nil
}

// UpdateTask changes task id with fn in one transaction and returns the
// task as stored; an error from fn changes nothing.
func (d *DB) UpdateTask(id tasks.ID, fn func(*tasks.Task) error) (tasks.Task, error) {
	var t tasks.Task
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		if t, err = getTask(tx, id); err != nil {
			return err
		}
		if err := fn(&t); err != nil {
			return err
		}
		t.ID = id
		return putTask(tx, t)
	})
	return t, err
}

// DeleteTask removes task id and its runs; its proposals keep pointing at
// a task that is gone. A missing task is ErrNotFound.
func (d *DB) DeleteTask(id tasks.ID) error {
	return d.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketTasks))
		if b.Get(encodeU64(uint64(id))) == nil {
			return fmt.Errorf("task %s: %w", id, ErrNotFound)
		}
		if err := b.Delete(encodeU64(uint64(id))); err != nil {
			return err
		}
		return deleteRange(tx.Bucket([]byte(bucketTaskRuns)), encodeU64(uint64(id)), -1)
	})
}

// deleteRange deletes the keys of b starting with prefix, all of them
// (keep < 0) or all but the last keep.
func deleteRange(b *bolt.Bucket, prefix []byte, keep int) error {
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, slices.Clone(k))
	}
	if keep >= 0 {
		if len(keys) <= keep {
			return nil
		}
		keys = keys[:len(keys)-keep]
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// AddRun records a run of r.Task (its Seq is given here), keeping the
// newest MaxRunsKept, and returns it.
func (d *DB) AddRun(r tasks.Run) (tasks.Run, error) {
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketTaskRuns))
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		r.Seq = seq
		raw, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if err := b.Put(runKey(r.Task, seq), raw); err != nil {
			return err
		}
		return deleteRange(b, encodeU64(uint64(r.Task)), MaxRunsKept)
	})
	if err != nil {
		return r, fmt.Errorf("record a run of task %s: %w", r.Task, err)
	}
	return r, nil
}

// UpdateRun changes a recorded run with fn in one transaction; a run
// dropped meanwhile (its task deleted) is ErrNotFound.
func (d *DB) UpdateRun(task tasks.ID, seq uint64, fn func(*tasks.Run)) (tasks.Run, error) {
	var r tasks.Run
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketTaskRuns))
		v := b.Get(runKey(task, seq))
		if v == nil {
			return fmt.Errorf("run %d of task %s: %w", seq, task, ErrNotFound)
		}
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("run %d of task %s: %w: %v", seq, task, ErrCorrupt, err)
		}
		fn(&r)
		r.Task, r.Seq = task, seq
		raw, err := json.Marshal(r)
		if err != nil {
			return err
		}
		return b.Put(runKey(task, seq), raw)
	})
	return r, err
}

// Runs returns the runs of task, newest first, at most limit (0: all
// kept).
func (d *DB) Runs(task tasks.ID, limit int) ([]tasks.Run, error) {
	var out []tasks.Run
	err := d.bolt.View(func(tx *bolt.Tx) error {
		prefix := encodeU64(uint64(task))
		c := tx.Bucket([]byte(bucketTaskRuns)).Cursor()
		// Seek past the prefix and walk back: newest first.
		var k, v []byte
		if k, _ = c.Seek(runKey(task+1, 0)); k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
			var r tasks.Run
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("run %x: %w: %v", k, ErrCorrupt, err)
			}
			out = append(out, r)
			if limit > 0 && len(out) >= limit {
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the runs of task %s: %w", task, err)
	}
	return out, nil
}

// RunConversations maps each conversation a run made to its run, for
// every kept run.
func (d *DB) RunConversations() (map[ID]tasks.Run, error) {
	out := map[ID]tasks.Run{}
	err := d.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketTaskRuns)).ForEach(func(k, v []byte) error {
			var r tasks.Run
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("run %x: %w: %v", k, ErrCorrupt, err)
			}
			if r.Conversation != 0 {
				out[ID(r.Conversation)] = r
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read the runs of the scheduled tasks: %w", err)
	}
	return out, nil
}

// AddProposal stores a proposed task (its ID is given here).
func (d *DB) AddProposal(p tasks.Proposal) (tasks.Proposal, error) {
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketProposals))
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		p.ID = seq
		raw, err := json.Marshal(p)
		if err != nil {
			return err
		}
		return b.Put(encodeU64(seq), raw)
	})
	if err != nil {
		return p, fmt.Errorf("store the proposed task %q: %w", p.Name, err)
	}
	return p, nil
}

// UpdateProposal changes proposal id with fn in one transaction; an error
// from fn changes nothing.
func (d *DB) UpdateProposal(id uint64, fn func(*tasks.Proposal) error) (tasks.Proposal, error) {
	var p tasks.Proposal
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketProposals))
		v := b.Get(encodeU64(id))
		if v == nil {
			return fmt.Errorf("proposed task %d: %w", id, ErrNotFound)
		}
		if err := json.Unmarshal(v, &p); err != nil {
			return fmt.Errorf("proposed task %d: %w: %v", id, ErrCorrupt, err)
		}
		if err := fn(&p); err != nil {
			return err
		}
		p.ID = id
		raw, err := json.Marshal(p)
		if err != nil {
			return err
		}
		return b.Put(encodeU64(id), raw)
	})
	return p, err
}

// Proposals returns the proposals made in conversation conv (0: every
// conversation), oldest first.
func (d *DB) Proposals(conv ID) ([]tasks.Proposal, error) {
	var out []tasks.Proposal
	err := d.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketProposals)).ForEach(func(k, v []byte) error {
			var p tasks.Proposal
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("proposal %x: %w: %v", k, ErrCorrupt, err)
			}
			if conv == 0 || ID(p.Conversation) == conv {
				out = append(out, p)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read the proposed tasks: %w", err)
	}
	return out, nil
}
