package manage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/cerebellum/stage"
)

// TrashRetention is how long removed capabilities stay restorable.
const TrashRetention = 7 * 24 * time.Hour

// InstallOptions tune Install.
type InstallOptions struct {
	// Replace an installed capability of the same name.
	Replace bool
	// Authored marks a capability written by the assistant: installed
	// disabled, badge Authored, until the user enables it.
	Authored bool
	// Limits for archives and folders (zero: stage.DefaultLimits()).
	Limits *stage.Limits
	// Approved says the user wrote or approved what an MCP capability runs
	// (wrasse mcp add, the MCP servers page): it is enabled at once.
	// Otherwise an MCP capability (a drop, an archive, mcp import) installs
	// switched off, since its command is code run on the user's computer.
	Approved bool
	// only names the skill of a collection being installed (InstallCollection).
	only string
}

// InstallResult says what an install did.
type InstallResult struct {
	Name     string   `json:"name"`
	Folder   string   `json:"folder"`
	Replaced bool     `json:"replaced,omitempty"`
	Disabled bool     `json:"disabled,omitempty"`
	Ignored  []string `json:"ignored,omitempty"`
	Report   *Report  `json:"report"`
}

// Install adds a capability from a SKILL.md file, a folder, or a .zip/.skill
// archive. The input is staged in the workspace, validated completely, and
// only then renamed into place; a rejected install leaves the workspace as
// it was. Replacing keeps the old version until the new one has validated.
func (m *Manager) Install(ctx context.Context, input string, opt InstallOptions) (*InstallResult, error) {
	ws := m.reg.Workspace()
	if ws == "" {
		return nil, cerebellum.ErrNoWorkspace
	}
	lim := stage.DefaultLimits()
	if opt.Limits != nil {
		lim = *opt.Limits
	}
	stagingRoot := cerebellum.StagingDir(ws)
	if err := os.MkdirAll(stagingRoot, 0o700); err != nil {
		return nil, fmt.Errorf("prepare staging folder: %w", err)
	}
	// The staging root is ours alone; remove it when empty so a rejected
	// install leaves no trace.
	defer os.Remove(stagingRoot)
	st, err := stage.Stage(input, stagingRoot, lim)
	if err != nil {
		if c := surveyOnFailure(input, lim, err); c != nil {
			return nil, &CollectionError{Input: filepath.Base(input), Collection: c}
		}
		return nil, fmt.Errorf("install %s: %w", filepath.Base(input), err)
	}
	return m.installStaged(ctx, input, st, opt)
}

