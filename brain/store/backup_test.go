package store

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// dayClock is a clock a test moves by hand.
type dayClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *dayClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *dayClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func backupOptions(clock *dayClock, dir string) Options {
	return Options{Clock: clock.Now, Logger: slog.New(slog.DiscardHandler), Backups: dir}
}

// TestDailyBackupsRotate: an open makes a backup when the newest is a day
// old (none for a file it creates), each backup is a sound copy, and only
// the newest BackupsKept stay; set-aside files are never rotated away.
func TestDailyBackupsRotate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	backups := filepath.Join(dir, "backups")
	clock := &dayClock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	if err := os.MkdirAll(backups, 0o700); err != nil {
		t.Fatal(err)
	}
	aside := filepath.Join(backups, backupName(BackupSetAside, clock.Now().Add(-72*time.Hour)))
	if err := os.WriteFile(aside, []byte("kept"), 0o600); err != nil {
		t.Fatal(err)
	}
	opens := []struct {
		after time.Duration // since the previous open
		want  int           // automatic backups after this open
	}{
		{0, 0}, // creates the file: nothing to keep yet
		{time.Hour, 1},
		{time.Hour, 1}, // the newest is an hour old
		{25 * time.Hour, 2},
		{24 * time.Hour, 3}, {24 * time.Hour, 4}, {24 * time.Hour, 5}, {24 * time.Hour, 6}, {24 * time.Hour, 7},
		{24 * time.Hour, 7}, {48 * time.Hour, 7},
	}
	for i, o := range opens {
		clock.add(o.after)
		db, err := Open(path, backupOptions(clock, backups))
		if err != nil {
			t.Fatal(err)
		}
		c, err := db.CreateConversation("m")
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		list, err := ListBackups(backups)
		if err != nil {
			t.Fatal(err)
		}
		auto := 0
		for _, b := range list {
			if b.Kind != BackupSetAside {
				auto++
			}
		}
		if auto != o.want {
			t.Fatalf("open %d: %d automatic backups, want %d: %+v", i, auto, o.want, list)
		}
		if o.want > 0 && i > 0 {
			newest := list[0]
			if newest.Kind != BackupDaily {
				t.Fatalf("newest backup %+v", newest)
			}
			d, err := Diagnose(newest.Path)
			// The backup is taken as the file was opened, before this
			// open's conversation.
			if err != nil || !d.Healthy() || d.Conversations > int(c.ID) {
				t.Fatalf("backup %s: %+v, %v", newest.Name, d, err)
			}
			if fi, _ := os.Stat(newest.Path); fi.Mode().Perm() != 0o600 {
				t.Fatalf("backup mode %v: it holds the secrets", fi.Mode().Perm())
			}
		}
	}
	if _, err := os.Stat(aside); err != nil {
		t.Fatalf("a set-aside database was rotated away: %v", err)
	}
}

// TestBackupBeforeUpgrade: a file of an older schema is copied, as it
// was, before the migration changes it.
func TestBackupBeforeUpgrade(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	backups := filepath.Join(dir, "backups")
	fixture(t, path, 3)
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketMeta)).Put([]byte(keySchemaVersion), encodeU64(2))
	}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	clock := &dayClock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	db, err := Open(path, backupOptions(clock, backups))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	list, err := ListBackups(backups)
	if err != nil || len(list) == 0 {
		t.Fatalf("backups %v, %v", list, err)
	}
	var before *Backup
	for i := range list {
		if list[i].Kind == BackupBeforeUpgrade {
			before = &list[i]
		}
	}
	if before == nil {
		t.Fatalf("no backup before the upgrade: %+v", list)
	}
	d, err := Diagnose(before.Path)
	if err != nil || d.Schema != 2 || d.Conversations != 3 || !d.Healthy() {
		t.Fatalf("the backup is not the file before the upgrade: %+v, %v", d, err)
	}
	if d, _ := Diagnose(path); d.Schema != schemaVersion {
		t.Fatalf("the file was not upgraded: schema %d", d.Schema)
	}
}

// TestRestore: a damaged database is replaced by a backup (checked
// first), and kept as a set-aside file as it was; a damaged backup is
// refused and nothing changes.
func TestRestore(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	backups := filepath.Join(dir, "backups")
	clock := &dayClock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	db, err := Open(path, backupOptions(clock, backups))
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := db.CreateConversation("kept")
	if err := db.SetSecret("anthropic_api_key", "sk-ant-restore-0123456789"); err != nil {
		t.Fatal(err)
	}
	bk, err := db.Backup(backups, BackupDaily)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateConversation("after the backup"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	sound, _ := os.ReadFile(path)
	damaged := garbage(sound, 4096, 0, 1)
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	// A damaged backup is refused.
	bad := filepath.Join(backups, backupName(BackupDaily, clock.Now().Add(time.Hour)))
	if err := os.WriteFile(bad, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(path, bad, backups, clock.Now()); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("restoring a damaged backup = %v, want ErrCorrupt", err)
	}
	sameBytes(t, path, damaged)
	clock.add(time.Minute)
	aside, err := Restore(path, bk.Path, backups, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	sameBytes(t, aside, damaged)
	db, err = Open(path, Options{Clock: clock.Now})
	if err != nil {
		t.Fatalf("the restored database does not open: %v", err)
	}
	defer db.Close()
	convs, _ := db.ListConversations()
	if len(convs) != 1 || convs[0].ID != kept.ID {
		t.Fatalf("restored conversations %+v, want only the one before the backup", convs)
	}
	if v, err := db.Secret("anthropic_api_key"); err != nil || v != "sk-ant-restore-0123456789" {
		t.Fatalf("secret after restore: %q, %v", v, err)
	}
}

// TestBackupOfDamagedFile: the daily backup's check finds damage the
// quick check at open could not see: no backup of it is kept (so the
// good ones are not rotated away by bad copies) and the database is
// marked damaged.
func TestBackupOfDamagedFile(t *testing.T) {
	sound := fixtureBytes(t, 12)
	l := findLayout(t, sound)
	path := writeFile(t, garbage(sound, l.pageSize, l.eventLeaves[0]))
	backups := filepath.Join(filepath.Dir(path), "backups")
	clock := &dayClock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	opts := backupOptions(clock, backups)
	opts.fullCheck = -1
	var notices []error
	opts.OnStorage = func(err error) { notices = append(notices, err) }
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	db.Close() // waits for the daily backup
	if list, _ := ListBackups(backups); len(list) != 0 {
		t.Fatalf("a damaged copy was kept as a backup: %+v", list)
	}
	if len(notices) != 1 || !errors.Is(notices[0], ErrCorrupt) {
		t.Fatalf("notices %v, want the damage", notices)
	}
}

// TestSetAsideWhileOpen: a database another handle holds is not moved.
func TestSetAsideWhileOpen(t *testing.T) {
	db, path, _ := openTest(t)
	if _, err := SetAside(path, filepath.Join(filepath.Dir(path), "b"), time.Now()); !errors.Is(err, ErrLocked) {
		t.Fatalf("SetAside of an open database = %v, want ErrLocked", err)
	}
	db.Close()
	aside, err := SetAside(path, filepath.Join(filepath.Dir(path), "b"), time.Now())
	if err != nil || aside == "" {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the database is still in place: %v", err)
	}
}
