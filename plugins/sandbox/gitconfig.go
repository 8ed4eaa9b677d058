package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
)

// gitEntry is one setting of a git settings file: section and key in
// lower case (git compares them so), the subsection as written (git
// compares it exactly), and the value with quotes and escapes undone.
// A key with no "=" (a boolean true) has no value (HasValue false).
type gitEntry struct {
	Section, Subsection, Key, Value string
	HasValue                        bool
}

// errGitConfig is a line git itself would refuse ("bad config line").
var errGitConfig = errors.New("bad git config line")

// parseGitConfig reads a git settings file as git's config.c does:
// sections [name], [name "sub"] and the old [name.sub] (sub in lower
// case); comments from # or ; outside quotes; a key's value with quoted
// runs, the escapes \" \\ \n \t \b, and a backslash at a line's end going
// on to the next line; CRLF as LF; a UTF-8 BOM skipped. The files come
// from repositories and home folders a command may have written, so it
// never panics and returns, with an error, the entries before the first
// line git would refuse (git refuses the whole file then; taking what
// came before it protects more, not less).
func parseGitConfig(data []byte) ([]gitEntry, error) {
	r := gitConfigReader{data: data}
	if strings.HasPrefix(string(data), "\xef\xbb\xbf") {
		r.pos = 3
	}
	var out []gitEntry
	section, sub := "", ""
	for {
		c, ok := r.next()
		if !ok {
			return out, nil
		}
		switch {
		case c == '\n' || isGitSpace(c):
			continue
		case c == '#' || c == ';':
			r.skipLine()
			continue
		case c == '[':
			s, ss, err := r.sectionHeader()
			if err != nil {
				return out, fmt.Errorf("%w %d: %v", errGitConfig, r.line, err)
			}
			section, sub = s, ss
			continue
		case !isAlpha(c):
			return out, fmt.Errorf("%w %d: unexpected %q", errGitConfig, r.line, c)
		}
		e, err := r.keyValue(c)
		if err != nil {
			return out, fmt.Errorf("%w %d: %v", errGitConfig, r.line, err)
		}
		if section == "" && sub == "" {
			// No section: git takes no setting from it.
			continue
		}
		e.Section, e.Subsection = section, sub
		out = append(out, e)
	}
}

// gitConfigReader walks a settings file byte by byte, as git does.
type gitConfigReader struct {
	data []byte
	pos  int
	line int
}

// next is the next byte, a CR before an LF dropped.
func (r *gitConfigReader) next() (byte, bool) {
	if r.pos >= len(r.data) {
		return 0, false
	}
	c := r.data[r.pos]
	r.pos++
	if c == '\r' && r.pos < len(r.data) && r.data[r.pos] == '\n' {
		c = '\n'
		r.pos++
	}
	if c == '\n' {
		r.line++
	}
	return c, true
}

func (r *gitConfigReader) skipLine() {
	for {
		c, ok := r.next()
		if !ok || c == '\n' {
			return
		}
	}
}

// sectionHeader reads what follows "[": the section's name and its
// subsection.
func (r *gitConfigReader) sectionHeader() (string, string, error) {
	var name strings.Builder
	for {
		c, ok := r.next()
		if !ok {
			return "", "", errors.New("unterminated section header")
		}
		switch {
		case c == ']':
			if name.Len() == 0 {
				return "", "", errors.New("empty section name")
			}
			s := strings.ToLower(name.String())
			// The old [section.sub] form: the subsection in lower case.
			if i := strings.IndexByte(s, '.'); i >= 0 {
				return s[:i], s[i+1:], nil
			}
			return s, "", nil
		case isGitSpace(c):
			sub, err := r.subsection()
			if err != nil {
				return "", "", err
			}
			return strings.ToLower(name.String()), sub, nil
		case isAlnum(c) || c == '-' || c == '.':
			name.WriteByte(c)
		default:
			return "", "", fmt.Errorf("bad character %q in a section name", c)
		}
	}
}