// installStaged validates a staged capability and renames it into place;
// the staging folder is gone when it returns.
func (m *Manager) installStaged(ctx context.Context, input string, st *stage.Staged, opt InstallOptions) (*InstallResult, error) {
	label := filepath.Base(input)
	if opt.only != "" {
		label = opt.only // one skill of a collection: messages name it
	}
	ws := m.reg.Workspace()
	defer os.RemoveAll(st.Dir)

	// Name the folder after the manifest's name (a lone SKILL.md has no folder).
	data, err := os.ReadFile(filepath.Join(st.Dir, "SKILL.md"))
	if err != nil {
		return nil, fmt.Errorf("install %s: read staged SKILL.md: %w", label, err)
	}
	folder, block := "", (*skillmd.MCPServer)(nil)
	if m, perr := skillmd.Parse(data, skillmd.Options{File: "SKILL.md"}); perr == nil {
		folder, block = m.Name, m.MCP
	} else {
		var pe *skillmd.Error
		if errors.As(perr, &pe) {
			for i := range pe.Problems {
				pe.Problems[i].File = displayInput(input, st)
			}
			return nil, fmt.Errorf("install %s: %w\n%s", label, cerebellum.ErrInvalidCapability, pe.Detail())
		}
		return nil, fmt.Errorf("install %s: %w", label, perr)
	}
	if opt.Authored {
		// The assistant cannot grant itself anything: no permissions either.
		opt.Replace = opt.Replace && m.isAuthored(folder)
	}
	rep := m.Validate(ctx, os.DirFS(st.Dir), folder, st.Dir, ValidateOptions{Replace: opt.Replace})
	if written := writtenFolder(input, st); written != "" && written != folder && rep.OK() {
		// The spec wants name and folder equal; installing renames the folder.
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: name: %q differs from its folder name %q; it is installed as %s", displayInput(input, st), folder, written, folder))
	}
	if !rep.OK() {
		if rep.Installed != "" && len(rep.Errors) == 1 {
			// The only problem is the name: say so plainly, not as a report.
			return nil, hint.With(fmt.Errorf("install %s: %w: %s is already installed; to put this version in its place, install it again replacing the installed one",
				label, cerebellum.ErrExists, rep.Installed), replaceOneHint(rep.Installed, input, opt.only))
		}
		err := fmt.Errorf("install %s: %w", label, rep.Err())
		if rep.Installed != "" {
			err = hint.With(err, replaceOneHint(rep.Installed, input, opt.only))
		}
		return nil, err
	}
	target := filepath.Join(cerebellum.CapabilitiesDir(ws), folder)
	res := &InstallResult{Name: rep.Name, Folder: folder, Ignored: st.Ignored, Report: rep}
	var old *cerebellum.Capability
	if rep.Replaces != "" {
		old, _ = m.reg.Snapshot().Get(rep.Replaces)
		if old == nil || old.Source != cerebellum.SourceWorkspace {
			return nil, fmt.Errorf("%w: %s", cerebellum.ErrReadOnly, rep.Replaces)
		}
		res.Replaced = true
	}
	if _, err := os.Lstat(target); err == nil && (old == nil || old.Folder != folder) {
		owner := "another capability"
		for _, c := range m.reg.List() {
			if c.Source == cerebellum.SourceWorkspace && c.Folder == folder {
				owner = "the capability " + c.Name
			}
		}
		return nil, fmt.Errorf("install %s: %w: the folder %s is used by %s; rename or remove that folder first", label, cerebellum.ErrExists, target, owner)
	}
	if err := os.MkdirAll(cerebellum.CapabilitiesDir(ws), 0o755); err != nil {
		return nil, err
	}
	var trashed string
	if old != nil {
		oldState, _ := m.hook.StoredState(old.Name)
		trashed, err = m.moveToTrash(old.Folder, old.Name, oldState)
		if err != nil {
			return nil, fmt.Errorf("install %s: set the old version aside: %w", folder, err)
		}
	}
	if err := os.Rename(st.Dir, target); err != nil {
		if trashed != "" {
			// Put the old version back: the install failed as a whole.
			if rerr := os.Rename(trashed, filepath.Join(cerebellum.CapabilitiesDir(ws), old.Folder)); rerr == nil {
				os.Remove(trashed + ".json")
			}
		}
		return nil, fmt.Errorf("install %s: move into place: %w", folder, err)
	}
	// A replacement keeps the stored state (grants lapse by code hash on
	// their own); a new install starts clean, an authored one disabled.
	waits := rep.Kind == cerebellum.KindMCP && !opt.Approved
	approved := rep.Kind == cerebellum.KindMCP && opt.Approved && !opt.Authored
	if opt.Authored || !res.Replaced || waits || approved {
		state := cerebellum.CapState{}
		if res.Replaced && !opt.Authored {
			state, _ = m.hook.StoredState(rep.Name)
		}
		if opt.Authored {
			state = cerebellum.CapState{Disabled: true, Authored: true}
			res.Disabled = true
		}
		if waits {
			state.Disabled = true
			res.Disabled = true
		}
		if approved {
			// The person wrote or confirmed this block's command (mcp add),
			// as installed: with the files it runs from its folder.
			state.Launch = cerebellum.ApprovalKey(block, target)
		}
		if err := m.hook.StoreState(rep.Name, state); err != nil {
			return res, fmt.Errorf("installed %s but could not save its state: %w", rep.Name, err)
		}
	}
	if _, err := m.hook.Resync(ctx); err != nil {
		return res, err
	}
	return res, nil
}

// replaceOneHint is replaceHint for an install, or for one skill of a
// collection (only).
func replaceOneHint(name, input, only string) hint.Hint {
	h := replaceHint(name, input)
	if only != "" {
		h.Command = []string{"caps", "install", input, "--only", only, "--replace"}
	}
	return h
}

// writtenFolder is the folder name the author gave the capability (""
// for a lone SKILL.md or an archive with SKILL.md at its top).
func writtenFolder(input string, st *stage.Staged) string {
	switch {
	case st.Root != "":
		return path.Base(st.Root)
	case st.Kind == stage.KindFolder:
		return filepath.Base(input)
	}
	return ""
}

