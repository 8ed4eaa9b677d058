package store

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"sync"
	"syscall"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// DamageHint is the way out of a damaged database: wrasse doctor, or the
// window's database page.
func DamageHint() hint.Hint {
	return hint.Hint{Action: "See what can be read, then salvage it into a new database, start afresh or restore a backup",
		Command: []string{"doctor"}}
}

// guard is the one way the store reaches bbolt. bbolt trusts its file: a
// damaged page panics inside it (an assertion, an index out of range) or
// faults (a page number outside the mapped file), and a panic inside a
// write transaction could leave its locks held, so Close deadlocked. The
// guard runs every transaction with faults turned into panics, recovers
// them into ErrCorrupt, ends the transaction without touching the file
// again, and refuses every later write: after damage is found the file is
// left as it is for the person to decide (wrasse doctor).
type guard struct {
	// The handle is embedded for its fields (NoSync); its View, Update and
	// Close are the guard's.
	*bolt.DB
	log *slog.Logger
	dir string // the database's folder, named in disk-full errors
	// notify learns when writes stop or start working again (see
	// Options.OnStorage); it runs outside mu.
	notify func(error)

	mu     sync.Mutex
	damage error // the first damage found; final
	full   bool  // the last write failed for lack of space
	stuck  bool  // a transaction could not be ended: Close must not wait for it
	// stuckCh is closed when stuck is set.
	stuckCh chan struct{}
	closed  bool
	running sync.WaitGroup // transactions in progress, for Close
}

// View runs fn in a read transaction.
func (g *guard) View(fn func(*bolt.Tx) error) error { return g.run(false, fn) }

// Update runs fn in a write transaction and commits it.
func (g *guard) Update(fn func(*bolt.Tx) error) error { return g.run(true, fn) }

func (g *guard) run(write bool, fn func(*bolt.Tx) error) (err error) {
	g.mu.Lock()
	switch {
	case g.closed:
		g.mu.Unlock()
		return fmt.Errorf("workspace database: %w", bolterrors.ErrDatabaseNotOpen)
	case write && g.damage != nil:
		err := g.damage
		g.mu.Unlock()
		return fmt.Errorf("not written: %w", err)
	}
	g.running.Add(1)
	g.mu.Unlock()
	defer g.running.Done()

	// bbolt reads its file through a memory map: a page beyond the end of
	// a truncated file is a fault, fatal unless this goroutine asks for a
	// panic instead.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var tx *bolt.Tx
	defer func() {
		if r := recover(); r != nil {
			err = g.recovered(tx, r)
		}
	}()
	tx, err = g.DB.Begin(write)
	if err != nil {
		return err
	}
	begun := tx.Size()
	if err = fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if !write {
		return tx.Rollback()
	}
	// bbolt writes a commit's pages with pwrite and grows a file it finds
	// short, so a file cut while this transaction ran would be written to
	// without a fault to warn of it. A file shorter than the data it held
	// when the transaction began is damaged: nothing is written to it.
	if cut := g.truncated(tx, begun); cut != nil {
		_ = tx.Rollback()
		g.log.Error("workspace database is damaged; writes stop", "error", cut)
		g.damaged(cut)
		return fmt.Errorf("not written: %w", cut)
	}
	if err = tx.Commit(); err != nil {
		return g.writeFailed(err)
	}
	g.wrote()
	return nil
}

// truncated reports, as ErrCorrupt, a file now shorter than the size
// (begun) its data had when tx began; nil when it is not, or when the file
// cannot be looked at (the commit then says why).
func (g *guard) truncated(tx *bolt.Tx, begun int64) error {
	fi, err := os.Stat(g.Path())
	if err != nil || fi.Size() >= begun {
		return nil
	}
	return hint.With(fmt.Errorf("%w: the file was cut short while open (%d bytes, its data needs %d)", ErrCorrupt, fi.Size(), begun), DamageHint())
}

// recovered turns a panic inside bbolt into ErrCorrupt and ends tx. The
// rollback bbolt does for a failed commit reloads the free page list from
// the file, which may be what is damaged; Rollback only forgets the
// transaction's pages and releases its locks.
func (g *guard) recovered(tx *bolt.Tx, r any) error {
	err := hint.With(fmt.Errorf("%w (%v)", ErrCorrupt, r), DamageHint())
	if tx != nil && !g.endAfterPanic(tx) {
		g.mu.Lock()
		if !g.stuck {
			g.stuck = true
			close(g.stuckCh)
		}
		g.mu.Unlock()
	}
	g.log.Error("workspace database is damaged; writes stop", "error", err, "stack", string(debug.Stack()))
	g.damaged(err)
	return err
}

// endAfterPanic rolls tx back, reporting whether that worked (or it was
// already ended).
func (g *guard) endAfterPanic(tx *bolt.Tx) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ok = false
		}
	}()
	err := tx.Rollback()
	return err == nil || errors.Is(err, bolterrors.ErrTxClosed)
}

// damaged records err as the file's damage (the first one stays) and
// tells notify once.
func (g *guard) damaged(err error) {
	g.mu.Lock()
	first := g.damage == nil
	if first {
		g.damage = err
	}
	g.mu.Unlock()
	if first && g.notify != nil {
		g.notify(err)
	}
}

func newGuard(db *bolt.DB, log *slog.Logger, dir string, notify func(error)) *guard {
	return &guard{DB: db, log: log, dir: dir, notify: notify, stuckCh: make(chan struct{})}
}

// Damage is the damage found in the file, nil while none was.
func (g *guard) Damage() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.damage
}

// writeFailed explains a failed commit; a full disk is told to notify
// once, until a write works again.
func (g *guard) writeFailed(err error) error {
	if !diskFull(err) {
		return err
	}
	err = hint.With(fmt.Errorf("%w: no space is left on the disk of %s; this change was not saved, everything saved before it is kept: %w", ErrDiskFull, g.dir, err),
		hint.Hint{Action: "Free some space on that disk; Wrasse saves again as soon as there is room"})
	g.mu.Lock()
	first := !g.full
	g.full = true
	g.mu.Unlock()
	if first {
		g.log.Warn("workspace database: disk full; writes fail until space is freed", "error", err)
		if g.notify != nil {
			g.notify(err)
		}
	}
	return err
}

// wrote notes a successful commit: after a full disk, writes work again.
func (g *guard) wrote() {
	g.mu.Lock()
	was := g.full
	g.full = false
	g.mu.Unlock()
	if was {
		g.log.Info("workspace database: writes work again")
		if g.notify != nil {
			g.notify(nil)
		}
	}
}

// diskFull reports whether err is the file system saying it has no room.
func diskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// Close closes the file. A transaction left open by a panic holds bbolt's
// locks for good; then the handle is abandoned (the process releases it
// when it exits) instead of waiting forever.
func (g *guard) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	g.mu.Unlock()
	// A write waiting for the locks of a stuck transaction never ends, so
	// waiting for the transactions in progress stops when one is stuck.
	done := make(chan struct{})
	go func() {
		g.running.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-g.stuckCh:
	}
	g.mu.Lock()
	stuck := g.stuck
	g.mu.Unlock()
	if stuck {
		g.log.Warn("workspace database left open: a damaged page stopped a transaction midway")
		return nil
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%w: closing it: %v", ErrCorrupt, r)
			}
		}()
		err = g.DB.Close()
	}()
	return err
}
