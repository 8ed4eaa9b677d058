package cerebellum_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/cerebellum/stage"
)

// treeHash hashes every path, mode and content under root, so a test can
// prove a rejected install left the workspace byte-identical.
func treeHash(t *testing.T, root string) string {
	t.Helper()
	h := sha256.New()
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		paths = append(paths, p)
		return nil
	})
	sort.Strings(paths)
	for _, p := range paths {
		info, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		h.Write([]byte(rel + "\x00" + info.Mode().String() + "\x00"))
		if info.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			h.Write(data)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func zipOf(t *testing.T, path string, files map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w, _ := zw.Create(n)
		w.Write([]byte(files[n]))
	}
	zw.Close()
	writeFile(t, path, buf.String())
}

// installEnv is a registry with an installed capability and a built-in to collide with.
func installEnv(t *testing.T) *env {
	e := newEnv(t)
	e.addBuiltin("web", skill("web", "Fetch pages.", "web_fetch"), true)
	e.addWorkspace("notes", skill("notes", "Take notes.", "notes_add"), true)
	return e
}

func TestInstallRejectsHostileAndBrokenInputs(t *testing.T) {
	e := installEnv(t)
	r := e.open()
	inputs := t.TempDir()
	validation := []struct {
		name  string
		make  func(dir string) string
		want  string
		isErr error
	}{
		{"broken yaml", func(d string) string {
			p := filepath.Join(d, "broken", "SKILL.md")
			writeFile(t, p, "---\nname: broken\ndescription: a: b\n---\n")
			return filepath.Dir(p)
		}, "SKILL.md:3:14: YAML", cerebellum.ErrInvalidCapability},
		{"missing description", func(d string) string {
			p := filepath.Join(d, "nodesc.md")
			writeFile(t, p, "---\nname: nodesc\n---\nbody\n")
			return p
		}, "description: required", cerebellum.ErrInvalidCapability},
		{"name taken by built-in", func(d string) string {
			p := filepath.Join(d, "web.md")
			writeFile(t, p, skill("web", "Mine."))
			return p
		}, "ships with Wrasse", cerebellum.ErrInvalidCapability},
		{"name already installed", func(d string) string {
			p := filepath.Join(d, "notes.md")
			writeFile(t, p, skill("notes", "Again."))
			return p
		}, `notes is already installed; to put this version in its place, install it again replacing the installed one`, cerebellum.ErrExists},
		{"tool collides with built-in", func(d string) string {
			dir := filepath.Join(d, "fetcher")
			writeFile(t, filepath.Join(dir, "SKILL.md"), skill("fetcher", "F.", "web_fetch"))
			writeFile(t, filepath.Join(dir, "plugin", "main.go"), pluginSrc)
			return dir
		}, "web_fetch (already provided by web)", cerebellum.ErrInvalidCapability},
		{"tool collides with installed", func(d string) string {
			dir := filepath.Join(d, "jotter")
			writeFile(t, filepath.Join(dir, "SKILL.md"), skill("jotter", "J.", "notes_add"))
			writeFile(t, filepath.Join(dir, "plugin", "main.go"), pluginSrc)
			return dir
		}, "notes_add (already provided by notes)", cerebellum.ErrInvalidCapability},
		{"lone SKILL.md declaring tools", func(d string) string {
			p := filepath.Join(d, "toolsonly.md")
			writeFile(t, p, skill("toolsonly", "T.", "toolsonly_run"))
			return p
		}, "no plugin/*.go", cerebellum.ErrInvalidCapability},
		{"missing requirement", func(d string) string {
			p := filepath.Join(d, "needy.md")
			writeFile(t, p, "---\nname: needy\ndescription: N.\nrequires: [nothing-here]\n---\nx\n")
			return p
		}, "requires nothing-here, which is not installed", cerebellum.ErrInvalidCapability},
		{"schema that does not compile", func(d string) string {
			dir := filepath.Join(d, "schemy")
			writeFile(t, filepath.Join(dir, "SKILL.md"), "---\nname: schemy\ndescription: S.\ntools:\n  - name: schemy_run\n    description: R.\n    parameters:\n      type: object\n      properties:\n        p: {type: string, pattern: \"(unclosed\"}\n---\nx\n")
			writeFile(t, filepath.Join(dir, "plugin", "main.go"), pluginSrc)
			return dir
		}, "schemy_run: parameters", cerebellum.ErrInvalidCapability},
		{"zip with broken SKILL.md inside a folder", func(d string) string {
			p := filepath.Join(d, "bad.zip")
			zipOf(t, p, map[string]string{"bad/SKILL.md": "---\nname: bad\n---\n", "bad/references/a.md": "a"})
			return p
		}, "bad.zip:bad/SKILL.md", cerebellum.ErrInvalidCapability},
	}
	type tc struct {
		name, path, want string
		isErr            error
	}
	var cases []tc
	for _, v := range validation {
		cases = append(cases, tc{v.name, v.make(inputs), v.want, v.isErr})
	}
	// The hostile corpus of the staging package: every one must be refused here too.
	hostile, _ := filepath.Glob(filepath.Join("stage", "testdata", "hostile", "*"))
	sort.Strings(hostile)
	for _, p := range hostile {
		if strings.HasSuffix(p, ".golden") || strings.HasSuffix(p, ".txt.golden") {
			continue
		}
		cases = append(cases, tc{"hostile/" + filepath.Base(p), p, "", nil})
	}
	if len(cases) < 25 {
		t.Fatalf("only %d rejection cases", len(cases))
	}
	// Small size limits, as the staging package's own corpus tests use, so
	// the size cases stay small files.
	lim := stage.DefaultLimits()
	lim.MaxFileBytes, lim.MaxTotalBytes, lim.MaxSkillMD, lim.MaxFiles = 64<<10, 64<<10, 4<<10, 5
	before := treeHash(t, e.ws)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := manage.New(r, manage.Options{}).Install(context.Background(), c.path, manage.InstallOptions{Limits: &lim})
			if err == nil {
				t.Fatalf("installed %+v", res)
			}
			if c.isErr != nil && !errors.Is(err, c.isErr) {
				t.Errorf("error %v is not %v", err, c.isErr)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error lacks %q:\n%v", c.want, err)
			}
			if after := treeHash(t, e.ws); after != before {
				t.Fatalf("workspace changed after a rejected install")
			}
		})
	}
}