// surveyOnFailure returns the collection an input is, when staging it as
// one capability failed and it holds more than one skill.
func surveyOnFailure(input string, lim stage.Limits, err error) *stage.Collection {
	var se *stage.Error
	if !errors.As(err, &se) || errors.Is(err, stage.ErrUnsafePath) || errors.Is(err, stage.ErrCorrupt) {
		return nil
	}
	c, serr := stage.Survey(input, lim)
	if serr != nil || len(c.Skills) < 2 {
		return nil
	}
	return c
}

// CollectionError says an input holds several skills and names them.
type CollectionError struct {
	Input      string
	Collection *stage.Collection
}

func (e *CollectionError) Error() string {
	return fmt.Sprintf("install %s: %v: %s; install all of them, or choose which", e.Input, cerebellum.ErrCollection, strings.Join(e.Collection.Names(), ", "))
}

func (e *CollectionError) Unwrap() error { return cerebellum.ErrCollection }

// Survey lists the skills an input holds (see stage.Survey), without
// writing anything.
func (m *Manager) Survey(input string, lim *stage.Limits) (*stage.Collection, error) {
	l := stage.DefaultLimits()
	if lim != nil {
		l = *lim
	}
	c, err := stage.Survey(input, l)
	if err != nil {
		return nil, fmt.Errorf("survey %s: %w", filepath.Base(input), err)
	}
	return c, nil
}

// CollectionItem is the outcome of installing one skill of a collection.
type CollectionItem struct {
	Root   string         `json:"root"`
	Name   string         `json:"name"`
	Result *InstallResult `json:"result,omitempty"`
	Err    error          `json:"-"`
	Error  string         `json:"error,omitempty"`
}

// InstallCollection installs skills of a collection, each staged,
// validated and installed on its own, so one bad skill does not stop the
// others. only picks skills by name or root (as Survey lists them); empty
// means all. A name that matches nothing fails before anything is
// installed; otherwise the error is nil and each item says how it went.
func (m *Manager) InstallCollection(ctx context.Context, input string, only []string, opt InstallOptions) ([]CollectionItem, error) {
	ws := m.reg.Workspace()
	if ws == "" {
		return nil, cerebellum.ErrNoWorkspace
	}
	lim := stage.DefaultLimits()
	if opt.Limits != nil {
		lim = *opt.Limits
	}
	c, err := m.Survey(input, &lim)
	if err != nil {
		return nil, err
	}
	picked, err := pick(c, only, filepath.Base(input))
	if err != nil {
		return nil, err
	}
	stagingRoot := cerebellum.StagingDir(ws)
	if err := os.MkdirAll(stagingRoot, 0o700); err != nil {
		return nil, fmt.Errorf("prepare staging folder: %w", err)
	}
	defer os.Remove(stagingRoot)
	items := make([]CollectionItem, 0, len(picked))
	for _, f := range picked {
		it := CollectionItem{Root: f.Root, Name: f.Name}
		var st *stage.Staged
		err := f.Problem // what the survey refused is never staged
		if err == nil {
			st, err = stage.StageRoot(input, stagingRoot, f.Root, lim)
		}
		if err == nil {
			one := opt
			one.only = f.Name
			it.Result, err = m.installStaged(ctx, input, st, one)
		} else {
			err = fmt.Errorf("install %s: %w", f.Name, err)
		}
		if it.Result != nil {
			it.Name = it.Result.Name
		}
		if err != nil {
			it.Err, it.Error = err, err.Error()
		}
		items = append(items, it)
	}
	return items, nil
}

