package gate

import (
	"path"
	"strings"

	"github.com/wrasse-app/wrasse/plugins/sdk/credname"
)

// CredentialStores are the places, relative to the home folder, where
// programs keep keys, tokens, passwords and browser sessions. A call that
// names one (or, reading recursively, a folder holding one) always asks,
// and neither an approval for the conversation nor an allowed-command
// pattern covers it. The person adds their own with the shell's
// privatePaths setting.
func CredentialStores() []string {
	return []string{
		".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker/config.json", ".netrc",
		".git-credentials", ".config/gh", ".config/hub", ".npmrc", ".pypirc", ".cargo/credentials",
		".cargo/credentials.toml", ".terraform.d/credentials.tfrc.json", ".vault-token", ".pgpass", ".my.cnf",
		".config/rclone", ".password-store", ".local/share/keyrings", ".config/keepassxc", ".config/Bitwarden",
		".config/1Password", ".config/op", ".1password", ".pki", ".mozilla", ".thunderbird", "snap/firefox",
		".config/google-chrome", ".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge",
		".config/vivaldi", ".config/opera", ".bitcoin", ".electrum", ".ethereum", "Library/Keychains",
		"Library/Cookies", "Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
		"Library/Application Support/BraveSoftware", "Library/Application Support/Microsoft Edge",
		"Library/Application Support/1Password", "Library/Group Containers/2BUA8C4S2C.com.1password",
	}
}

// CredentialNames are file names that hold secrets wherever they are:
// .env files (but not .env.example and the like; also direnv's .envrc and
// prod.env-style names) and private SSH keys, the list the plugin SDK uses
// too (credname.Patterns). Names match in any case: on macOS and Windows
// .ENV is .env.
func CredentialNames() []string { return credname.Patterns() }

// envTemplates are .env files meant to be shared, holding no secrets.
var envTemplates = setOf(credname.Templates()...)

// privateStores are the credential stores as absolute paths (or
// ~-relative when the home folder is not known), with the person's own;
// names are the file names that count anywhere.
func (e Env) privateStores() (stores, names []string) {
	home := strings.TrimSuffix(e.Home, "/")
	if home == "" {
		home = "~"
	}
	for _, s := range CredentialStores() {
		stores = append(stores, home+"/"+s)
	}
	names = CredentialNames()
	for _, p := range e.Private {
		p = strings.TrimSpace(p)
		switch {
		case p == "":
		case p == "~" || strings.HasPrefix(p, "~/"):
			stores = append(stores, path.Clean(home+strings.TrimPrefix(p, "~")))
		case strings.HasPrefix(p, "/"):
			stores = append(stores, path.Clean(p))
		case !strings.Contains(p, "/"):
			names = append(names, p)
		default:
			stores = append(stores, path.Clean(home+"/"+p))
		}
	}
	return stores, names
}

// privateHit is the credential store a path names, or "" when none:
// the store itself or anything in it (also through a glob that can match
// it: ~/.ss?/id_*), a folder holding one when the program reads
// recursively, or a file whose name is a credential name.
func (e Env) privateHit(u PathUse) string {
	p := u.Path
	if p == "" || strings.HasPrefix(p, "$") {
		return ""
	}
	stores, names := e.privateStores()
	home := strings.TrimSuffix(e.Home, "/")
	for _, s := range stores {
		switch {
		case strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~"):
			if globCovers(p, s, u.Glob, u.Recursive) {
				return s
			}
		default:
			// Relative, the working folder unknown: it may be the home
			// folder, so a word that starts like a store names it. (A
			// folder holding one is not assumed: "." is rarely the home.)
			rel := s
			if home != "" {
				rel = strings.TrimPrefix(s, home+"/")
			} else {
				rel = strings.TrimPrefix(s, "~/")
			}
			if globCovers("/"+strings.TrimPrefix(path.Clean(p), "./"), "/"+rel, u.Glob, false) && path.Clean(p) != "." {
				return s
			}
		}
	}
	base := path.Base(p)
	for _, n := range names {
		if nameMatches(base, n, u.Glob) && !envTemplates[strings.ToLower(base)] {
			return p
		}
	}
	return ""
}

