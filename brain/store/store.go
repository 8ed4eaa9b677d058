package store

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// DefaultTimeout is how long Open waits for another process to release the
// file before failing with ErrLocked.
const DefaultTimeout = time.Second

// FileName is the conventional name of the database inside a workspace's
// data folder; callers choose the full path.
const FileName = "wrasse.db"

// Options configure Open. The zero value is usable.
type Options struct {
	// Timeout bounds the wait for the file lock; 0 means DefaultTimeout.
	Timeout time.Duration
	// Clock stamps events and conversations; nil means time.Now.
	Clock func() time.Time
	// Logger receives warnings about damaged records and recovery; nil
	// discards them.
	Logger *slog.Logger
	// NoSync skips the fsync of each commit, to generate benchmark
	// workspaces quickly; a crash may then lose or damage the file.
	NoSync bool
	// Backups is the folder of automatic backups (backup.go): one a day
	// and one before each schema upgrade, the last BackupsKept kept. ""
	// makes none.
	Backups string
	// OnStorage, when set, learns when writes stop working or start
	// again: err wraps ErrDiskFull when a write failed for lack of space
	// (once, until one works again), is nil when one works again, and
	// wraps ErrCorrupt when damage was found (then writes are refused for
	// good). It runs on the goroutine that wrote and must return quickly.
	OnStorage func(err error)
	// CachedConversations is how many conversations' decoded events
	// Events keeps in memory (evcache.go); 0 means
	// DefaultCachedConversations, a negative number none.
	CachedConversations int

	// fullCheck overrides FullCheckSize (tests: a negative value makes
	// every file get the quick check).
	fullCheck int64
}

// DB is an open workspace database. Its methods are safe for concurrent use;
// each is one transaction.
type DB struct {
	bolt *guard
	path string
	// backups is the folder of automatic backups ("" for none).
	backups  string
	backupWG sync.WaitGroup // the daily backup in progress
	created  bool           // Open made the file
	now      func() time.Time
	log      *slog.Logger

	mu       sync.RWMutex
	secrets  map[string]string // the stored secrets, as last read
	extra    []redaction       // values added with AddRedaction
	redactor *Redactor         // rebuilt whenever either changes

	// streamMu serialises streaming writes with tails: the end of a
	// streaming reply that may be the start of a secret, held in memory
	// (never written) until the next piece shows whether it is one.
	streamMu sync.Mutex
	tails    map[[16]byte]string

	// cache keeps recently read conversations' events decoded.
	cache *eventCache
	// convReads and historyReads count GetConversation and Events (Reads).
	convReads, historyReads atomic.Uint64
}

// Reads counts what a DB has read of its conversations since it opened:
// records (GetConversation) and whole histories (Events). A turn should
// read each once; tests and benchmarks check it with these.
type Reads struct {
	Conversations, Histories uint64
}

// Reads returns the reads counted so far.
func (d *DB) Reads() Reads {
	return Reads{Conversations: d.convReads.Load(), Histories: d.historyReads.Load()}
}

// Open opens (creating if needed) the database at path. The parent folder is
// created with mode 0700 and the file with mode 0600.
//
// An existing file is checked before bbolt maps it (precheck: in full up
// to FullCheckSize, else quickly), so a damaged one fails with ErrCorrupt
// and one a newer Wrasse wrote with a *SchemaError (ErrNewerSchema), both
// without a byte of it changed. Open then creates missing buckets, runs
// migrations (after a backup when Options.Backups is set) and marks
// replies left streaming by a dead process as interrupted, in one write
// transaction, only when there is something to do: an open that finds
// nothing to change writes nothing (so a full disk still opens).
func Open(path string, opts Options) (*DB, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create workspace data folder: %w", err)
	}
	full := int64(FullCheckSize)
	if opts.fullCheck != 0 {
		full = opts.fullCheck
	}
	if err := checkFile(path, opts.Timeout, full); err != nil {
		return nil, err
	}
	b, err := openBolt(path, opts.Timeout)
	if err != nil {
		switch {
		case errors.Is(err, bolterrors.ErrTimeout):
			return nil, fmt.Errorf("%w: %s is locked by another process; close the other Wrasse or choose another workspace: %w", ErrLocked, path, err)
		case errors.Is(err, ErrCorrupt):
			return nil, err
		case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum),
			errors.Is(err, bolterrors.ErrVersionMismatch):
			return nil, fmt.Errorf("open %s: %w (it is damaged or not a Wrasse database): %w", path, ErrCorrupt, err)
		}
		return nil, fmt.Errorf("open workspace database %s: %w", path, err)
	}
	b.NoSync = opts.NoSync
	d := &DB{path: path, now: opts.Clock, log: opts.Logger, tails: map[[16]byte]string{}, backups: opts.Backups,
		cache: newEventCache(opts.CachedConversations)}
	d.bolt = newGuard(b, opts.Logger, filepath.Dir(path), opts.OnStorage)
	if err := d.tightenMode(); err != nil {
		_ = d.bolt.Close()
		return nil, err
	}
	if err := d.init(); err != nil {
		_ = d.bolt.Close()
		var se *SchemaError
		if errors.As(err, &se) {
			se.Path = path
			return nil, se
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if d.backups != "" && !d.created {
		// A new file has nothing to keep yet.
		d.backupIfDue()
	}
	return d, nil
}

// checkFile runs precheck on an existing file under the file's lock, so
// no other process writes it meanwhile; the lock is released for bbolt to
// take its own.
func checkFile(path string, timeout time.Duration, full int64) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := Lock(path, timeout)
	if err != nil {
		return err
	}
	defer unlock()
	return precheck(path, full)
}