// pick chooses the skills named in only (all when empty).
func pick(c *stage.Collection, only []string, input string) ([]stage.Found, error) {
	if len(only) == 0 {
		return c.Skills, nil
	}
	var out []stage.Found
	var missing []string
	for _, want := range only {
		// A root names one skill; only a want that is no root picks by
		// name (several skills may share one: each folder's own name).
		match := func(f stage.Found) bool { return f.Root == want }
		if !slices.ContainsFunc(c.Skills, match) {
			match = func(f stage.Found) bool { return f.Name == want }
		}
		found := false
		for _, f := range c.Skills {
			if !match(f) {
				continue
			}
			found = true
			if !slices.ContainsFunc(out, func(g stage.Found) bool { return g.Root == f.Root }) {
				out = append(out, f)
			}
		}
		if !found {
			missing = append(missing, want)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: %s holds %s, not %s", cerebellum.ErrNotInCollection, input, strings.Join(c.Names(), ", "), strings.Join(missing, ", "))
	}
	return out, nil
}

// displayInput names the staged SKILL.md as the user knows it: a file, a
// file in a folder, or an entry of an archive.
func displayInput(input string, st *stage.Staged) string {
	base := filepath.Base(input)
	inner := "SKILL.md"
	if st.Root != "" {
		inner = st.Root + "/SKILL.md"
	}
	switch st.Kind {
	case stage.KindSkillFile:
		return base
	case stage.KindFolder:
		return base + "/" + inner
	}
	return base + ":" + inner
}

func (m *Manager) isAuthored(name string) bool {
	c, ok := m.reg.Snapshot().Get(name)
	return ok && c.Badge == cerebellum.BadgeAuthored
}

// trashMeta is written beside each trashed folder.
type trashMeta struct {
	Name      string              `json:"name"`
	Folder    string              `json:"folder"`
	RemovedAt time.Time           `json:"removedAt"`
	State     cerebellum.CapState `json:"state"`
}

// Remove moves an installed (Unknown or Authored) capability to the trash,
// restorable for TrashRetention.
func (m *Manager) Remove(ctx context.Context, name string) error {
	c, err := m.reg.Get(name)
	if err != nil {
		return err
	}
	if c.Source != cerebellum.SourceWorkspace {
		if c.Core {
			return cerebellum.CoreError(c.Name)
		}
		return hint.With(fmt.Errorf("%w: %s ships with Wrasse, so it cannot be removed; it can be switched off", cerebellum.ErrReadOnly, c.Name), disableHint(c.Name))
	}
	state, _ := m.hook.StoredState(c.Name)
	if _, err := m.moveToTrash(c.Folder, c.Name, state); err != nil {
		return err
	}
	if err := m.hook.ForgetState(c.Name); err != nil {
		m.hook.Logger().Warn("forget state of removed capability", "capability", c.Name, "error", err)
	}
	_, err = m.hook.Resync(ctx)
	return err
}

// moveToTrash renames a direct child of the capabilities folder into the
// trash, recording the capability's name and state beside it, and returns
// its new path.
func (m *Manager) moveToTrash(folder, name string, state cerebellum.CapState) (string, error) {
	ws := m.reg.Workspace()
	base := cerebellum.CapabilitiesDir(ws)
	if !plainFolderName(folder) {
		return "", fmt.Errorf("%w: %q is not a capability folder", cerebellum.ErrOutsideFolder, folder)
	}
	src := filepath.Join(base, folder)
	info, err := os.Lstat(src)
	if err != nil {
		return "", fmt.Errorf("remove %s: %w", folder, err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("remove %s: not a folder", folder)
	}
	if err := os.MkdirAll(cerebellum.TrashDir(ws), 0o700); err != nil {
		return "", err
	}
	now := m.hook.Now()
	dst := filepath.Join(cerebellum.TrashDir(ws), fmt.Sprintf("%s-%d", folder, now.UnixNano()))
	// The record is written whole first: a restore relies on it.
	if err := atomicfile.WriteJSON(dst+".json", trashMeta{Name: name, Folder: folder, RemovedAt: now.UTC(), State: state}, 0o600); err != nil {
		return "", fmt.Errorf("move %s to the trash: %w", folder, err)
	}
	if err := os.Rename(src, dst); err != nil {
		os.Remove(dst + ".json")
		return "", fmt.Errorf("move %s to the trash: %w", folder, err)
	}
	return dst, nil
}

// plainFolderName guards every path built from a folder name: a direct
// child of brain/cerebellum, never one that leads elsewhere.
func plainFolderName(folder string) bool {
	return folder != "" && folder != "." && folder != ".." && !strings.ContainsAny(folder, `/\:`) &&
		filepath.Base(folder) == folder && !strings.HasPrefix(folder, ".")
}

// Trashed is one restorable capability.
type Trashed struct {
	Name      string    `json:"name"`
	Folder    string    `json:"folder"`
	RemovedAt time.Time `json:"removedAt"`
	path      string
	state     cerebellum.CapState
}

// Trash lists restorable capabilities, newest first, and deletes those
// older than TrashRetention.
func (m *Manager) Trash() ([]Trashed, error) {
	dir := cerebellum.TrashDir(m.reg.Workspace())
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Trashed
	now := m.hook.Now()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		metaPath := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(metaPath)
		if err != nil {
			continue
		}
		var m trashMeta
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		path := strings.TrimSuffix(metaPath, ".json")
		if now.Sub(m.RemovedAt) > TrashRetention {
			os.RemoveAll(path)
			os.Remove(metaPath)
			continue
		}
		if _, err := os.Stat(path); err != nil {
			continue
		}
		out = append(out, Trashed{Name: m.Name, Folder: m.Folder, RemovedAt: m.RemovedAt, path: path, state: m.State})
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].RemovedAt.Equal(out[j].RemovedAt) {
			return out[i].RemovedAt.After(out[j].RemovedAt)
		}
		return out[i].path > out[j].path
	})
	return out, nil
}