// nameMatches reports whether a file name (a glob when glob is true)
// can be name, itself a glob such as .env.* in the list. A glob counts
// only when it spells some of the name (id_*, .env*), not * alone.
//
// A dot file's glob counts from two characters (.e* matches .env, and
// little else in a project), and a glob is tried against the names such
// a file commonly has (.env.production for .env.p*).
func nameMatches(base, name string, glob bool) bool {
	base, name = strings.ToLower(base), strings.ToLower(name)
	if !glob || !hasGlob(base) {
		ok, _ := path.Match(name, base)
		return ok
	}
	least := 3
	if strings.HasPrefix(base, ".") {
		least = 2
	}
	if literalLen(base) < least {
		return false
	}
	for _, cand := range nameSamples(name) {
		if compMatch(base, cand) {
			return true
		}
	}
	return false
}

// envSuffixes are the endings .env files commonly have.
var envSuffixes = []string{"x", "local", "production", "prod", "development", "dev", "staging", "stage", "test", "live",
	"secret", "secrets", "private", "backup", "bak", "old", "save"}

// nameSamples are file names a credential name (a glob such as .env.*)
// stands for.
func nameSamples(name string) []string {
	if !strings.Contains(name, "*") {
		return []string{name}
	}
	out := make([]string, 0, len(envSuffixes))
	for _, s := range envSuffixes {
		out = append(out, strings.ReplaceAll(name, "*", s))
	}
	return out
}

// globCovers reports whether the path pattern p (a plain path when glob
// is false) names target, something inside it, or, when recursive, a
// folder that holds it.
func globCovers(p, target string, glob, recursive bool) bool {
	pc := splitPath(p)
	tc := splitPath(target)
	n := min(len(pc), len(tc))
	for i := 0; i < n; i++ {
		if !componentMatch(pc[i], tc[i], glob) {
			return false
		}
	}
	return len(pc) >= len(tc) || recursive
}

func splitPath(p string) []string {
	p = path.Clean(p)
	if p == "/" {
		return nil
	}
	return strings.Split(strings.TrimPrefix(p, "/"), "/")
}

// componentMatch matches one path component; a glob component follows
// the shell: a leading dot is matched only by a leading dot.
func componentMatch(pat, name string, glob bool) bool {
	if !glob || !hasGlob(pat) {
		return pat == name
	}
	return compMatch(pat, name)
}

func compMatch(pat, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pat, ".") {
		return false
	}
	ok, err := path.Match(pat, name)
	return ok && err == nil
}

// literalLen counts the characters of a glob that are not wildcards.
func literalLen(s string) int {
	n, depth := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '[':
			depth++
		case c == ']' && depth > 0:
			depth--
		case c == '*' || c == '?':
		case depth == 0:
			n++
		}
	}
	return n
}

// protectedHit says which of Wrasse's own files a path names: the
// workspace database (wrasse.db, anywhere), or the workspace's
// config.json, logs or cache. A glob that can match one counts as naming
// it (wrasse.d?, config.js*), unless it is too loose to mean it (*.db).
func (e Env) protectedHit(u PathUse) string {
	p := u.Path
	if p == "" || strings.HasPrefix(p, "$") {
		return ""
	}
	base := path.Base(p)
	if base == "wrasse.db" || u.Glob && literalLen(base) >= 4 && compMatch(base, "wrasse.db") {
		return "wrasse.db"
	}
	if e.Workspace == "" || !strings.HasPrefix(p, "/") {
		return ""
	}
	ws := path.Clean(e.Workspace)
	for _, name := range []string{"wrasse.db", "config.json", "logs", ".cache"} {
		if globCovers(p, ws+"/"+name, u.Glob, false) {
			return ws + "/" + name
		}
	}
	return ""
}

// procHit reports a path into another process's folder under /proc
// (/proc/1234/environ, /proc/$PPID/cmdline, /proc/*/environ), or a
// recursive read of /proc or of such a folder: what another process was
// started with, its environment (where API keys live) and its memory.
func procHit(u PathUse) bool {
	p := u.Path
	if !strings.HasPrefix(p, "/proc") {
		return false
	}
	c := splitPath(p)
	if len(c) == 0 || c[0] != "proc" && !(u.Glob && compMatch(c[0], "proc")) {
		return false
	}
	if len(c) == 1 {
		return u.Recursive
	}
	x := c[1]
	pidLike := strings.Trim(x, "0123456789") == "" || strings.ContainsAny(x, "$*?[")
	if x == "self" || x == "thread-self" {
		pidLike = false
	}
	return pidLike && (len(c) > 2 || u.Recursive)
}