// subsection reads ` "sub"]` after a section name's space.
func (r *gitConfigReader) subsection() (string, error) {
	c, ok := r.next()
	for ok && isGitSpace(c) {
		c, ok = r.next()
	}
	if !ok || c != '"' {
		return "", errors.New("a subsection must be quoted")
	}
	var sub strings.Builder
	for {
		c, ok := r.next()
		if !ok || c == '\n' {
			return "", errors.New("unterminated subsection")
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			// git keeps the character after any backslash.
			if c, ok = r.next(); !ok || c == '\n' {
				return "", errors.New("unterminated subsection")
			}
		}
		sub.WriteByte(c)
	}
	if c, ok := r.next(); !ok || c != ']' {
		return "", errors.New("missing ] after a subsection")
	}
	return sub.String(), nil
}

// keyValue reads a key whose first letter is first, and its value.
func (r *gitConfigReader) keyValue(first byte) (gitEntry, error) {
	var key strings.Builder
	key.WriteByte(lower(first))
	var c byte
	ok := true
	for {
		if c, ok = r.next(); !ok || !(isAlnum(c) || c == '-') {
			break
		}
		key.WriteByte(lower(c))
	}
	e := gitEntry{Key: key.String()}
	for ok && isGitSpace(c) {
		c, ok = r.next()
	}
	if !ok || c == '\n' {
		return e, nil
	}
	if c == '#' || c == ';' {
		r.skipLine()
		return e, nil
	}
	if c != '=' {
		return e, fmt.Errorf("unexpected %q after key %s", c, e.Key)
	}
	v, err := r.value()
	if err != nil {
		return e, err
	}
	e.Value, e.HasValue = v, true
	return e, nil
}

// value reads a value after "=" to its line's end, as git's parse_value:
// leading space dropped, inner runs of space kept, trailing space
// dropped, except within quotes.
func (r *gitConfigReader) value() (string, error) {
	var v strings.Builder
	quoted, comment := false, false
	spaces := 0
	for {
		c, ok := r.next()
		if !ok || c == '\n' {
			if quoted {
				return "", errors.New("unterminated quote")
			}
			return v.String(), nil
		}
		if comment {
			continue
		}
		if isGitSpace(c) && !quoted {
			if v.Len() > 0 {
				spaces++
			}
			continue
		}
		if !quoted && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			v.WriteByte(' ')
		}
		switch c {
		case '\\':
			c, ok = r.next()
			if !ok {
				return "", errors.New("backslash at the end of the file")
			}
			switch c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", fmt.Errorf("bad escape \\%c", c)
			}
			v.WriteByte(c)
		case '"':
			quoted = !quoted
		default:
			v.WriteByte(c)
		}
	}
}

