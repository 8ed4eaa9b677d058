package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/wrasse-app/wrasse/brain/attach"
	filesystem "github.com/wrasse-app/wrasse/brain/cerebellum/filesystem/plugin"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
	"github.com/wrasse-app/wrasse/plugins/sdk"
	"github.com/wrasse-app/wrasse/plugins/sdk/credname"
)

// A file the person attaches to a message travels in it as text, cut at
// attach.MaxTextBytes. The model may want the rest, or to read it again
// later, with fs_read on the path the message names; but the filesystem
// plugin runs confined to the granted folders, fixed when its process
// starts, and attaching grants no folder. So the core answers fs_read of
// exactly the attached files itself:
//
//   - the files attached to a conversation are recorded with it
//     (store.AttachedFile, by the path as attached and by its real path
//     then), so the allowance survives a restart and goes with the
//     conversation when it is deleted;
//   - an fs_read in that conversation (the call's session says which) of
//     one of those paths is answered here, by the plugin's own fs_read
//     code (filesystem.ReadOpened) on a file opened through the SDK's
//     checked handles: the real path recorded, no symbolic link followed
//     at the end or on the way (a link swapped in later is refused, and a
//     link the person attached keeps leading to what it led to then), and
//     never Wrasse's own data (wrasse.db, config.json, logs, the control
//     socket), also under another name;
//   - a read the attachment refuses (the file edited since) of a file in
//     a granted folder goes to the plugin, as it would unattached;
//   - nothing else widens: not the file's folder, not another
//     conversation (whose fs_read of the path is refused by the plugin as
//     outside the folders, with a note saying why), not writes, not the
//     other file tools; the plugin's sandbox is as it was. (The history
//     tools still show another conversation's messages and results, the
//     attached text in them included.)
//
// Attaching Wrasse's own data is refused when it is attached
// (ReadAttachment) and again when the message is sent (TurnOptions.Files),
// and so is what a program could plant for the person to attach: a
// symbolic link, a folder link leading into a hidden, system or program
// folder, a hard link to a key (checked on the file opened), and the live
// views under /proc, /sys and /dev.

// attachReadTool is the one tool answered for attached files.
const attachReadTool = "fs_read"

// filesystemCapability is the built-in capability whose fs_read is
// answered for attached files.
const filesystemCapability = "filesystem"