func TestInstallForms(t *testing.T) {
	e := installEnv(t)
	r := e.open()
	in := t.TempDir()
	ctx := context.Background()

	// A lone SKILL.md becomes a guide folder named after its name.
	lone := filepath.Join(in, "whatever.md")
	writeFile(t, lone, skill("recipes", "Cook things."))
	res, err := manage.New(r, manage.Options{}).Install(ctx, lone, manage.InstallOptions{})
	if err != nil || res.Name != "recipes" {
		t.Fatalf("lone SKILL.md: %+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(cerebellum.CapabilitiesDir(e.ws), "recipes", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	// A folder with a plugin.
	dir := filepath.Join(in, "src-folder")
	writeFile(t, filepath.Join(dir, "SKILL.md"), skill("timer", "Timers.", "timer_start"))
	writeFile(t, filepath.Join(dir, "plugin", "main.go"), pluginSrc)
	if _, err := manage.New(r, manage.Options{}).Install(ctx, dir, manage.InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	// A zip with one top-level folder and junk.
	z := filepath.Join(in, "pack.skill")
	zipOf(t, z, map[string]string{"pack/SKILL.md": skill("pack", "Packed."), "pack/references/r.md": "ref", "__MACOSX/._SKILL.md": "junk"})
	if _, err := manage.New(r, manage.Options{}).Install(ctx, z, manage.InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"recipes", "timer", "pack"} {
		c, err := r.Get(name)
		if err != nil || c.State != cerebellum.StateOK || c.Badge != cerebellum.BadgeUnknown {
			t.Fatalf("%s after install: %+v %v", name, c, err)
		}
	}
	if _, err := os.Stat(filepath.Join(cerebellum.CapabilitiesDir(e.ws), "pack", "__MACOSX")); err == nil {
		t.Fatal("junk was installed")
	}
	if _, err := os.Stat(cerebellum.StagingDir(e.ws)); !os.IsNotExist(err) {
		t.Fatalf("staging folder left behind: %v", err)
	}
}

func TestReplaceKeepsOldUntilNewValidates(t *testing.T) {
	e := installEnv(t)
	r := e.open()
	ctx := context.Background()
	in := t.TempDir()
	bad := filepath.Join(in, "notes-bad")
	writeFile(t, filepath.Join(bad, "SKILL.md"), "---\nname: notes\n---\n")
	before := treeHash(t, e.ws)
	if _, err := manage.New(r, manage.Options{}).Install(ctx, bad, manage.InstallOptions{Replace: true}); err == nil {
		t.Fatal("invalid replacement installed")
	}
	if treeHash(t, e.ws) != before {
		t.Fatal("a failed replace changed the workspace")
	}
	good := filepath.Join(in, "notes-good")
	writeFile(t, filepath.Join(good, "SKILL.md"), skill("notes", "Take better notes.", "notes_add", "notes_list"))
	writeFile(t, filepath.Join(good, "plugin", "main.go"), pluginSrc)
	if _, err := manage.New(r, manage.Options{}).Install(ctx, good, manage.InstallOptions{}); err == nil {
		t.Fatal("replaced without --replace")
	}
	res, err := manage.New(r, manage.Options{}).Install(ctx, good, manage.InstallOptions{Replace: true})
	if err != nil || !res.Replaced {
		t.Fatalf("replace: %+v %v", res, err)
	}
	if c, _ := r.Get("notes"); c.Description() != "Take better notes." || len(c.Tools()) != 2 {
		t.Fatalf("after replace: %+v", c)
	}
	// The old version went to the trash.
	items, _ := manage.New(r, manage.Options{}).Trash()
	if len(items) != 1 || items[0].Name != "notes" {
		t.Fatalf("trash: %+v", items)
	}
}

func TestRemoveRestoreAndTrashExpiry(t *testing.T) {
	e := installEnv(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: e.loader}, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := manage.New(r, manage.Options{}).Remove(ctx, "web"); !errors.Is(err, cerebellum.ErrReadOnly) {
		t.Fatalf("removing a built-in: %v", err)
	}
	if err := manage.New(r, manage.Options{}).Remove(ctx, "../notes"); !errors.Is(err, cerebellum.ErrNotFound) {
		t.Fatalf("path-like name: %v", err)
	}
	if err := manage.New(r, manage.Options{}).Enable("notes", nil); err != nil {
		t.Fatal(err)
	}
	if err := manage.New(r, manage.Options{}).Remove(ctx, "notes"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Get("notes"); !errors.Is(err, cerebellum.ErrNotFound) {
		t.Fatalf("still listed: %v", err)
	}
	if err := manage.New(r, manage.Options{}).Restore(ctx, "notes"); err != nil {
		t.Fatal(err)
	}
	if c, err := r.Get("notes"); err != nil || c.State != cerebellum.StateOK {
		t.Fatalf("restored: %+v %v", c, err)
	}
	// After 7 days the trash forgets it.
	manage.New(r, manage.Options{}).Remove(ctx, "notes")
	now = now.Add(manage.TrashRetention + time.Hour)
	if err := manage.New(r, manage.Options{}).Restore(ctx, "notes"); !errors.Is(err, cerebellum.ErrNotInTrash) {
		t.Fatalf("restore after expiry: %v", err)
	}
	if entries, _ := os.ReadDir(cerebellum.TrashDir(e.ws)); len(entries) != 0 {
		t.Fatalf("expired trash not purged: %d entries", len(entries))
	}
}

func TestEnableGrantsOnlyDeclaredPermissions(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("runner", "---\nname: runner\ndescription: R.\npermissions: [exec]\ntools:\n  - name: runner_go\n    description: Go.\n---\nx\n", true)
	e.addBuiltin("core-thing", "---\nname: core-thing\ndescription: C.\ncore: true\n---\nx\n", false)
	r := e.open()
	if err := manage.New(r, manage.Options{}).Enable("runner", []string{"network"}); err == nil || !strings.Contains(err.Error(), "does not declare network") {
		t.Fatalf("undeclared grant: %v", err)
	}
	if err := manage.New(r, manage.Options{}).Enable("runner", []string{"exec"}); err != nil {
		t.Fatal(err)
	}
	if c, _ := r.Get("runner"); strings.Join(c.Granted, ",") != "exec" {
		t.Fatalf("granted: %v", c.Granted)
	}
	if err := manage.New(r, manage.Options{}).Disable("runner"); err != nil {
		t.Fatal(err)
	}
	if c, _ := r.Get("runner"); c.State != cerebellum.StateDisabled || strings.Join(c.Granted, ",") != "exec" {
		t.Fatalf("disabled keeps grants: %+v", c)
	}
	if err := manage.New(r, manage.Options{}).Disable("core-thing"); !errors.Is(err, cerebellum.ErrReadOnly) {
		t.Fatalf("disabling core: %v", err)
	}
}

func TestResyncDiff(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("keep", skill("keep", "Keep.", "keep_run"), true)
	e.addWorkspace("change", skill("change", "Change.", "change_run"), true)
	e.addWorkspace("drop", skill("drop", "Drop.", "drop_run"), true)
	r := e.open()
	sess := r.NewSession("c", nil)
	ctx := context.Background()
	for _, tool := range []string{"keep_run", "change_run", "drop_run"} {
		if _, err := r.Call(ctx, sess, tool, []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	if d, _ := manage.New(r, manage.Options{}).Pending(); !d.Empty() {
		t.Fatalf("pending before edits: %+v", d)
	}
	capDir := cerebellum.CapabilitiesDir(e.ws)
	writeFile(t, filepath.Join(capDir, "change", "SKILL.md"), skill("change", "Changed.", "change_run"))
	os.RemoveAll(filepath.Join(capDir, "drop"))
	e.addWorkspace("fresh", skill("fresh", "Fresh."), false)
	pending, _ := manage.New(r, manage.Options{}).Pending()
	d, err := manage.New(r, manage.Options{}).Resync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := cerebellum.Diff{Added: []string{"fresh"}, Removed: []string{"drop"}, Changed: []string{"change"}}
	if strings.Join(d.Added, ",") != "fresh" || strings.Join(d.Removed, ",") != "drop" || strings.Join(d.Changed, ",") != "change" {
		t.Fatalf("diff %+v, want %+v", d, want)
	}
	if strings.Join(pending.Changed, ",") != "change" || strings.Join(pending.Removed, ",") != "drop" {
		t.Fatalf("pending %+v", pending)
	}
	// Unchanged keeps its instance; changed and removed were closed.
	e.loader.mu.Lock()
	closes := map[string]int{"keep": e.loader.closes["keep"], "change": e.loader.closes["change"], "drop": e.loader.closes["drop"]}
	e.loader.mu.Unlock()
	if closes["keep"] != 0 || closes["change"] != 1 || closes["drop"] != 1 {
		t.Fatalf("closes after resync: %v", closes)
	}
	// The conversation keeps its set minus what disappeared.
	names := r.LoadedNames(sess)
	if strings.Contains(strings.Join(names, ","), "drop") || !strings.Contains(strings.Join(names, ","), "keep") {
		t.Fatalf("loaded after resync: %v", names)
	}
	// The changed capability reloads on next use.
	r.Call(ctx, sess, "change_run", []byte(`{}`))
	e.loader.mu.Lock()
	loads := e.loader.loads["change"]
	keepLoads := e.loader.loads["keep"]
	e.loader.mu.Unlock()
	r.Call(ctx, sess, "keep_run", []byte(`{}`))
	if loads != 2 || keepLoads != 1 {
		t.Fatalf("loads: change %d keep %d", loads, keepLoads)
	}
}

func TestAuthoringInstallsDisabled(t *testing.T) {
	e := newEnv(t)
	data, err := os.ReadFile(filepath.Join("..", "brain", "cerebellum", "skills", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	e.addBuiltin("skills", string(data), false)
	r := e.open()
	sess := r.NewSession("c", nil)
	ctx := context.Background()
	draft := `{"skill_md":"---\nname: haiku\ndescription: Write haiku.\n---\nFive, seven, five.\n"}`
	res, err := r.Call(ctx, sess, "skill_validate", []byte(draft))
	if err != nil || res.IsError || !strings.Contains(res.Content, "haiku is valid") {
		t.Fatalf("validate: %+v %v", res, err)
	}
	res, err = r.Call(ctx, sess, "skill_validate", []byte(`{"skill_md":"---\nname: x\n---\n"}`))
	if err != nil || !res.IsError || !strings.Contains(res.Content, "description: required") {
		t.Fatalf("validate broken: %+v %v", res, err)
	}
	res, err = r.Call(ctx, sess, "skill_create", []byte(draft))
	if err != nil || res.IsError || !strings.Contains(res.Content, "DISABLED") {
		t.Fatalf("create: %+v %v", res, err)
	}
	c, err := r.Get("haiku")
	if err != nil || c.State != cerebellum.StateDisabled || c.Badge != cerebellum.BadgeAuthored {
		t.Fatalf("authored capability: %+v %v", c, err)
	}
	// It cannot replace what the user installed.
	e.addWorkspace("mine", skill("mine", "Mine."), false)
	manage.New(r, manage.Options{}).Resync(ctx)
	res, _ = r.Call(ctx, sess, "skill_create", []byte(`{"replace":true,"skill_md":"---\nname: mine\ndescription: Hijack.\n---\nx\n"}`))
	if !res.IsError || !strings.Contains(res.Content, "already installed") {
		t.Fatalf("authoring replaced a user capability: %+v", res)
	}
	res, _ = r.Call(ctx, sess, "skill_create", []byte(`{"skill_md":"x","plugin_files":{"../evil.go":"package x"}}`))
	if !res.IsError {
		t.Fatalf("bad plugin file name accepted: %+v", res)
	}
	if _, err := os.Stat(cerebellum.StagingDir(e.ws)); !os.IsNotExist(err) {
		t.Fatalf("staging left behind: %v", err)
	}
}

func TestFolderNameDiffersFromName(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("myfolder", skill("realname", "Real.", "real_run"), true)
	e.addWorkspace("other", skill("other", "Other."), false)
	r := e.open()
	ctx := context.Background()
	if err := manage.New(r, manage.Options{}).Disable("realname"); err != nil {
		t.Fatal(err)
	}
	// Replacing by name trashes the right folder, never an unrelated one.
	in := t.TempDir()
	repl := filepath.Join(in, "realname")
	writeFile(t, filepath.Join(repl, "SKILL.md"), skill("realname", "Real v2.", "real_run"))
	writeFile(t, filepath.Join(repl, "plugin", "main.go"), pluginSrc)
	res, err := manage.New(r, manage.Options{}).Install(ctx, repl, manage.InstallOptions{Replace: true})
	if err != nil || !res.Replaced {
		t.Fatalf("replace: %+v %v", res, err)
	}
	if _, err := r.Get("other"); err != nil {
		t.Fatal("an unrelated capability went to the trash")
	}
	if c, _ := r.Get("realname"); c.Folder != "realname" || c.Description() != "Real v2." {
		t.Fatalf("after replace: %+v", c)
	}
	if _, err := os.Stat(filepath.Join(cerebellum.CapabilitiesDir(e.ws), "myfolder")); !os.IsNotExist(err) {
		t.Fatal("the old folder was not set aside")
	}
	// Remove and restore by name bring back the folder with its state.
	manage.New(r, manage.Options{}).Remove(ctx, "realname")
	if err := manage.New(r, manage.Options{}).Restore(ctx, "realname"); err != nil {
		t.Fatal(err)
	}
	c, _ := r.Get("realname")
	if c.Description() != "Real v2." {
		t.Fatalf("restored the wrong version: %q", c.Description())
	}
	// A guide whose folder differs from its name cannot take another's folder.
	writeFile(t, filepath.Join(in, "x.md"), skill("other-name", "X."))
	e.addWorkspace("other-name", skill("squatter", "S."), false)
	manage.New(r, manage.Options{}).Resync(ctx)
	if _, err := manage.New(r, manage.Options{}).Install(ctx, filepath.Join(in, "x.md"), manage.InstallOptions{}); err == nil || !strings.Contains(err.Error(), "used by the capability squatter") {
		t.Fatalf("folder squatting: %v", err)
	}
}

func TestRestoreRefusesCollisions(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("aaa", skill("aaa", "A.", "echo_it"), true)
	r := e.open()
	ctx := context.Background()
	if err := manage.New(r, manage.Options{}).Remove(ctx, "aaa"); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "zzz")
	writeFile(t, filepath.Join(in, "SKILL.md"), skill("zzz", "Z.", "echo_it"))
	writeFile(t, filepath.Join(in, "plugin", "main.go"), pluginSrc)
	if _, err := manage.New(r, manage.Options{}).Install(ctx, in, manage.InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	err := manage.New(r, manage.Options{}).Restore(ctx, "aaa")
	if err == nil || !strings.Contains(err.Error(), "echo_it (already provided by zzz)") {
		t.Fatalf("restore over a collision: %v", err)
	}
	if c, _ := r.Get("zzz"); c.State != cerebellum.StateOK {
		t.Fatalf("zzz broken by a refused restore: %s", c.Error)
	}
}

func TestGrantsLapseWhenCodeChangesAndCanBeRevoked(t *testing.T) {
	e := newEnv(t)
	md := "---\nname: runner\ndescription: R.\npermissions: [exec, network]\ntools:\n  - name: runner_go\n    description: Go.\n---\nx\n"
	e.addWorkspace("runner", md, true)
	r := e.open()
	ctx := context.Background()
	if err := manage.New(r, manage.Options{}).Enable("runner", []string{"exec", "network"}); err != nil {
		t.Fatal(err)
	}
	if err := manage.New(r, manage.Options{}).Revoke("runner", []string{"network"}); err != nil {
		t.Fatal(err)
	}
	if c, _ := r.Get("runner"); strings.Join(c.Granted, ",") != "exec" {
		t.Fatalf("after revoking network: %v", c.Granted)
	}
	// Editing the plugin code voids the grant until the user reviews it again.
	writeFile(t, filepath.Join(cerebellum.CapabilitiesDir(e.ws), "runner", "plugin", "main.go"), pluginSrc+"\n// changed\n")
	manage.New(r, manage.Options{}).Resync(ctx)
	c, _ := r.Get("runner")
	if len(c.Granted) != 0 {
		t.Fatalf("grant survived a code change: %v", c.Granted)
	}
	found := false
	for _, w := range c.Manifest.Warnings {
		found = found || strings.Contains(w.Message, "grant lapsed")
	}
	if !found {
		t.Fatalf("no warning about the lapsed grant: %v", c.Manifest.Warnings)
	}
	// A hand-made capability reusing a removed one's name gets none of its grants.
	manage.New(r, manage.Options{}).Enable("runner", []string{"exec"})
	os.RemoveAll(filepath.Join(cerebellum.CapabilitiesDir(e.ws), "runner"))
	manage.New(r, manage.Options{}).Resync(ctx)
	e.addWorkspace("runner", strings.Replace(md, "R.", "Impostor.", 1), true)
	manage.New(r, manage.Options{}).Resync(ctx)
	if c, _ := r.Get("runner"); len(c.Granted) != 0 {
		t.Fatalf("impostor inherited grants: %v", c.Granted)
	}
	if err := manage.New(r, manage.Options{}).Revoke("runner", nil); err != nil {
		t.Fatal(err)
	}
}
