package doctor

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

func now() time.Time {
	return time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
}

// workspaceWithBackup is a workspace with three conversations, a key and
// a daily backup of them, closed.
func workspaceWithBackup(t *testing.T) workspace.Workspace {
	t.Helper()
	a, err := assistant.Open(assistant.Options{Workspace: t.TempDir(), Clock: now})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.SetSecret("openai_api_key", "sk-page-0123456789abcdef"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		c, err := a.Engine().DB.CreateConversation("m")
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			if _, err := a.Engine().DB.AppendEvent(c.ID, store.Event{Type: store.EventUserMessage, Text: strings.Repeat("ferns in the shade ", 20+i)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := a.Engine().DB.Backup(a.Workspace().Backups(), store.BackupDaily); err != nil {
		t.Fatal(err)
	}
	ws := a.Workspace()
	a.Close()
	return ws
}

// damageRoot writes garbage over the newest root page of ws's database
// (the older meta page's root stays readable).
func damageRoot(t *testing.T, ws workspace.Workspace) {
	t.Helper()
	data, err := os.ReadFile(ws.Database())
	if err != nil {
		t.Fatal(err)
	}
	meta := func(i int, off int) uint64 { return binary.LittleEndian.Uint64(data[i*4096+16+off:]) }
	newest := 0
	if meta(1, 48) > meta(0, 48) {
		newest = 1
	}
	root := meta(newest, 16)
	for i := int(root) * 4096; i < int(root+1)*4096; i++ {
		data[i] = byte(i * 7)
	}
	if err := os.WriteFile(ws.Database(), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

type pageHarness struct {
	page   *Page
	win    fyne.Window
	opened int
}

func newPage(t *testing.T, ws workspace.Workspace, cause error) *pageHarness {
	t.Helper()
	t.Setenv("LANG", "en_US.UTF-8")
	test.NewTempApp(t)
	h := &pageHarness{}
	h.win = test.NewTempWindow(t, nil)
	h.page = New(Deps{Window: h.win, Do: func(fn func()) { fn() }, Go: func(fn func()) { fn() },
		Doctor: assistant.NewDoctor(ws, now, nil), Cause: cause,
		Open: func() error {
			h.opened++
			a, err := assistant.Open(assistant.Options{Workspace: ws.Root})
			if err != nil {
				return err
			}
			return a.Close()
		}})
	h.win.SetContent(h.page.Object())
	h.win.Resize(fyne.NewSize(900, 700))
	h.page.Refresh()
	return h
}

// TestPageSalvages: the page says the database is damaged, what can still
// be read, and salvages it; then the workspace opens.
func TestPageSalvages(t *testing.T) {
	ws := workspaceWithBackup(t)
	damageRoot(t, ws)
	_, cause := assistant.Open(assistant.Options{Workspace: ws.Root})
	if !errors.Is(cause, store.ErrCorrupt) {
		t.Fatalf("Open = %v, want ErrCorrupt", cause)
	}
	h := newPage(t, ws, cause)
	p := h.page
	if p.title.Text != "Wrasse's database is damaged" || p.problems.Hidden || !strings.Contains(p.problems.Text, "root: page") {
		t.Fatalf("title %q, problems %q", p.title.Text, p.problems.Text)
	}
	if !strings.Contains(p.readable.Text, "3 conversations") || !strings.Contains(p.readable.Text, "1 key") {
		t.Fatalf("readable: %q", p.readable.Text)
	}
	if !p.salvageCard.Visible() || len(p.backups.Objects) != 1 || !p.openBtn.Hidden {
		t.Fatalf("salvage shown %v, %d backups listed, open shown %v", p.salvageCard.Visible(), len(p.backups.Objects), p.openBtn.Visible())
	}
	test.Tap(p.salvage)
	if !strings.HasPrefix(p.summary.Text, "Salvaged 3 conversations") || !strings.Contains(p.summary.Text, "kept as") ||
		p.actions.Visible() || p.problems.Visible() || !p.openBtn.Visible() || p.title.Text != "Wrasse can open its database again" {
		t.Fatalf("after Salvage: %q %q (actions shown %v)", p.title.Text, p.summary.Text, p.actions.Visible())
	}
	test.Tap(p.openBtn)
	if h.opened != 1 || strings.Contains(p.outcome.Text, "still cannot") {
		t.Fatalf("Open ran %d times, outcome %q", h.opened, p.outcome.Text)
	}
}

// TestPageNewerSchemaRestores: a database from a newer Wrasse gets the
// same page with both versions and no salvage; restoring a backup works.
func TestPageNewerSchemaRestores(t *testing.T) {
	ws := workspaceWithBackup(t)
	b, err := bolt.Open(ws.Database(), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Update(func(tx *bolt.Tx) error {
		v := make([]byte, 8)
		binary.BigEndian.PutUint64(v, store.SchemaVersion+2)
		return tx.Bucket([]byte("meta")).Put([]byte("schema_version"), v)
	}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	_, cause := assistant.Open(assistant.Options{Workspace: ws.Root})
	h := newPage(t, ws, cause)
	p := h.page
	if p.title.Text != "This database is from a newer Wrasse" || p.salvageCard.Visible() || p.readable.Visible() {
		t.Fatalf("title %q, salvage shown %v", p.title.Text, p.salvageCard.Visible())
	}
	if want := fmt.Sprintf("database version %d; this one reads up to %d", store.SchemaVersion+2, store.SchemaVersion); !strings.Contains(p.summary.Text, want) {
		t.Fatalf("summary %q, want %q", p.summary.Text, want)
	}
	list, _ := assistant.NewDoctor(ws, now, nil).Backups()
	p.Restore(list[0].Name)
	if !strings.HasPrefix(p.summary.Text, "Restored the backup of") || !p.openBtn.Visible() {
		t.Fatalf("after Restore: %q", p.summary.Text)
	}
	test.Tap(p.openBtn)
	if h.opened != 1 || strings.Contains(p.outcome.Text, "still cannot") {
		t.Fatalf("Open after restore: %q", p.outcome.Text)
	}
	// The newer file is kept, set aside.
	after, _ := assistant.NewDoctor(ws, now, nil).Backups()
	aside := 0
	for _, b := range after {
		if b.Kind == store.BackupSetAside {
			aside++
		}
	}
	if aside != 1 {
		t.Fatalf("backups after restore %+v, want the newer file set aside", after)
	}
}

// TestPageStartsAfresh: Start afresh asks first, then leaves an empty
// database; the damaged one is listed among the backups.
func TestPageStartsAfresh(t *testing.T) {
	ws := workspaceWithBackup(t)
	if err := os.WriteFile(ws.Database(), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, cause := assistant.Open(assistant.Options{Workspace: ws.Root})
	h := newPage(t, ws, cause)
	p := h.page
	if p.salvageCard.Visible() || !strings.Contains(p.problems.Text, "empty (0 bytes)") {
		t.Fatalf("an empty file: salvage shown %v, problems %q", p.salvageCard.Visible(), p.problems.Text)
	}
	test.Tap(p.fresh)
	if p.outcome.Visible() || p.openBtn.Visible() {
		t.Fatal("Start afresh acted without asking")
	}
	if _, err := os.Stat(ws.Database()); err != nil {
		t.Fatalf("Start afresh moved the database before it was confirmed: %v", err)
	}
	p.Fresh()
	if !strings.HasPrefix(p.summary.Text, "Wrasse starts with an empty database") {
		t.Fatalf("after Fresh: %q", p.summary.Text)
	}
	if _, err := os.Stat(ws.Database()); !os.IsNotExist(err) {
		t.Fatalf("the database is still in place: %v", err)
	}
}

// TestNotices: a broken config.json shows its banner until Repair, a
// full disk shows its banner until writes work again, and damage goes to
// OnDamage.
func TestNotices(t *testing.T) {
	t.Setenv("LANG", "en_US.UTF-8")
	app := test.NewTempApp(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfg, []byte("{\"model\": \"qwen\",\n oops}"), 0o600); err != nil {
		t.Fatal(err)
	}
	core, err := assistant.Open(assistant.Options{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	env := &bridge.Env{App: app, Window: test.NewTempWindow(t, nil), Core: core,
		Do: func(fn func()) { fn() }, Go: func(fn func()) { fn() }}
	n := NewNotices(env)
	defer n.Close()
	var damage []error
	n.OnDamage = func(err error) { damage = append(damage, err) }
	if got := n.Showing(); len(got) != 1 || !strings.Contains(got[0], "config.json:2:2") {
		t.Fatalf("banners %q, want the config problem with its position", got)
	}
	n.Repair()
	if got := n.Showing(); len(got) != 0 {
		t.Fatalf("banners after Repair: %q", got)
	}
	if _, err := os.Stat(cfg + ".broken"); err != nil {
		t.Fatal(err)
	}
	n.storage(store.ErrDiskFull)
	if got := n.Showing(); len(got) != 1 || !strings.Contains(got[0], "disk that holds your workspace is full") {
		t.Fatalf("banners on a full disk: %q", got)
	}
	n.storage(nil)
	if got := n.Showing(); len(got) != 0 {
		t.Fatalf("banners once writes work: %q", got)
	}
	n.storage(store.ErrDiskFull)
	// The close button is an icon: its tip says what it does.
	hide := n.disk.dismiss
	if hide.Tip == "" || hide.Icon != theme.CancelIcon() {
		t.Errorf("the banner's close button: icon %v, tip %q", hide.Icon, hide.Tip)
	}
	hide.OnTapped()
	if got := n.Showing(); len(got) != 0 {
		t.Errorf("banners after closing the disk notice: %q", got)
	}
	n.storage(store.ErrCorrupt)
	if len(damage) != 1 {
		t.Fatal("damage did not reach OnDamage")
	}
}