// ReadAttachment reads the file at path as an attachment (attach.Read),
// refusing Wrasse's own data (the database, config.json, logs, caches,
// the control socket), also under another name, on what it opened: the
// window's paperclip, drop and paste read through it, so such a file is
// refused as it is attached, before its content could go anywhere.
func (a *App) ReadAttachment(path string) (attach.File, error) {
	af, err := a.attachedFile(path)
	if err != nil {
		return attach.File{}, err
	}
	f, err := a.openAttached(af, path)
	if err != nil {
		return attach.File{}, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil {
		af = withIdentity(af, st)
	}
	// What the chip read is what the message may name: a file swapped at
	// that path before it is sent is refused then (attachedFiles).
	a.attachSeen.put(af)
	return attach.ReadOpen(f, af.Path)
}

// attachedFile is path as recorded: absolute and clean, and with its links
// resolved now. A link that leads to a file holding keys or passwords (a
// README.txt in a downloaded archive that links to ~/.ssh/id_ed25519) is
// refused: the chip would show the harmless name while the secret went to
// the model.
func (a *App) attachedFile(path string) (store.AttachedFile, error) {
	name := filepath.Base(path)
	abs, err := filepath.Abs(path)
	if err != nil {
		return store.AttachedFile{}, fmt.Errorf("%w: %s: %w", attach.ErrUnreadable, name, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return store.AttachedFile{}, fmt.Errorf("%w: %s: %w", attach.ErrUnreadable, name, err)
	}
	// A process's state, the kernel's and the devices are no files: what
	// they hold changes while their identity stays, and /proc holds the
	// core's own environment and memory map.
	if slices.ContainsFunc(liveViews(), func(p string) bool { return pathWithin(real, p) }) {
		return store.AttachedFile{}, fmt.Errorf("%w: %s is not a file but a live view of a running process, the kernel or a device (%s); save what you need from it in a file and attach that",
			attach.ErrUnreadable, name, real)
	}
	if real != abs && a.holdsCredentials(real) {
		return store.AttachedFile{}, fmt.Errorf("%w: %s leads through a symbolic link to %s, which holds keys or passwords; attach that file itself if you mean to send it",
			attach.ErrUnreadable, name, real)
	}
	// A file that is itself a symbolic link is not attached: the chip
	// would show its harmless name while the message carried whatever it
	// leads to, and a link is what a program (a tool the model ran in a
	// granted folder, say) can plant without reading the file. No list of
	// where secrets live is complete; naming the target is the person's.
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if pathWithin(real, a.ws.Root) {
			return store.AttachedFile{}, ownDataError(name, "is a link to")
		}
		return store.AttachedFile{}, fmt.Errorf("%w: %s is a symbolic link to %s; attach that file itself if you mean to send it",
			attach.ErrUnreadable, name, real)
	}
	// A link on a folder on the way is the same plant one level up
	// (ln -s ~/.purple chat-logs, then chat-logs/accounts.xml attached):
	// where it leads into a hidden folder or ~/Library or ~/AppData,
	// where programs keep their settings and secrets, or into the
	// system's own state, the file is attached by its real path or not at
	// all.
	if real != abs && a.throughPlantedLink(abs, real) {
		if pathWithin(real, a.ws.Root) {
			return store.AttachedFile{}, ownDataError(name, "lies in a folder that is a link to")
		}
		if hiddenPlace(real, a.homes()) || a.appDataPlace(real) {
			return store.AttachedFile{}, fmt.Errorf("%w: %s lies in a folder that is a symbolic link, and is really %s, in a hidden, system or program folder where settings and secrets are kept; attach that file itself if you mean to send it",
				attach.ErrUnreadable, name, real)
		}
	}
	// Checked here for an early word, and again on what is opened
	// (openAttached): the file at the path may be swapped between.
	if fi, err := os.Stat(real); err == nil {
		if err := a.otherNames(fi, real, name); err != nil {
			return store.AttachedFile{}, err
		}
	}
	return store.AttachedFile{Path: abs, Real: real}, nil
}

// otherNames refuses fi, the file at real, when it has other names that
// may be a secret's. A hard link is another name for the same file, with
// no link to resolve: one to a key under a harmless name is refused the
// same way as a symbolic link. Outside the granted folders a file with
// other names is refused whatever they are: the credential list is not
// every secret a file there may be another name of, and such a file is
// rare where people keep documents.
func (a *App) otherNames(fi fs.FileInfo, real, name string) error {
	if !fi.Mode().IsRegular() || linkCount(fi) <= 1 {
		return nil
	}
	cred, err := a.sameAsCredential(fi)
	if err != nil {
		return fmt.Errorf("%w: %s has %d names (hard links), and whether one is a file holding keys or passwords cannot be told (%v); attach a copy of it",
			attach.ErrUnreadable, name, linkCount(fi), err)
	}
	if cred != "" {
		return fmt.Errorf("%w: %s is another name (a hard link) for %s, which holds keys or passwords; attach that file itself if you mean to send it",
			attach.ErrUnreadable, name, cred)
	}
	if !slices.ContainsFunc(a.Folders(), func(dir string) bool { return pathWithin(real, dir) }) && !a.isOwnData(fi) {
		return fmt.Errorf("%w: %s has %d names (hard links), and where the others lie cannot be told; attach a copy of it, or grant its folder",
			attach.ErrUnreadable, name, linkCount(fi))
	}
	return nil
}

// throughPlantedLink reports whether abs reaches real through a link that
// is not the home folder's own: /home → /var/home, or the link
// Options.Home names, was made by whoever set the machine up, not by a
// program of the person's.
func (a *App) throughPlantedLink(abs, real string) bool {
	home := a.home()
	if !filepath.IsAbs(home) || !pathWithin(abs, home) {
		return true
	}
	resolved, err := filepath.EvalSymlinks(home)
	if err != nil {
		return true
	}
	rel, err := filepath.Rel(filepath.Clean(home), abs)
	return err != nil || filepath.Join(resolved, rel) != real
}

// liveViews are the file systems that show processes, the kernel and
// devices as files (on Linux; the names mean nothing elsewhere).
func liveViews() []string { return []string{"/proc", "/sys", "/dev"} }

// systemPlaces hold the system's own state and secrets (a process's
// environment and memory map, devices, sockets, password hashes, host
// keys): no folder link a program planted may lead a file there.
func systemPlaces() []string { return []string{"/proc", "/sys", "/dev", "/run", "/var/run", "/etc"} }

// hiddenPlace reports whether real lies in the system's own places, or
// is or lies in a hidden file or folder (a name starting with a dot),
// wherever it is: where programs keep their settings, tokens and
// passwords (~/.purple, another user's ~/.config), under names no list
// knows in full. Within one of homes only the names below it count (a
// home folder in /home/.users is no hidden place).
func hiddenPlace(real string, homes []string) bool {
	if slices.ContainsFunc(systemPlaces(), func(p string) bool { return pathWithin(real, p) }) {
		return true
	}
	rest := strings.TrimPrefix(real, filepath.VolumeName(real))
	for _, h := range homes {
		if len(real) > len(h) && strings.EqualFold(real[:len(h)], h) && real[len(h)] == filepath.Separator {
			rest = real[len(h):]
			break
		}
	}
	return slices.ContainsFunc(strings.Split(rest, string(filepath.Separator)), func(c string) bool { return strings.HasPrefix(c, ".") })
}

// appData are the folders of the home folder where macOS and Windows
// programs keep their settings, tokens and passwords, hidden by no dot.
func appData() []string { return []string{"Library", "AppData"} }

// appDataPlace reports whether real lies in one of appData under the home
// folder (as given, or with its links resolved).
func (a *App) appDataPlace(real string) bool {
	for _, h := range a.homes() {
		for _, d := range appData() {
			if pathWithin(real, filepath.Join(h, d)) {
				return true
			}
		}
	}
	return false
}

// isOwnData reports whether fi is one of the workspace's protected files
// (its database, config.json…), which openAttached refuses saying so.
func (a *App) isOwnData(fi fs.FileInfo) bool {
	for _, p := range ProtectedPaths(a.ws.Root).NoAccess {
		if pi, err := os.Stat(p); err == nil && pi.Mode().IsRegular() && os.SameFile(fi, pi) {
			return true
		}
	}
	return false
}

// withIdentity is af with the identity of the file fi describes.
func withIdentity(af store.AttachedFile, fi fs.FileInfo) store.AttachedFile {
	id := identityOf(fi)
	af.Dev, af.Ino, af.Changed = id.dev, id.ino, id.changed
	return af
}

// sameIdentity reports whether a and b name the same file as recorded.
func sameIdentity(a, b store.AttachedFile) bool {
	return a.Dev == b.Dev && a.Ino == b.Ino && a.Changed == b.Changed
}

// holdsCredentials reports whether real (its links resolved) is where
// keys, tokens or passwords are kept: a file named like one (.env, id_rsa)
// anywhere, or a path in a credential store of the gate's or among the
// files no sandbox reads (sandbox.CredentialPaths, with the stores the
// environment moves), under the home folder as given or with its own
// links resolved (/home may be a link to /var/home), compared without
// case. With no home folder known, every path counts: a link is then
// refused rather than guessed about.
func (a *App) holdsCredentials(real string) bool {
	if credname.Is(filepath.Base(real)) {
		return true
	}
	homes := a.homes()
	if len(homes) == 0 {
		return true
	}
	for _, c := range a.credentialPaths(homes) {
		if pathWithin(real, c) {
			return true
		}
	}
	return false
}

// homes are the home folder as given, with its own links resolved, and
// as macOS also reaches it (/System/Volumes/Data…); none when it is not
// known as an absolute path (then every attached link is refused).
func (a *App) homes() []string {
	home := a.home()
	if !filepath.IsAbs(home) {
		return nil
	}
	out := []string{filepath.Clean(home)}
	if r, err := filepath.EvalSymlinks(home); err == nil && r != out[0] {
		out = append(out, r)
	}
	for _, h := range slices.Clone(out) {
		out = append(out, filepath.Join("/System/Volumes/Data", h))
	}
	return out
}

// credentialPaths are the credential stores and files under each of
// homes, absolute, each also with its links resolved where it exists.
func (a *App) credentialPaths(homes []string) []string {
	var out []string
	for _, home := range homes {
		for _, c := range gate.CredentialStores() {
			out = append(out, filepath.Join(home, c))
		}
		out = append(out, sandbox.CredentialPaths(home)...)
	}
	for _, c := range slices.Clone(out) {
		if r, err := filepath.EvalSymlinks(c); err == nil && r != c {
			out = append(out, r)
		}
	}
	return out
}

// sameAsCredential is the credential file that fi is another name for
// (a credential file, or one at any depth beneath a credential folder:
// a pass entry in a sub-folder, a browser profile's saved passwords, all
// of which the sandbox keeps unreadable), "" when it is none. The error
// says the folders hold too much to be read whole.
func (a *App) sameAsCredential(fi fs.FileInfo) (string, error) {
	return sdk.CredentialOf(a.credentialPaths(a.homes()), fi)
}

// pathWithin reports whether p is dir or lies beneath it, ignoring case:
// the file systems of macOS and Windows do, and elsewhere a link into a
// ~/.AWS is no better a thing to attach.
func pathWithin(p, dir string) bool {
	p, dir = strings.ToLower(p), strings.ToLower(dir)
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// attachedFiles checks the files a message attaches (TurnOptions.Files)
// as ReadAttachment does, before the turn stores anything: one that is
// Wrasse's own data, or cannot be opened, fails the turn, saying which.
// A file the window read into a chip must still be that file (the same
// real path and file): one swapped since, for a link or another file,
// fails the turn instead of becoming what fs_read may read.
func (a *App) attachedFiles(paths []string) ([]store.AttachedFile, error) {
	var out []store.AttachedFile
	for _, p := range paths {
		af, err := a.attachedFile(p)
		var f *os.File
		if err == nil {
			f, err = a.openAttached(af, p)
		}
		if err == nil {
			st, serr := f.Stat()
			f.Close()
			if serr != nil {
				err = serr
			} else {
				af = withIdentity(af, st)
				if seen, ok := a.attachSeen.take(af.Path); ok && (seen.Real != af.Real || !sameIdentity(seen, af)) {
					err = fmt.Errorf("%w: %s was changed or replaced after it was attached (%w); attach it again", attach.ErrUnreadable, filepath.Base(p), errReplaced)
				}
			}
		}
		if err != nil {
			return nil, fmt.Errorf("attaching %s: %w", p, err)
		}
		if af.Ino == 0 {
			// Nothing could tell this file from one put in its place
			// later: it travels in the message only.
			continue
		}
		out = append(out, af)
	}
	return out, nil
}

// errReplaced means another file now stands at an attached file's path.
var errReplaced = errors.New("it is not the file that was read then")

// attachSeen remembers the files the window read into chips, by the path
// as attached, until the message that sends them takes them: that
// message checks they are the same files. Bounded: past maxAttachSeen
// the oldest chip's record goes (a chip read so long before it is sent
// is checked as it is then).
type attachSeen struct {
	mu     sync.Mutex
	byPath map[string]store.AttachedFile
	order  []string // paths, oldest first
}

const maxAttachSeen = 1024

func (s *attachSeen) put(af store.AttachedFile) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byPath == nil {
		s.byPath = map[string]store.AttachedFile{}
	}
	if _, ok := s.byPath[af.Path]; ok {
		s.order = slices.DeleteFunc(s.order, func(p string) bool { return p == af.Path })
	}
	for len(s.order) >= maxAttachSeen {
		delete(s.byPath, s.order[0])
		s.order = s.order[1:]
	}
	s.byPath[af.Path] = af
	s.order = append(s.order, af.Path)
}

// take is the record of path, removed: a chip is sent once.
func (s *attachSeen) take(path string) (store.AttachedFile, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	af, ok := s.byPath[path]
	if ok {
		delete(s.byPath, path)
		s.order = slices.DeleteFunc(s.order, func(p string) bool { return p == path })
	}
	return af, ok
}

// openAttached opens the attached file af for reading, shown as path in
// messages. It is opened from a handle of its folder through the SDK's
// file API, with the workspace's protected paths: a link at its name is
// not followed and Wrasse's own data (also as a hard link, or reached
// through a link) is refused. The SDK follows a folder on the way that
// was swapped for a link (it resolves the folder once more), so what was
// opened is compared with what a walk from the top of the file system,
// refusing every link, finds at the real path: the very file attached,
// or nothing. A file being attached (af not yet identified) must have no
// other name that may be a key's, as opened.
func (a *App) openAttached(af store.AttachedFile, path string) (*os.File, error) {
	name := filepath.Base(path)
	dir, leaf := filepath.Dir(af.Real), filepath.Base(af.Real)
	prot := ProtectedPaths(a.ws.Root)
	env := &sdk.Env{Name: filesystemCapability, Workspace: a.ws.Root, Roots: []string{dir}, NoAccess: prot.NoAccess, ReadOnly: prot.ReadOnly}
	d, err := env.OpenDirArg(dir, false)
	if err != nil {
		return nil, attachOpenError(name, err)
	}
	defer d.Close()
	f, err := d.Open(leaf)
	if err != nil {
		return nil, attachOpenError(name, err)
	}
	if err := sameAtRealPath(f, af.Real); err != nil {
		f.Close()
		return nil, attachOpenError(name, err)
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		err = attachOpenError(name, err)
	case af.Ino != 0:
		// The very file attached: not one put in its place since, a hard
		// link to a key included (no symbolic link is involved then), nor
		// a new file given the inode number it freed.
		if !sameIdentity(withIdentity(af, st), af) {
			err = attachOpenError(name, errReplaced)
		}
	default:
		// Being attached (the chip, the send): what was opened, not what
		// attachedFile found at the path a moment before, is what must
		// have no other name that is a key's.
		err = a.otherNames(st, af.Real, name)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// errMoved means the attached file's path now leads elsewhere: a link
// where a file or folder was.
var errMoved = errors.New("replaced by a symbolic link since it was attached")

// ownDataError refuses attaching name, which how (is, is a link to…)
// Wrasse's own data.
func ownDataError(name, how string) error {
	return fmt.Errorf("%w: %s %s Wrasse's own data (its database, settings, caches or logs), which is never sent to a model or read by its tools; attach another file",
		attach.ErrUnreadable, name, how)
}

// attachOpenError words a failure to open an attached file for the person
// (the composer's chip) and the model alike.
func attachOpenError(name string, err error) error {
	switch {
	case errors.Is(err, sdk.ErrProtected):
		return ownDataError(name, "is")
	case errors.Is(err, sdk.ErrLink) || errors.Is(err, errMoved):
		return fmt.Errorf("%w: %s: %w; attach the file it leads to instead", attach.ErrUnreadable, name, errMoved)
	case errors.Is(err, errReplaced):
		return fmt.Errorf("%w: %s was changed or replaced since it was attached (%w); attach it again to read it", attach.ErrUnreadable, name, errReplaced)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s no longer exists", attach.ErrUnreadable, name)
	}
	return fmt.Errorf("%w: %s: %w", attach.ErrUnreadable, name, err)
}

// sameAtRealPath checks that f is the file at real, a path without links,
// walking down from the top of the file system one folder handle at a
// time and refusing a link anywhere (errMoved).
func sameAtRealPath(f *os.File, real string) error {
	top := filepath.VolumeName(real) + string(filepath.Separator)
	rest := strings.TrimPrefix(real, top)
	comps := strings.Split(rest, string(filepath.Separator))
	if rest == "" || slices.Contains(comps, "") || slices.Contains(comps, "..") {
		return fmt.Errorf("%s is not a clean absolute path", real)
	}
	h, err := os.OpenRoot(top)
	if err != nil {
		return err
	}
	for _, c := range comps[:len(comps)-1] {
		info, err := h.Lstat(c)
		if err == nil && !info.IsDir() {
			err = errMoved
		}
		var sub *os.Root
		if err == nil {
			sub, err = h.OpenRoot(c)
		}
		if err == nil {
			var st fs.FileInfo
			if st, err = sub.Stat("."); err == nil && !os.SameFile(st, info) {
				err = errMoved
			}
			if err != nil {
				sub.Close()
			}
		}
		h.Close()
		if err != nil {
			return err
		}
		h = sub
	}
	defer h.Close()
	info, err := h.Lstat(comps[len(comps)-1])
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !os.SameFile(st, info) {
		return errMoved
	}
	return nil
}

// attachLoader is the plugin host with the built-in filesystem's runtime
// wrapped (attachRuntime); the host's Check and CheckSource pass as they
// are.
type attachLoader struct {
	*plugins.Host
	a *App
}

// Load loads c's runtime; the built-in filesystem's answers fs_read of
// attached files.
func (l attachLoader) Load(ctx context.Context, req cerebellum.LoadRequest) (cerebellum.Runtime, error) {
	rt, err := l.Host.Load(ctx, req)
	c := req.Capability
	if err != nil || c == nil || c.Name != filesystemCapability || c.Source != cerebellum.SourceBuiltin {
		return rt, err
	}
	return attachRuntime{Runtime: rt, a: l.a}, nil
}

// attachRuntime answers fs_read of a file attached to the calling
// conversation, and passes every other call to the plugin.
type attachRuntime struct {
	cerebellum.Runtime
	a *App
}

// Call answers fs_read of a path attached to the conversation whose
// session the call carries; other calls go to the plugin, and its refusal
// of a path attached to another conversation says why.
func (r attachRuntime) Call(ctx context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
	if tool != attachReadTool {
		return r.Runtime.Call(ctx, tool, args)
	}
	var in struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(args, &in) != nil || !filepath.IsAbs(in.Path) {
		return r.Runtime.Call(ctx, tool, args)
	}
	want := filepath.Clean(in.Path)
	id, inConversation := conversationOf(ctx)
	if inConversation {
		files, err := r.a.db.Attached(id)
		if err != nil {
			r.a.log.Warn("reading the files attached to a conversation", "conversation", id.String(), "error", err)
		}
		if i := slices.IndexFunc(files, func(f store.AttachedFile) bool { return f.Path == want || f.Real == want }); i >= 0 {
			af := files[i]
			res := r.a.readAttached(af, in.Path, args)
			if !res.IsError || !r.a.inGrantedFolder(af) {
				return res, nil
			}
			// Refused as attached (edited since, say) but lying in a
			// granted folder: the plugin reads it as any file there,
			// under its own rules; if it refuses too, the attachment's
			// reason stands.
			if pres, err := r.Runtime.Call(ctx, tool, args); err == nil && !pres.IsError {
				return pres, nil
			}
			return res, nil
		}
	}
	res, err := r.Runtime.Call(ctx, tool, args)
	if err == nil && res.IsError && r.a.attachedElsewhere(id, want) {
		res.Content += "\n(" + in.Path + " was attached to another conversation: an attached file may be read only in the conversation it was attached to. " +
			"Ask the person to attach it to this one, or to grant its folder in Settings → Folders.)"
	}
	return res, err
}

// inGrantedFolder reports whether af, by the path attached and by its
// real path, lies in a folder granted to the tools.
func (a *App) inGrantedFolder(af store.AttachedFile) bool {
	folders := a.Folders()
	in := func(p string) bool {
		return slices.ContainsFunc(folders, func(dir string) bool { return pathWithin(p, dir) })
	}
	return in(af.Path) && in(af.Real)
}

// conversationOf is the conversation a tool call runs in, from its
// session; not ok outside a conversation (a call run by itself).
func conversationOf(ctx context.Context) (store.ID, bool) {
	sess := cerebellum.SessionFrom(ctx)
	if sess == nil || sess.ID() == "" {
		return 0, false
	}
	id, err := store.ParseID(sess.ID())
	return id, err == nil && id != 0
}

// readAttached answers fs_read (args) of attached file af, named arg.
func (a *App) readAttached(af store.AttachedFile, arg string, args json.RawMessage) cerebellum.Result {
	f, err := a.openAttached(af, arg)
	if err != nil {
		return cerebellum.Result{IsError: true, Content: strings.TrimPrefix(err.Error(), attach.ErrUnreadable.Error()+": ")}
	}
	defer f.Close()
	req, err := sdk.NewRequest(attachReadTool, args)
	if err != nil {
		return cerebellum.Result{IsError: true, Content: fmt.Sprintf("%s: the arguments cannot be read: %v", attachReadTool, err)}
	}
	res, err := filesystem.ReadOpened(f, arg, af.Path, req)
	switch {
	case err != nil:
		return cerebellum.Result{IsError: true, Content: err.Error()}
	case res == nil:
		return cerebellum.Result{}
	}
	return cerebellum.Result{Content: res.Text}
}

// attachedElsewhere reports whether path is attached to a conversation
// other than id.
func (a *App) attachedElsewhere(id store.ID, path string) bool {
	convs, err := a.db.ListConversations()
	if err != nil {
		return false
	}
	for _, c := range convs {
		if c.ID != id && slices.ContainsFunc(c.Attached, func(f store.AttachedFile) bool { return f.Path == path || f.Real == path }) {
			return true
		}
	}
	return false
}