// openBolt opens the file with bbolt, turning a panic or a fault in it
// into ErrCorrupt.
func openBolt(path string, timeout time.Duration) (b *bolt.DB, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("%w: %s (%v)", ErrCorrupt, path, r)
		}
	}()
	return bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout})
}

// tightenMode restores mode 0600 on a file that was created (or copied)
// with looser permissions: it holds secrets.
func (d *DB) tightenMode() error {
	fi, err := os.Stat(d.path)
	if err != nil {
		return fmt.Errorf("stat %s: %w", d.path, err)
	}
	if fi.Mode().Perm()&0o077 == 0 {
		return nil
	}
	d.log.Warn("workspace database was readable by others; restricting it to the owner", "path", d.path, "mode", fi.Mode().Perm())
	if err := os.Chmod(d.path, 0o600); err != nil {
		return fmt.Errorf("restrict permissions of %s: %w", d.path, err)
	}
	return nil
}

// openState is what init finds in the file before deciding to write.
type openState struct {
	missing   bool   // a bucket or a once-only start is missing (a new or older file)
	from      uint64 // the stored schema version
	streaming bool   // replies left streaming by a process that stopped
	secrets   map[string]string
}

func (d *DB) init() error {
	var st openState
	err := d.bolt.View(func(tx *bolt.Tx) error {
		for _, name := range allBuckets() {
			if tx.Bucket([]byte(name)) == nil {
				st.missing = true
			}
		}
		if meta := tx.Bucket([]byte(bucketMeta)); meta != nil {
			// The secret places are started once (assignMovedSecrets).
			st.missing = st.missing || meta.Get([]byte(keyPlacesStarted)) == nil
			if raw := meta.Get([]byte(keySchemaVersion)); raw != nil {
				v, ok := decodeU64(raw)
				if !ok {
					return fmt.Errorf("read %s/%s: %w", bucketMeta, keySchemaVersion, ErrCorrupt)
				}
				st.from = v
			}
		}
		if st.from > schemaVersion {
			return &SchemaError{Found: st.from, Supported: schemaVersion}
		}
		if sb := tx.Bucket([]byte(bucketStreaming)); sb != nil {
			k, _ := sb.Cursor().First()
			st.streaming = k != nil
		}
		if tx.Bucket([]byte(bucketSecrets)) != nil {
			var err error
			st.secrets, err = loadSecrets(tx)
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	upgrade := st.from != schemaVersion
	d.created = st.missing && st.from == 0
	if !st.missing && !upgrade && !st.streaming {
		d.setSecrets(st.secrets)
		return nil
	}
	if upgrade && st.from > 0 && d.backups != "" {
		if _, err := d.Backup(d.backups, BackupBeforeUpgrade); err != nil {
			return fmt.Errorf("back up the database before upgrading it from version %d to %d: %w", st.from, schemaVersion, err)
		}
	}
	var secrets map[string]string
	err = d.bolt.Update(func(tx *bolt.Tx) error {
		for _, name := range allBuckets() {
			if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		from, err := migrate(tx)
		if err != nil {
			return err
		}
		if from != schemaVersion {
			d.log.Info("workspace database schema upgraded", "from", from, "to", schemaVersion)
		}
		if err := assignMovedSecrets(tx); err != nil {
			return fmt.Errorf("start the secret places: %w", err)
		}
		if secrets, err = loadSecrets(tx); err != nil {
			return err
		}
		// Built only when a reply is to be recovered: it is rarely needed.
		return d.recoverStreams(tx, sync.OnceValue(func() *Redactor { return NewRedactor(secrets) }))
	})
	if err != nil && errors.Is(err, ErrDiskFull) && !st.missing && !upgrade {
		// Only the replies cut off last time wanted marking: reading
		// needs no space, so the file opens and the next open marks them.
		d.log.Warn("replies cut off by a previous stop stay marked as streaming until there is space to mark them", "error", err)
		d.setSecrets(st.secrets)
		return nil
	}
	if err != nil {
		return err
	}
	d.setSecrets(secrets)
	return nil
}

// recoverStreams marks every reply still streaming as interrupted, with its
// stored pieces joined into its text (redacted again with red, the stored
// secrets). Only one process can hold the file, so at Open any such reply
// belongs to a process that stopped mid-stream.
func (d *DB) recoverStreams(tx *bolt.Tx, red func() *Redactor) error {
	sb := tx.Bucket([]byte(bucketStreaming))
	var replies [][]byte
	var stale [][]byte
	if err := sb.ForEach(func(k, _ []byte) error {
		switch len(k) {
		case 16:
			replies = append(replies, append([]byte(nil), k...))
		case 24:
			// A piece: read with its reply below, deleted with the rest.
		default:
			d.log.Warn("dropping malformed streaming index key", "key", fmt.Sprintf("%x", k))
			stale = append(stale, append([]byte(nil), k...))
		}
		return nil
	}); err != nil {
		return err
	}
	for _, k := range stale {
		if err := sb.Delete(k); err != nil {
			return err
		}
	}
	for _, k := range replies {
		id, seq, _ := decodeStreamKey(k)
		text := pieces(sb, id, seq)
		if err := deleteStream(sb, id, seq); err != nil {
			return err
		}
		eb := eventBucket(tx, id)
		if eb == nil {
			continue
		}
		raw := eb.Get(encodeU64(seq))
		if raw == nil {
			continue
		}
		e, err := decodeEvent(raw)
		if err != nil {
			d.log.Warn("cannot mark damaged reply as interrupted", "conversation", id.String(), "seq", seq, "err", err)
			continue
		}
		if e.Status != StatusStreaming {
			continue
		}
		e.Text = red().String(e.Text + text)
		e.Status = StatusInterrupted
		e.Seq = seq
		if err := putEvent(eb, id, e); err != nil {
			return err
		}
		d.log.Info("reply cut off by a previous stop marked interrupted", "conversation", id.String(), "seq", seq)
	}
	// Pieces whose reply lost its index key (none are written that way).
	var orphans [][]byte
	_ = sb.ForEach(func(k, _ []byte) error {
		orphans = append(orphans, append([]byte(nil), k...))
		return nil
	})
	for _, k := range orphans {
		if err := sb.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// Close releases the file, after a backup in progress. The DB must not be
// used afterwards. It never blocks on a transaction that damage stopped
// midway (see guard).
func (d *DB) Close() error {
	d.backupWG.Wait()
	d.cache.close()
	if err := d.bolt.Close(); err != nil {
		return fmt.Errorf("close workspace database: %w", err)
	}
	return nil
}

// Path is the database file's path.
func (d *DB) Path() string { return d.path }

// Damage is the damage found in the file while it was in use (wrapping
// ErrCorrupt), nil while none was. Once set, every write is refused.
func (d *DB) Damage() error { return d.bolt.Damage() }

// Redactor returns the redactor for the secrets stored now and the values
// added with AddRedaction. It is immutable; call again after either
// changes.
func (d *DB) Redactor() *Redactor {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.redactor
}

// AddRedaction redacts value as "[redacted:NAME]" from everything the store
// writes from now on, as if it were a stored secret, without storing it:
// for a key that comes from elsewhere, such as an environment variable. It
// lasts until Close. Adding the same name again adds another value (the
// same pair again is a no-op); values shorter than MinRedactLen are
// ignored, as for secrets.
func (d *DB) AddRedaction(name, value string) error {
	if !validName(name) {
		return fmt.Errorf("add redaction: %w: %q (use letters, digits, '_', '.', '-', up to %d characters)", ErrInvalidName, name, MaxNameLen)
	}
	if value == "" {
		return fmt.Errorf("add redaction %s: %w", name, ErrEmptyValue)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if slices.Contains(d.extra, redaction{name, value}) {
		return nil // set up again (a new agent): nothing to add
	}
	d.extra = append(d.extra, redaction{name, value})
	d.rebuildLocked()
	return nil
}

// setSecrets records the stored secrets just read and rebuilds the
// redactor.
func (d *DB) setSecrets(secrets map[string]string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.secrets = secrets
	d.rebuildLocked()
}

func (d *DB) rebuildLocked() {
	entries := slices.Clone(d.extra)
	for name, v := range d.secrets {
		entries = append(entries, redaction{name, v})
	}
	d.redactor = newRedactor(entries)
}

// stamp is the clock's time in UTC without the monotonic reading, so what
// is returned equals what is read back.
func (d *DB) stamp() time.Time { return d.now().UTC().Round(0) }