// isGitSpace is git's isspace but for the line's end: space, tab, CR.
func isGitSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }
func isAlpha(c byte) bool    { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func isAlnum(c byte) bool    { return isAlpha(c) || (c >= '0' && c <= '9') }
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Bounds of reading git settings, which every command's start does for
// each repository: git follows includes 10 deep (MAX_INCLUDE_DEPTH); at
// most maxIncludedFiles included files are followed, and a settings file
// past maxGitConfigSize is read up to there (a tracked file a repository's
// settings include could be made huge). People's settings files are a few
// KiB, with a handful of includes.
const (
	maxIncludeDepth  = 10
	maxGitConfigSize = 256 << 10
	maxIncludedFiles = 64
	// maxHooksPaths bounds the core.hooksPath values kept, the last ones.
	maxHooksPaths = 64
	// maxSettingPrograms bounds the paths kept from settings that run a
	// program (settingPrograms), the last ones: a person's are a few,
	// but each node or python script word names up to 8 files its
	// interpreter may pick (a42), of which only those that exist are
	// mounted.
	maxSettingPrograms = 256
	// maxSettingsBytes bounds the settings read at one command's start,
	// all repositories together.
	maxSettingsBytes = 4 << 20
	// maxRepoSettingsBytes bounds what one repository's settings read
	// takes of it (a person's are a few KiB).
	maxRepoSettingsBytes = 1 << 20
	// maxSettingsVisited bounds the settings gone through at one start,
	// read or remembered.
	maxSettingsVisited = 32 << 20
	// maxModulesSettingsVisited bounds the settings the submodules' git
	// folders of all repositories go through at one start (read, they
	// take at most maxSettingsBytes): going through remembered settings
	// costs about 2 ms a MiB, reading them about 120 ms.
	maxModulesSettingsVisited = 64 << 20
	// One repository's submodules take at most this share of the
	// submodules' budgets, read and gone through: a repository a command
	// makes (the grant itself, planned first) cannot use them up for the
	// person's. A person's submodule's settings are a few hundred bytes,
	// beside the person's own settings gone through again for each.
	maxModuleShareBytes   = 512 << 10
	maxModuleShareVisited = 8 << 20
)

// gitSettings is what a repository's git settings name that the
// person's git runs or reads as settings.
type gitSettings struct {
	// included are the files include.path and includeIf.*.path name,
	// followed down to maxIncludeDepth, as git would open them (~
	// expanded, relative ones beside the file naming them), whatever the
	// condition of an includeIf (a command could make it true).
	included []string
	// hooksPaths are the values of core.hooksPath, ~ expanded; a relative
	// one is relative to the folder git runs hooks in (the work tree).
	hooksPaths []string
	// worktree is the last core.worktree, ~ expanded ("" for none).
	worktree string
	// programs are the paths settings that run a program give
	// (runsProgram: a filter's clean, a textconv, core.fsmonitor…), each
	// word of the value that names a path, ~ expanded; a relative one is
	// relative to the work tree, where git runs them. first says the word
	// is a program the value runs (programWord).
	programs []settingProgram
}

// settingProgram is a path a setting that runs a program gives.
type settingProgram struct {
	path  string
	first bool
}

// readGitSettings reads the settings files configs (those that do not
// exist are skipped) and what they include; home expands ~.
func readGitSettings(home string, configs ...string) gitSettings {
	return newSettingsReader().settings(home, configs...)
}

// settingsReader reads git settings files for one launch: each file once
// (a command's hundreds of submodule folders may all include the same
// files), and at most maxRead bytes read and maxVisited gone through in
// all. A share of it (share) has budgets of its own and counts against
// its reader's too.
type settingsReader struct {
	parsed map[string]settingsFile
	// byFile are the settings read by file (device and inode): many names
	// (links) of one file cost one read.
	byFile map[[2]uint64]settingsFile
	// read is what was read from files; visited what was gone through,
	// read or remembered (a remembered file's settings are gone through
	// again for each repository that includes it).
	read, visited       int64
	maxRead, maxVisited int64
	// parent is the reader this one is a share of (nil for none): its
	// budgets bound every share's together.
	parent *settingsReader
	// over: a budget ran out, and what came after it was not read.
	over bool
	// eval resolves links (filepath.EvalSymlinks when nil): the plan's
	// resolver, which resolves each folder once.
	eval func(string) (string, error)
}

// settingsFile is one settings file's entries and size.
type settingsFile struct {
	entries []gitEntry
	size    int64
}

func newSettingsReader() *settingsReader {
	return newSettingsReaderOf(maxSettingsBytes, maxSettingsVisited)
}

// newSettingsReaderOf is a reader with budgets maxRead and maxVisited.
func newSettingsReaderOf(maxRead, maxVisited int64) *settingsReader {
	return &settingsReader{parsed: map[string]settingsFile{}, byFile: map[[2]uint64]settingsFile{}, maxRead: maxRead, maxVisited: maxVisited}
}

// share is a reader of r's files (read once for r and all its shares)
// whose reads count against budgets maxRead and maxVisited of its own as
// well as r's: each repository's submodules get one, so that no
// repository's submodules use up what the others' need, and r bounds
// them all.
func (r *settingsReader) share(maxRead, maxVisited int64) *settingsReader {
	return &settingsReader{parsed: r.parsed, byFile: r.byFile, maxRead: maxRead, maxVisited: maxVisited, parent: r, eval: r.eval}
}

// readLeft is what r may still read, its parents' budgets included.
func (r *settingsReader) readLeft() int64 {
	left := r.maxRead - r.read
	if r.parent != nil {
		left = min(left, r.parent.readLeft())
	}
	return left
}

// visitLeft: r may go through more settings, its parents' budgets
// included.
func (r *settingsReader) visitLeft() bool {
	return r.visited < r.maxVisited && (r.parent == nil || r.parent.visitLeft())
}

// count adds read and visited bytes to r and its parents.
func (r *settingsReader) count(read, visited int64) {
	for ; r != nil; r = r.parent {
		r.read += read
		r.visited += visited
	}
}

// markOver says a budget ran out, on r and its parents (whose over makes
// the plan's note).
func (r *settingsReader) markOver() {
	for ; r != nil; r = r.parent {
		r.over = true
	}
}

// file is the settings file path (no entries when it cannot be read, or
// the budget to read ran out).
func (r *settingsReader) file(path string) settingsFile {
	if f, ok := r.parsed[path]; ok {
		return f
	}
	var key [2]uint64
	if fi, err := os.Stat(path); err == nil {
		if k, ok := fileKey(fi); ok {
			key = k
			if f, ok := r.byFile[key]; ok {
				r.parsed[path] = f
				return f
			}
		}
	}
	left := r.readLeft()
	if left <= 0 {
		r.markOver()
		return settingsFile{}
	}
	limit := min(maxGitConfigSize, left)
	data, err := readRegular(path, limit)
	r.count(int64(len(data)), 0)
	f := settingsFile{size: int64(len(data))}
	if err == nil {
		f.entries, _ = parseGitConfig(data)
	}
	if limit < maxGitConfigSize && int64(len(data)) >= limit {
		// Cut short by this share's budget: another share, with budget
		// left, reads the whole file rather than this part of it.
		r.markOver()
		return f
	}
	r.parsed[path] = f
	if key != ([2]uint64{}) {
		r.byFile[key] = f
	}
	return f
}

// settings reads the settings files configs and what they include, as
// readGitSettings.
func (r *settingsReader) settings(home string, configs ...string) gitSettings {
	var s gitSettings
	seen := map[string]bool{}
	// One repository's settings take at most maxRepoSettingsBytes of the
	// launch's budgets: a repository read first (the one a grant lies in,
	// which a command can make) cannot use them up, and the thousands of
	// submodule folders a command can make that include the same large
	// files cost a bounded time.
	used := int64(0)
	var read func(path string, depth int)
	read = func(path string, depth int) {
		if depth > maxIncludeDepth || len(s.included) >= maxIncludedFiles || used >= maxRepoSettingsBytes {
			return
		}
		if !r.visitLeft() {
			r.markOver()
			return
		}
		f := r.file(path)
		used += f.size
		r.count(0, f.size)
		for _, e := range f.entries {
			if !e.HasValue || e.Value == "" {
				continue
			}
			switch {
			case e.Key == "path" && (e.Section == "include" && e.Subsection == "" || e.Section == "includeif" && e.Subsection != ""):
				if !gitCanOpen(e.Value) {
					continue
				}
				for _, inc := range includedPaths(path, e.Value, home, r.eval) {
					if seen[inc] || len(s.included) >= maxIncludedFiles {
						continue
					}
					seen[inc] = true
					s.included = append(s.included, inc)
					read(inc, depth+1)
				}
			case e.Section == "core" && e.Subsection == "" && e.Key == "hookspath":
				if !gitCanOpen(e.Value) {
					continue
				}
				if p, ok := expandGitPath(e.Value, home); ok {
					s.hooksPaths = append(s.hooksPaths, p)
				}
			case runsProgram(e):
				s.programs = append(s.programs, settingPrograms(e, home)...)
			case e.Section == "core" && e.Subsection == "" && e.Key == "worktree":
				if p, ok := expandGitPath(e.Value, home); ok {
					if !filepath.IsAbs(p) {
						p = filepath.Join(filepath.Dir(path), p)
					}
					s.worktree = p
				}
			}
		}
	}
	for _, c := range configs {
		read(c, 0)
	}
	// git takes the last value; the ones before could win only where an
	// includeIf's condition differs. A command's repository may list
	// thousands, each a mount.
	if len(s.hooksPaths) > maxHooksPaths {
		s.hooksPaths = s.hooksPaths[len(s.hooksPaths)-maxHooksPaths:]
	}
	if len(s.programs) > maxSettingPrograms {
		s.programs = s.programs[len(s.programs)-maxSettingPrograms:]
	}
	return s
}

// includedPaths are the files an include of value in the settings file
// from names: git joins a relative one to the name it opened from by,
// and the kernel resolves "x/.." of that name through links, so both the
// lexical join and the one beside the file's real folder are taken
// (.git a link to .repo/projects/NAME.git: "../x" is either). eval
// resolves links (filepath.EvalSymlinks when nil).
func includedPaths(from, value, home string, eval func(string) (string, error)) []string {
	p, ok := expandGitPath(value, home)
	if !ok {
		return nil
	}
	if filepath.IsAbs(p) {
		return []string{filepath.Clean(p)}
	}
	out := []string{filepath.Join(filepath.Dir(from), p)}
	if eval == nil {
		eval = filepath.EvalSymlinks
	}
	if real, err := eval(filepath.Dir(from)); err == nil {
		if q := filepath.Join(real, p); q != out[0] {
			out = append(out, q)
		}
	}
	return out
}

// expandGitPath expands a leading ~ or ~user as git's
// interpolate_path does; false for what git would refuse or for
// %(prefix)/, git's own installation folder (the system's).
func expandGitPath(p, home string) (string, bool) {
	if strings.HasPrefix(p, "%(prefix)/") {
		return "", false
	}
	if !strings.HasPrefix(p, "~") {
		return p, true
	}
	name, rest, _ := strings.Cut(p[1:], "/")
	if name == "" {
		if home == "" {
			return "", false
		}
		return filepath.Join(home, rest), true
	}
	u, err := user.Lookup(name)
	if err != nil || u.HomeDir == "" {
		return "", false
	}
	return filepath.Join(u.HomeDir, rest), true
}

// readBounded reads up to maxGitConfigSize bytes of path.
func readBounded(path string) ([]byte, error) {
	return readRegular(path, maxGitConfigSize)
}

// readRegular reads at most limit bytes of path, a regular file: opened
// without waiting (a FIFO a command put there would hold the launcher,
// before its sandbox, for as long as the command's leftover process
// likes) and refused when it is anything else.
func readRegular(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, errNotRegular)
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// personGitConfigs are the settings files every git of the person reads
// besides a repository's own, as git finds them from env (os.Getenv's
// shape): the system's ($GIT_CONFIG_SYSTEM, else /etc/gitconfig) and
// the person's ($GIT_CONFIG_GLOBAL, else $XDG_CONFIG_HOME/git/config,
// else ~/.config/git/config, and ~/.gitconfig) with home for ~.
func personGitConfigs(home string, getenv func(string) string) []string {
	out := []string{"/etc/gitconfig"}
	if s := getenv("GIT_CONFIG_SYSTEM"); s != "" {
		out = append(out, s)
	}
	if g := getenv("GIT_CONFIG_GLOBAL"); g != "" {
		out = append(out, g)
	}
	if home == "" {
		return out
	}
	xdg := getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	return append(out, filepath.Join(xdg, "git", "config"), filepath.Join(home, ".gitconfig"))
}

// maxGitPath is PATH_MAX on Linux: the kernel refuses a path this long or
// longer (with its ending NUL, more than PATH_MAX bytes).
const maxGitPath = 4096

// gitCanOpen: whether git can open what an include's path or
// core.hooksPath names. git hands the kernel the value as it is or longer
// (joined to the settings' folder; ~ expanded, at most a user name
// shorter), or shortened no further than cleaning it does (git drops a
// leading "./" and the slashes after it), and the kernel refuses one of
// maxGitPath or more: such a value names nothing to protect. A command
// made a core.hooksPath of 120,000 folders (240 KiB), which the plan
// cleaned and resolved at each level: a minute of every later start.
func gitCanOpen(value string) bool { return len(filepath.Clean(value)) < maxGitPath+256 }