// Restore puts the most recently removed capability of that name back.
func (m *Manager) Restore(ctx context.Context, name string) error {
	items, err := m.Trash()
	if err != nil {
		return err
	}
	for _, it := range items {
		if it.Name != name && it.Folder != name {
			continue
		}
		if !plainFolderName(it.Folder) {
			return fmt.Errorf("%w: %q is not a capability folder", cerebellum.ErrOutsideFolder, it.Folder)
		}
		target := filepath.Join(cerebellum.CapabilitiesDir(m.reg.Workspace()), it.Folder)
		if _, err := os.Lstat(target); err == nil {
			return fmt.Errorf("%w: the folder %s is in use again; remove it before restoring the old one", cerebellum.ErrExists, it.Folder)
		}
		// What was installed since may collide with it: check as an install would.
		if rep := m.Validate(ctx, os.DirFS(it.path), it.Folder, it.path, ValidateOptions{}); !rep.OK() {
			return fmt.Errorf("restore %s: %w", name, rep.Err())
		}
		if err := os.Rename(it.path, target); err != nil {
			return fmt.Errorf("restore %s: %w", name, err)
		}
		os.Remove(it.path + ".json")
		if err := m.hook.StoreState(it.Name, it.state); err != nil {
			return err
		}
		_, err := m.hook.Resync(ctx)
		return err
	}
	var names []string
	for _, it := range items {
		if !slices.Contains(names, it.Name) {
			names = append(names, it.Name)
		}
	}
	err = fmt.Errorf("%w: %q was not removed in the last 7 days, and only removed capabilities can be restored", cerebellum.ErrNotInTrash, name)
	if len(names) == 0 {
		return fmt.Errorf("%w; nothing is restorable now", err)
	}
	err = fmt.Errorf("%w; restorable now: %s", err, strings.Join(names, ", "))
	if close := hint.Closest(name, names, 1); len(close) > 0 {
		return hint.With(err, restoreHint(close[0]))
	}
	return err
}

// Sweep removes what an interrupted install or authoring left in the
// staging folder, and removed capabilities past TrashRetention. Call it
// only while holding the workspace (the app does, under the database lock),
// since another process's install in progress would be swept too.
func (m *Manager) Sweep() error {
	if m.reg.Workspace() == "" {
		return nil
	}
	if err := os.RemoveAll(cerebellum.StagingDir(m.reg.Workspace())); err != nil {
		return fmt.Errorf("clear %s: %w", cerebellum.StagingDir(m.reg.Workspace()), err)
	}
	_, err := m.Trash()
	return err
}

func disableHint(name string) hint.Hint {
	return hint.Hint{Action: "Switch off " + name, Command: []string{"caps", "disable", name}, Page: hint.PageCapability, Target: name}
}

func replaceHint(name, input string) hint.Hint {
	return hint.Hint{Action: "Replace the installed " + name, Command: []string{"caps", "install", input, "--replace"},
		Page: hint.PageCapabilities, Target: name}
}

func restoreHint(name string) hint.Hint {
	return hint.Hint{Action: "Restore " + name, Command: []string{"caps", "restore", name}, Page: hint.PageCapabilities, Target: name}
}
