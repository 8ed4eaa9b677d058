package assistant

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// databaseError gives a database Open refused the way out.
func databaseError(err error) error {
	switch {
	case errors.Is(err, store.ErrNewerSchema):
		return hint.With(err, hint.Hint{Action: "Update Wrasse, or restore a backup this version reads", Command: []string{"doctor"}})
	case errors.Is(err, store.ErrCorrupt):
		return hint.With(fmt.Errorf("%w; nothing was changed in it", err), store.DamageHint())
	}
	return err
}

// onStorage passes the database's storage notices on (EventStorage).
func (a *App) onStorage(err error) {
	if errors.Is(err, store.ErrCorrupt) {
		err = databaseError(err)
	}
	a.subs.publish(Event{Kind: EventStorage, Err: err})
}

// DatabaseDamage is the damage found in the database while it was in use
// (writes are refused since), nil while none was.
func (a *App) DatabaseDamage() error {
	if err := a.db.Damage(); err != nil {
		return databaseError(err)
	}
	return nil
}

// CheckDatabase reads the whole open database, page by page and record by
// record, on a consistent copy; writes go on meanwhile.
func (a *App) CheckDatabase() (store.Diagnosis, error) {
	return a.db.Check(a.ws.Backups())
}

// sweepTemporary removes the temporary files of atomic writes a kill cut
// short (config.json, the caches, the trash's records; the store sweeps
// its backups folder itself, before its daily backup starts writing
// there).
func (a *App) sweepTemporary() {
	removed, err := atomicfile.Sweep(a.ws.Root, filepath.Dir(a.ws.ManifestCache()), a.ws.Trash())
	if err != nil {
		a.log.Warn("removing temporary files of interrupted writes", "error", err)
	}
	for _, p := range removed {
		a.log.Info("removed the temporary file of an interrupted write", "file", p)
	}
}

// Doctor checks a workspace's database and offers the ways out when it
// cannot be used: salvage what can be read into a new database, start
// afresh, or restore a backup. It works without an App (Open failed) and
// takes the database file's lock for each action, so it refuses while a
// Wrasse holds the workspace (wrasse doctor then runs through it).
type Doctor struct {
	ws  workspace.Workspace
	now func() time.Time
	log *slog.Logger
}

// NewDoctor returns the Doctor of ws; clock and log may be nil.
func NewDoctor(ws workspace.Workspace, clock func() time.Time, log *slog.Logger) *Doctor {
	if clock == nil {
		clock = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Doctor{ws: ws, now: clock, log: log}
}

// Workspace is the workspace the Doctor looks after.
func (d *Doctor) Workspace() workspace.Workspace { return d.ws }

// Diagnose reads the whole database file without changing it (under its
// lock: ErrLocked while a Wrasse holds it).
func (d *Doctor) Diagnose() (store.Diagnosis, error) {
	unlock, err := store.Lock(d.ws.Database(), time.Second)
	if err != nil {
		return store.Diagnosis{}, err
	}
	defer unlock()
	return store.Diagnose(d.ws.Database())
}

// Backups lists the backups and set-aside databases, newest first.
func (d *Doctor) Backups() ([]store.Backup, error) { return store.ListBackups(d.ws.Backups()) }

// Fresh moves the database aside (into the backups folder, kept), so the
// next open starts an empty one; conversations, secrets and capability
// states start afresh. It returns where the old file went.
func (d *Doctor) Fresh() (string, error) {
	aside, err := store.SetAside(d.ws.Database(), d.ws.Backups(), d.now())
	if err == nil && aside != "" {
		d.log.Warn("workspace database set aside; a new one starts", "kept", aside)
	}
	return aside, err
}

// Salvage copies what can be read into a new database that takes the
// damaged one's place (kept in the backups folder).
func (d *Doctor) Salvage() (store.SalvageReport, error) {
	rep, err := store.Salvage(d.ws.Database(), d.ws.Backups(), store.Options{Clock: d.now, Logger: d.log})
	if err == nil {
		d.log.Warn("workspace database salvaged", "conversations", rep.Conversations, "events", rep.Events,
			"secrets", rep.Secrets, "lost", len(rep.Lost), "kept", rep.SetAside)
	}
	return rep, err
}

// Restore puts the backup named name (a name Backups lists; "" for the
// newest automatic one) in the database's place; the database it
// replaces is kept in the backups folder. It returns the backup used and
// where the replaced file went.
func (d *Doctor) Restore(name string) (store.Backup, string, error) {
	list, err := d.Backups()
	if err != nil {
		return store.Backup{}, "", err
	}
	var pick *store.Backup
	for i, b := range list {
		if (name == "" && b.Kind != store.BackupSetAside) || (name != "" && (b.Name == name || b.Path == name)) {
			pick = &list[i]
			break
		}
	}
	if pick == nil {
		if name == "" {
			return store.Backup{}, "", fmt.Errorf("restore: %w: there is no automatic backup in %s", store.ErrNotFound, d.ws.Backups())
		}
		return store.Backup{}, "", hint.With(fmt.Errorf("restore: %w: no backup named %q in %s", store.ErrNotFound, name, d.ws.Backups()),
			hint.Hint{Action: "List the backups", Command: []string{"doctor", "--list-backups"}})
	}
	aside, err := store.Restore(d.ws.Database(), pick.Path, d.ws.Backups(), d.now())
	if err == nil {
		d.log.Warn("workspace database restored from a backup", "backup", pick.Path, "kept", aside)
	}
	return *pick, aside, err
}