// homeDeleteHit reports a recursive delete of the root folder, the home
// folder, a folder holding it or any user's home (/root, /home/NAME,
// /Users/NAME), also through a glob (~/*, /home/*).
func (e Env) homeDeleteHit(u PathUse) bool {
	p := u.Path
	if homeParam(p) {
		return true
	}
	if p == "" || strings.HasPrefix(p, "$") {
		return false
	}
	if p == "~" || strings.HasPrefix(p, "~/") && strings.Trim(strings.TrimPrefix(p, "~/"), "/*.") == "" {
		return true
	}
	if name, rest, _ := strings.Cut(strings.TrimPrefix(p, "~"), "/"); strings.HasPrefix(p, "~") && validUserName(name) {
		// ~name of a user the checker could not look up: that user's
		// home, wherever it is, as surely as /home/name.
		p = path.Join("/home", name, rest)
	}
	if !strings.HasPrefix(p, "/") {
		return false
	}
	homes := []string{"/root", "/home", "/Users"}
	if h := strings.TrimSuffix(e.Home, "/"); h != "" {
		homes = append(homes, h)
	}
	pc := splitPath(p)
	if u.Glob && len(pc) > 0 && strings.Trim(pc[len(pc)-1], "*.") == "" {
		pc = pc[:len(pc)-1] // everything in that folder
	}
	if len(pc) == 0 {
		return true
	}
	if len(pc) == 2 && (pc[0] == "home" || pc[0] == "Users") && !hasGlob(pc[1]) || len(pc) == 2 && u.Glob && (pc[0] == "home" || pc[0] == "Users") {
		return true
	}
	for _, h := range homes {
		hc := splitPath(h)
		if len(pc) > len(hc) {
			continue
		}
		match := true
		for i := range pc {
			if !componentMatch(pc[i], hc[i], u.Glob) {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// homeParam reports a word that is $HOME or ${HOME…} with an operation
// the checker does not follow (${HOME:0}, ${HOME/x/x}), and nothing
// after it but a slash or a glob of everything: the home folder.
func homeParam(p string) bool {
	switch {
	case strings.HasPrefix(p, "${HOME") && len(p) > 6 && !isNameByte(p[6]):
		end := strings.IndexByte(p, '}')
		return end > 0 && strings.Trim(p[end+1:], "/*.") == ""
	case strings.HasPrefix(p, "$HOME") && (len(p) == 5 || !isNameByte(p[5])):
		return strings.Trim(p[5:], "/*.") == ""
	}
	return false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// outside reports a path outside the granted folders and the temporary
// folders (or, with the working folder unknown, one that climbs out of
// it with ..). A glob counts by the folder it starts in.
func (e Env) outside(u PathUse) bool {
	if e.Folders == nil {
		return false
	}
	p := u.Path
	switch {
	case p == "" || strings.Contains(p, "$") || strings.HasPrefix(p, "~"):
		return false
	case !strings.HasPrefix(p, "/"):
		c := path.Clean(p)
		return c == ".." || strings.HasPrefix(c, "../")
	}
	if quietDevice(p) {
		return false
	}
	if u.Glob {
		var lit []string
		for _, c := range splitPath(p) {
			if hasGlob(c) {
				break
			}
			lit = append(lit, c)
		}
		p = "/" + strings.Join(lit, "/")
	}
	for _, f := range append(append([]string(nil), e.Folders...), e.tempDirs()...) {
		if within(p, f) {
			return false
		}
	}
	return true
}

// quietDevice is a device every command may use: /dev/null, the standard
// streams, the terminal and the random sources.
func quietDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/")
}

// within reports whether p is base or lies beneath it.
func within(p, base string) bool {
	base = path.Clean(strings.ReplaceAll(base, `\`, "/"))
	if base == "/" {
		return true
	}
	return p == base || strings.HasPrefix(p, base+"/")
}
