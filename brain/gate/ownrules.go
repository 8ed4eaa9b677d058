package gate

import (
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// The gate's own rules: what capability patterns cannot see because it
// depends on the computer (the home folder, the granted folders, the
// workspace) or on the shell's reading of a line (globs, variables set
// earlier on it). Patterns are text; these read paths.

// ruleCapability names the gate itself as the source of a match.
const ruleCapability = "gate"

// shellDanger are the blocks the gate adds to a command line's: a
// recursive delete of the root folder, the home folder or a folder
// holding it; Wrasse's database or settings, also through a glob; and
// another process's folder under /proc.
func shellDanger(env Env, info ShellInfo) []Match {
	var out []Match
	add := func(pattern, reason string) {
		for _, m := range out {
			if m.Reason == reason {
				return
			}
		}
		out = append(out, Match{Capability: ruleCapability, Pattern: pattern, Reason: reason, Block: true})
	}
	for _, d := range info.Deletes {
		if env.homeDeleteHit(d) {
			add("home-delete", "recursive delete of the root folder, the home folder or a folder that holds it ("+d.Word+")")
		}
	}
	for _, u := range info.Paths {
		if hit := env.protectedHit(u); hit != "" {
			add("protected", "touches Wrasse's own database or settings ("+tidy(env, hit)+"), where the saved API keys live")
		}
		if procHit(u) {
			add("proc", "reads another process's files under /proc ("+u.Word+"), such as its environment, where API keys and tokens live")
		}
	}
	return out
}

// shellPaths are the reasons a command line asks every time for the
// paths it names: a credential store, or a path outside the granted
// folders.
func shellPaths(env Env, info ShellInfo) []string {
	var out, private, outside, unknown []string
	seen := map[string]bool{}
	for _, u := range append(append([]PathUse(nil), info.Paths...), info.Deletes...) {
		hit := env.privateHit(u)
		if hit == "" && !u.Glob && !u.Unknown {
			// Through a link: cat project/k/credentials where k -> ~/.aws.
			if real := realPath(u.Path); real != "" && real != u.Path {
				r := u
				r.Path = real
				hit = env.privateHit(r)
			}
		}
		if hit == "" && u.Glob && !u.Unknown && strings.HasPrefix(u.Path, "/") {
			// A glob the shell expands to a link: cat d*/notes.txt.
			hit = env.globLinkHit(u)
		}
		if hit == "" && u.Recursive && !u.Glob && !u.Unknown && readsContents[u.Program] && strings.HasPrefix(u.Path, "/") {
			// grep -r KEY . over a project holding a .env reads it.
			hit = env.heldCredential(u.Path, "")
		}
		if hit != "" && !seen["p"+hit] {
			seen["p"+hit] = true
			private = append(private, tidy(env, hit))
		}
		switch {
		case u.Unknown:
			if !seen["u"+u.Word] {
				seen["u"+u.Word] = true
				unknown = append(unknown, OneLineVisible(u.Word, 80))
			}
		case env.outside(u) && !seen["o"+u.Path]:
			seen["o"+u.Path] = true
			outside = append(outside, OneLineVisible(u.Word, 80))
		}
	}
	if len(private) > 0 {
		out = append(out, "it names "+list(private)+", where keys, tokens or passwords are kept")
	}
	if len(outside) > 0 {
		out = append(out, "it uses "+list(outside)+", outside the folders you granted")
	}
	if len(unknown) > 0 {
		out = append(out, "it uses "+list(unknown)+", which is known only when it runs, so it may be outside the folders you granted or where keys are kept")
	}
	return out
}

// pathKeys are argument names whose values are paths a tool reads or
// writes.
var pathKeys = setOf("path", "paths", "dest", "destination", "src", "source", "sources", "target", "file", "files", "folder",
	"dir", "directory", "cwd", "from", "to", "input", "output", "filename", "file_name", "filenames", "filepath",
	"file_path", "filepaths", "file_paths", "dirname", "dir_name", "dirpath", "dir_path", "folder_path", "root")

// isPathKey reports an argument name whose string values are paths:
// one of pathKeys, or a name ending so (config_path, outputFile).
func isPathKey(k string) bool {
	k = strings.ToLower(k)
	return pathKeys[k] || strings.HasSuffix(k, "_path") || strings.HasSuffix(k, "path") && len(k) > 4 && k != "xpath" && k != "jsonpath" ||
		strings.HasSuffix(k, "_file") || strings.HasSuffix(k, "file") && len(k) > 4 && k != "profile"
}

// maxArgStrings bounds how many strings of a call's arguments the gate
// reads; a call with more asks every time (see argWalk).
const maxArgStrings = 10000

// maxArgDepth bounds how deep the gate reads nested arguments.
const maxArgDepth = 32

// argString is one string in a call's arguments and the name of the
// nearest key above it (a list's items take the list's name).
type argString struct {
	key string
	val string
}

// argStrings are every string of the decoded arguments at any depth, as
// MCP servers' schemas nest them ({"request":{"url":…}},
// {"files":[{"path":…}]}), keys visited in sorted order. complete is
// false when the arguments are deeper or larger than the gate reads.
func argStrings(decoded any) (out []argString, complete bool) {
	complete = true
	var walk func(key string, v any, depth int)
	walk = func(key string, v any, depth int) {
		if depth > maxArgDepth || len(out) >= maxArgStrings {
			complete = false
			return
		}
		switch x := v.(type) {
		case string:
			out = append(out, argString{key: key, val: x})
		case []any:
			for _, y := range x {
				walk(key, y, depth+1)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(k, x[k], depth+1)
			}
		}
	}
	if _, ok := decoded.(map[string]any); ok {
		walk("", decoded, 0)
	}
	return out, complete
}

// argPathValues are the strings of the arguments, at any depth, under a
// key that names a path.
func argPathValues(decoded any) []argString {
	all, _ := argStrings(decoded)
	var out []argString
	for _, a := range all {
		if isPathKey(a.key) {
			out = append(out, a)
		}
	}
	return out
}

// argPrivate are the reasons a tool's call asks every time because a
// path argument names a credential store (fs_read ~/.ssh/id_rsa,
// archive_create of ~/.aws), at any depth of its arguments, also through
// a symbolic link (see realPath), or, for a search that reads file
// contents beneath it (fs_grep, any *grep tool) or an archive that packs
// it (archive_create), a folder holding one.
func argPrivate(env Env, tool string, decoded any) []string {
	obj, ok := decoded.(map[string]any)
	if !ok {
		return nil
	}
	grep := strings.Contains(strings.ToLower(tool), "grep")
	// archive_create packs its sources whole, as zip -r does: a folder
	// holding a credential file is a read of it.
	packs := strings.Contains(strings.ToLower(tool), "archive_create")
	glob, _ := obj["glob"].(string)
	var hits []string
	seen := map[string]bool{}
	note := func(hit string) {
		if hit != "" && !seen[hit] {
			seen[hit] = true
			hits = append(hits, tidy(env, hit))
		}
	}
	searched := false
	for _, pv := range argPathValues(decoded) {
		recursive := grep && strings.EqualFold(pv.key, "path") ||
			packs && (strings.EqualFold(pv.key, "sources") || strings.EqualFold(pv.key, "source") || strings.EqualFold(pv.key, "path"))
		u := PathUse{Word: pv.val, Path: argAbs(env, pv.val), Glob: hasGlob(pv.val), Recursive: recursive}
		note(env.privateHit(u))
		// A relative path is read from the first granted folder, as the
		// file tools do: its links and contents are checked from there.
		abs := u.Path
		if !strings.HasPrefix(abs, "/") && !strings.HasPrefix(abs, "~") && len(env.Folders) > 0 {
			abs = path.Join(env.Folders[0], abs)
		}
		if real := realPath(abs); real != "" && real != u.Path {
			r := u
			r.Path = real
			note(env.privateHit(r))
		}
		if recursive {
			searched = true
			note(env.heldCredential(abs, glob))
		}
	}
	if grep && !searched {
		// Without a path the search starts in the first granted folder.
		if _, has := obj["path"]; !has && len(env.Folders) > 0 {
			note(env.heldCredential(env.Folders[0], glob))
		}
	}
	if len(hits) == 0 {
		return nil
	}
	return []string{"it names " + list(hits) + ", where keys, tokens or passwords are kept"}
}

// argGitWrites are the reasons a tool that may write asks every time for
// a path argument into a repository's configuration or hooks (fs_write
// .git/config, .git/hooks/pre-commit): what it writes runs under later
// git commands, as git config that sets does.
func argGitWrites(decoded any) []string {
	var out []string
	for _, pv := range argPathValues(decoded) {
		if gitInternal(strings.ReplaceAll(pv.val, `\`, "/")) {
			out = addReason(out, "it writes "+OneLineVisible(pv.val, 80)+", a repository's configuration or hooks, which later git commands run")
		}
	}
	return out
}

// argAbs is a tool's path argument as the file tools read it: ~ is the
// home folder; a relative path stays relative (its base is the tool's).
func argAbs(env Env, p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if env.Home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return path.Join(env.Home, strings.TrimPrefix(p, "~"))
	}
	if strings.HasPrefix(p, "/") {
		// /proc/self/root/… is /…; /proc/self/cwd/… is where Wrasse
		// runs, which the tools do not use as a base: left as written.
		if rs, unknown := resolveProc(p, nil, true, 0); !unknown && len(rs) == 1 {
			return rs[0]
		}
		return path.Clean(p)
	}
	return p
}

// tidy shows a path with the home folder as ~.
func tidy(env Env, p string) string {
	h := strings.TrimSuffix(env.Home, "/")
	if h != "" && (p == h || strings.HasPrefix(p, h+"/")) {
		return "~" + strings.TrimPrefix(p, h)
	}
	return p
}

// list names up to three items and how many more.
func list(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:3], ", "), len(items)-3)
}

// realPath is an absolute path with the symbolic links in it resolved, as
// the file tools open it (they follow links that stay in the granted
// folders): a link in a granted folder to ~/.aws or a project's .env is
// the credential store it points to. Of a path that does not exist yet,
// the longest part that does is resolved. "" when p is not absolute or
// nothing of it exists. This reads the file system: the one place the
// gate does, since a link is known only there.
func realPath(p string) string {
	if !strings.HasPrefix(p, "/") {
		return ""
	}
	rest := ""
	for cur := path.Clean(p); ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return path.Join(filepath.ToSlash(r), rest)
		}
		parent := path.Dir(cur)
		if parent == cur {
			return ""
		}
		rest = path.Join(path.Base(cur), rest)
		cur = parent
	}
}

// maxGlobMatches bounds the files globLinkHit reads for one glob.
const maxGlobMatches = 1000

// globLinkHit is the credential store a shell glob reaches through a
// link among the files it matches on this computer, or "".
func (e Env) globLinkHit(u PathUse) string {
	matches, err := filepath.Glob(filepath.FromSlash(u.Path))
	if err != nil {
		return ""
	}
	for i, m := range matches {
		if i >= maxGlobMatches {
			return u.Path // more than the gate reads: it may reach one
		}
		if real := realPath(filepath.ToSlash(m)); real != "" {
			if hit := e.privateHit(PathUse{Path: real, Recursive: u.Recursive}); hit != "" {
				return hit
			}
		}
	}
	return ""
}

// maxHeldScan bounds the entries heldCredential reads beneath a folder.
const maxHeldScan = 20000

// heldCredential is a credential file (by name: .env, id_rsa…) beneath
// dir that a search reading file contents would read, skipping what the
// file tools skip (.git, node_modules) and, with a glob (fs_grep's
// "*.go", "src/**/*.ts"), files whose name its last part cannot match;
// "" when there is none or dir is not a folder on this computer. A
// folder holding more than the gate reads is reported as dir itself: it
// may hold one.
func (e Env) heldCredential(dir, glob string) string {
	last := ""
	if glob != "" {
		last = glob[strings.LastIndexByte(glob, '/')+1:]
		if _, err := path.Match(last, ""); err != nil || strings.Contains(last, "**") || strings.ContainsAny(last, "{}") {
			last = "" // not read here: every file counts
		}
	}
	real := realPath(dir)
	if real == "" {
		return ""
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return ""
	}
	_, names := e.privateStores()
	hit, n := "", 0
	_ = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: the tools cannot read it either
		}
		if n++; n > maxHeldScan {
			hit = real
			return fs.SkipAll
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", ".hg", ".svn":
				return fs.SkipDir
			}
			return nil
		}
		base := d.Name()
		if d.Type()&fs.ModeSymlink != 0 {
			// A link is read as what it points to (grep -R, zip -r, cp
			// -rL, the file tools follow it): docs/notes.txt -> ../.env.
			r, err := filepath.EvalSymlinks(p)
			if err != nil {
				return nil
			}
			if hit = e.privateHit(PathUse{Path: filepath.ToSlash(r)}); hit != "" {
				return fs.SkipAll
			}
			if st, err := os.Stat(r); err == nil && st.IsDir() && !within(filepath.ToSlash(r), real) {
				// A linked folder elsewhere: not walked here, it may hold
				// one. (One beneath this folder is walked anyway.)
				hit = filepath.ToSlash(p)
				return fs.SkipAll
			}
			return nil
		}
		if last != "" {
			if ok, _ := path.Match(last, base); !ok {
				return nil
			}
		}
		for _, name := range names {
			if nameMatches(base, name, false) && !envTemplates[strings.ToLower(base)] {
				hit = filepath.ToSlash(p)
				return fs.SkipAll
			}
		}
		return nil
	})
	return hit
}

// pageExtensions are files an app opens by fetching the addresses they
// hold: web pages and SVG images (a browser loads their images, scripts
// and styles from any host), internet shortcuts (the browser opens the
// address inside) and playlists (the player fetches their entries).
var pageExtensions = setOf(".html", ".htm", ".xhtml", ".xht", ".shtml", ".mht", ".mhtml", ".svg", ".svgz", ".url", ".webloc",
	".xml", ".xsl", ".xslt", ".rss", ".atom", ".jnlp", ".hta", ".desktop",
	".website", ".m3u", ".m3u8", ".pls", ".xspf", ".asx", ".wpl", ".strm", ".pdf.url")

// argOpens are the reasons a call that opens its target with the
// person's apps (system_open's target, and the like in other tools) asks
// every time: a local page, shortcut or playlist, whose app then reaches
// any host with no host check; or a mailto: address, which readies a
// message to its recipient with the subject and body it holds, one click
// from sent.
func argOpens(env Env, decoded any) []string {
	all, _ := argStrings(decoded)
	var out []string
	for _, a := range all {
		if !schemeKeys[strings.ToLower(a.key)] {
			continue
		}
		v := strings.TrimSpace(a.val)
		if len(v) >= 7 && strings.EqualFold(v[:7], "mailto:") {
			out = addReason(out, "it opens a mail message to "+OneLineVisible(mailRecipients(v), 120)+
				" with the subject and text the address holds, ready to send")
			continue
		}
		if i := strings.Index(v, "://"); i > 0 && !strings.EqualFold(v[:i], "file") {
			continue // a network address: the host gate reads it
		}
		name := strings.ToLower(v)
		if i := strings.IndexAny(name, "?#"); i >= 0 && strings.HasPrefix(name, "file:") {
			name = name[:i]
		}
		if pageExtensions[path.Ext(strings.TrimRight(name, "/"))] || env.pageContent(v) {
			out = addReason(out, "it opens "+OneLineVisible(path.Base(v), 80)+
				", whose app loads the addresses the file holds (its images, scripts, links or entries) from any host, with no host check")
		}
	}
	return out
}

// pageMarks are what a page, an SVG image, an internet shortcut or a
// playlist starts with (lower case): the desktop picks the app by
// content for a name without a known extension.
var pageMarks = []string{"<!doctype html", "<html", "<svg", "<?xml", "[internetshortcut]", "[internet shortcut]", "#extm3u", "[playlist]",
	"<asx", "<smil", "<head", "<body", "<script", "<iframe", "<img", "<meta"}

// pageContent reports a local file (a path, relative from the first
// granted folder, or a file: address) that is a page by content, not by
// name: xdg-open and Finder open an HTML file named "report" (or with an
// extension they do not know) in the browser. It reads the file's first bytes: a file unreadable here is
// not known to be one.
func (e Env) pageContent(target string) bool {
	p := target
	if len(p) >= 5 && strings.EqualFold(p[:5], "file:") {
		u, err := url.Parse(p)
		if err != nil {
			return true // not read: it may be one
		}
		p = u.Path
	}
	p = argAbs(e, p)
	if !strings.HasPrefix(p, "/") {
		if len(e.Folders) == 0 {
			return false
		}
		p = path.Join(e.Folders[0], p)
	}
	// A link is opened as what it leads to: lnk.pdf may be a page.
	if real, err := filepath.EvalSymlinks(filepath.FromSlash(p)); err == nil {
		p = filepath.ToSlash(real)
		if pageExtensions[strings.ToLower(path.Ext(p))] {
			return true
		}
	}
	if ext := path.Ext(p); ext != "" && mime.TypeByExtension(ext) != "" {
		return false // the desktop picks the app by this known extension
	}
	f, err := os.Open(filepath.FromSlash(p))
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false
	}
	buf := make([]byte, 1024)
	n, _ := io.ReadFull(f, buf)
	head := buf[:n]
	if strings.HasPrefix(http.DetectContentType(head), "text/html") {
		return true
	}
	low := strings.ToLower(string(head))
	for _, m := range pageMarks {
		if strings.Contains(low, m) {
			return true
		}
	}
	return false
}

// mailRecipients are a mailto: address's recipients (to, cc and bcc), or
// the address itself when none can be read.
func mailRecipients(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	var rcpt []string
	if to, err := url.PathUnescape(u.Opaque); err == nil && to != "" {
		rcpt = append(rcpt, strings.Split(to, ",")...)
	}
	q := u.Query()
	for _, k := range []string{"to", "cc", "bcc"} {
		for _, v := range q[k] {
			rcpt = append(rcpt, strings.Split(v, ",")...)
		}
	}
	if len(rcpt) == 0 {
		return s
	}
	return strings.Join(rcpt, ", ")
}
