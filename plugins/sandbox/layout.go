package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// systemExec are the folders programs and their libraries live in.
var systemExec = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix/store", "/snap",
	"/etc/alternatives"}

// etcFiles are the files in /etc that libraries read to work: name
// resolution, certificates, time zones, the dynamic linker, locales.
// /etc/passwd, shadow, sudoers and SSH host keys are not among them.
var etcFiles = []string{"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/timezone",
	"/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/gai.conf", "/etc/host.conf", "/etc/services",
	"/etc/protocols", "/etc/ssl/certs", "/etc/ssl/openssl.cnf", "/etc/ca-certificates", "/etc/pki/tls/certs", "/etc/mime.types",
	"/etc/locale.alias", "/etc/gitconfig", "/etc/inputrc", "/etc/magic", "/etc/papersize", "/usr/share/zoneinfo"}

// devFiles are the device files ordinary programs use. /dev/tty is not
// among them: a sandboxed process runs in a session of its own, without a
// controlling terminal, and has no business with the person's.
var devFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// homeReadable are what a command reads, never writes, under the home
// folder, relative to it, whether or not the home folder is granted
// (where it is, the home folder rule keeps them read-only anyway): the
// person's build and package caches, several of which hold code the
// person's own tools run later without checking it again (Go's build
// cache, Poetry's virtualenvs, Corepack's package managers, pre-commit's
// hooks, Cargo's extracted crates, Maven's and Gradle's plugin jars);
// Cargo's settings; Gradle's init scripts; and Go's module cache, whose
// module sources and toolchains the person's go command compiles and runs
// without checking them again. Commands write their own cache home
// instead (CommandCache, CommandCacheEnv); Cargo's lock files stay
// writable (homeCacheLocks).
var homeReadable = append([]string{".npm", ".cargo/registry", ".cargo/git", ".cargo/config.toml", ".cargo/config",
	".gradle/caches", ".gradle/native", ".gradle/.tmp", ".gradle/init.d", ".gradle/init.gradle",
	".gradle/init.gradle.kts", ".m2/repository", "go/pkg"}, homeBuildCaches...)

// homeBuildCaches are the folders of ~/.cache that build tools, package
// managers and language runtimes keep there, relative to the home folder:
// readable to commands and MCP servers without a home grant. The rest of
// ~/.cache is the person's other programs' (mail, browsers' caches,
// thumbnails, file indexes) and out of their reach.
var homeBuildCaches = []string{".cache/go-build", ".cache/golangci-lint", ".cache/gopls", ".cache/pip", ".cache/pypoetry",
	".cache/pre-commit", ".cache/uv", ".cache/pdm", ".cache/hatch", ".cache/black", ".cache/ruff", ".cache/mypy",
	".cache/node", ".cache/node-gyp", ".cache/yarn", ".cache/pnpm", ".cache/typescript", ".cache/deno",
	".cache/ms-playwright", ".cache/puppeteer", ".cache/Cypress", ".cache/electron", ".cache/prisma", ".cache/bazel",
	".cache/ccache", ".cache/sccache", ".cache/zig", ".cache/coursier", ".cache/rebar3", ".cache/composer",
	".cache/huggingface", ".cache/torch", ".cache/matplotlib", ".cache/fontconfig", ".cache/mesa_shader_cache"}

// homeCacheLocks are lock files beside the person's caches that a build
// reading them takes, relative to the home folder: writable to commands.
var homeCacheLocks = []string{".cargo/.package-cache", ".cargo/.package-cache-mutate"}

// homePrograms are folders under the home folder holding programs, or
// code every run of an interpreter loads, that the person's terminal and
// MCP servers run (installed tools, toolchains, node and Python versions,
// user site-packages, npx's installed packages), relative to it: a command
// may read and run them whether or not the home folder is granted, never
// change them (the home folder rule), so it cannot put its code in the
// place of a program run outside the sandbox.
var homePrograms = []string{".local/bin", ".local/lib", ".nvm", ".pyenv", ".rustup", ".cargo/bin", "go/bin", ".npm/_npx",
	".gradle/wrapper"}

// homeProgramFolders are the entries beside the person's own files in
// the home folder (no dot) that hold programs or code the person's tools
// run, relative to it (a pattern of filepath.Match where it has a *):
// ~/bin (on PATH in Debian's ~/.profile), Go's installed programs and
// module cache, the Go toolchains golang.org/dl installs, the Python
// distributions conda, mamba and miniforge install under any of their
// usual names, a virtualenv at the top (~/venv, sourced from ~/.bashrc),
// Google Cloud's SDK (its path.bash.inc is sourced from ~/.bashrc),
// local::lib's ~/perl5 (PERL5LIB), R's user library (R_LIBS_USER), the
// Android SDK, Flutter, AppImages (~/Applications, ~/AppImages),
// node_modules at the top (node resolves require() up to the home folder
// from every project below it), and the desktop's launchers (KDE and
// Xfce run an executable ~/Desktop/*.desktop when clicked). The home
// folder rule (homeRule) keeps them as it keeps the dot entries: read
// and run, never write.
var homeProgramFolders = []string{"bin", "go/bin", "go/pkg", "sdk", "miniconda", "miniconda2", "miniconda3", "anaconda",
	"anaconda2", "anaconda3", "miniforge", "miniforge3", "mambaforge", "micromamba", "venv", "env", "virtualenvs",
	"google-cloud-sdk", "perl5", "R", "Android", "flutter", "Applications", "AppImages", "node_modules",
	"Desktop/*.desktop"}

// homeProgramPaths lists the entries of homeProgramFolders that exist in
// h, and the folders of the app's PATH inside h (~/scripts, ~/local/bin:
// what the person's shell runs by name, wherever they keep it), in
// PATH's order. h itself on PATH is left as granted: the dot entries and
// the carving of h already keep what runs there.
func homeProgramPaths(h string) []string {
	var out []string
	for _, rel := range homeProgramFolders {
		if strings.Contains(rel, "*") {
			m, _ := filepath.Glob(filepath.Join(h, rel))
			out = append(out, m...)
		} else if _, err := os.Lstat(filepath.Join(h, rel)); err == nil {
			out = append(out, filepath.Join(h, rel))
		}
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(dir) {
			continue
		}
		dir = Clean(dir)
		if dir == h || !within(h, dir) || slices.Contains(out, dir) {
			continue
		}
		if _, err := os.Lstat(dir); err == nil {
			out = append(out, dir)
		}
	}
	return out
}

// homeMarkers are entries a home folder holds and a project seldom does
// (.config is not among them: .NET projects keep their tools there): a
// granted folder other than the home folder that holds one (another
// user's home, a container's, a plugin's process whose $HOME differs)
// gets the home folder rule too.
var homeMarkers = []string{".bashrc", ".profile", ".bash_profile", ".zshrc", ".ssh", ".local"}

// credentialFiles are files and folders under the home folder that hold
// credentials, relative to it: registry and package tokens, cloud and
// cluster credentials, forges' CLI tokens, git's stored passwords,
// database passwords, private key stores, the tokens tools keep among
// their caches (Hugging Face; the Gradle daemons' registry, whose token
// lets a client hand a daemon a build it runs outside any sandbox), AI
// tools' logins, browser, mail and messenger profiles (cookies, saved
// passwords, sessions), the per-app homes of snaps and Flatpaks (~/snap,
// ~/.var/app: where Ubuntu's Firefox and Flatpak browsers keep their
// profiles; no snap or Flatpak runs inside a sandbox anyway, their
// launchers are setuid or need namespaces no_new_privs refuses), NSS's
// client-certificate keys, the shells' and REPLs' histories (a token
// typed once on a command line; atuin's history database), the X11 and
// ICE session cookies, and git's credential-cache daemon sockets (which
// hand out the passwords they hold to whoever connects). No
// sandbox reads or writes them, whatever is granted. The private keys in
// ~/.ssh are found by sshPrivate. The list is names only: its cost is the
// carving of its entries that exist (BenchmarkHomeRule).
var credentialFiles = []string{".npmrc", ".yarnrc.yml", ".pypirc", ".netrc", ".git-credentials",
	".config/git/credentials", ".cargo/credentials", ".cargo/credentials.toml", ".gradle/gradle.properties",
	".gradle/daemon", ".m2/settings.xml", ".m2/settings-security.xml", ".docker/config.json", ".config/gh/hosts.yml",
	".config/hub", ".config/glab-cli", ".aws/credentials", ".aws/sso/cache", ".aws/cli/cache", ".azure", ".config/gcloud",
	".vault-token", ".terraform.d/credentials.tfrc.json", ".pgpass", ".my.cnf", ".gem/credentials",
	".composer/auth.json", ".config/composer/auth.json", ".config/rclone/rclone.conf", ".gnupg/private-keys-v1.d",
	".gnupg/secring.gpg", ".local/share/keyrings", ".password-store", ".cache/huggingface/token",
	".cache/huggingface/stored_tokens", ".huggingface/token", ".config/op", ".codex/auth.json",
	".claude/.credentials.json", ".mozilla", ".thunderbird", ".config/google-chrome", ".config/chromium",
	".config/BraveSoftware", ".config/microsoft-edge", ".config/vivaldi", ".config/vivaldi-snapshot", ".config/opera",
	".config/opera-beta", ".config/Slack", ".config/discord", ".config/Signal", ".config/Element",
	".local/share/TelegramDesktop", "snap", ".var/app", ".pki/nssdb", ".config/github-copilot", ".gemini",
	".config/containers/auth.json", ".terraformrc", ".s3cfg", ".databrickscfg", ".config/doctl", ".fly", ".kube",
	".authinfo", ".authinfo.gpg", ".msmtprc", ".config/msmtp", ".mbsyncrc", ".fetchmailrc", ".config/filezilla",
	".bash_history", ".zsh_history", ".zhistory", ".histfile", ".local/share/fish/fish_history", ".sh_history",
	".python_history", ".node_repl_history", ".psql_history", ".mysql_history", ".sqlite_history", ".rediscli_history",
	".irb_history", ".lesshst", ".Xauthority", ".ICEauthority", ".yarnrc", ".config/pip/pip.conf", ".pip/pip.conf",
	".config/pypoetry/auth.toml", ".pulumi/credentials.json", ".config/sops/age/keys.txt", ".local/share/kwalletd",
	".kde/share/apps/kwallet", ".kde4/share/apps/kwallet", ".config/ngrok/ngrok.yml", ".ngrok2/ngrok.yml",
	".config/hcloud/cli.toml", ".oci", ".boto", ".config/gsutil", ".wrangler/config", ".config/.wrangler/config",
	".config/netlify/config.json", ".local/share/com.vercel.cli/auth.json", ".supabase/access-token",
	".config/stripe/config.toml", ".config/configstore", ".config/helm/repositories.yaml", ".config/tea",
	".cache/git/credential", ".git-credential-cache", ".local/share/atuin", ".now", ".local/share/now",
	".config/helm/registry", ".docker/key.pem"}

// CredentialFiles are the files and folders under the home folder,
// relative to it, that no sandbox reads (credentialFiles): for the checks
// outside a sandbox that must agree with it, such as the attached files
// the core reads itself.
func CredentialFiles() []string { return slices.Clone(credentialFiles) }

// CredentialPaths are the absolute paths no sandbox reads for the home
// folder home: credentialFiles under it, the private keys in its ~/.ssh,
// and the stores this process's environment moves elsewhere
// (XDG_CONFIG_HOME, AWS_SHARED_CREDENTIALS_FILE…).
func CredentialPaths(home string) []string {
	var out []string
	if filepath.IsAbs(home) {
		for _, rel := range credentialFiles {
			out = append(out, filepath.Join(home, rel))
		}
		out = append(out, sshPrivate(home)...)
	}
	return append(out, relocatedCredentials()...)
}

// movedCredentials are the environment variables that move a credential
// store away from the name credentialFiles knows, and the files in the
// folder each names ("" when the variable names the file itself, or a
// list of files as KUBECONFIG does). The XDG base folders move every
// entry of credentialFiles under ~/.config, ~/.local/share and ~/.cache
// (xdgBases).
var movedCredentials = []struct {
	env   string
	files []string
}{
	{"DOCKER_CONFIG", []string{"config.json"}}, {"DOCKER_CERT_PATH", []string{"key.pem"}}, {"KUBECONFIG", nil},
	{"AWS_SHARED_CREDENTIALS_FILE", nil}, {"GNUPGHOME", []string{"private-keys-v1.d", "secring.gpg"}},
	{"PASSWORD_STORE_DIR", nil}, {"CARGO_HOME", []string{"credentials", "credentials.toml"}}, {"RCLONE_CONFIG", nil},
	{"HELM_REGISTRY_CONFIG", nil}, {"GH_CONFIG_DIR", []string{"hosts.yml"}}, {"AZURE_CONFIG_DIR", nil},
	{"CLOUDSDK_CONFIG", nil}, {"NPM_CONFIG_USERCONFIG", nil}, {"PIP_CONFIG_FILE", nil},
	{"HISTFILE", nil},
}

// xdgBases are the XDG variables that move the home folder's settings,
// data and cache folders, and the folder each stands for.
var xdgBases = []struct{ env, rel string }{
	{"XDG_CONFIG_HOME", ".config"}, {"XDG_DATA_HOME", ".local/share"}, {"XDG_CACHE_HOME", ".cache"}}

// relocatedCredentials are the credential stores the app's environment
// moves away from their usual names: each entry of credentialFiles under
// an XDG base folder again under the folder its variable names, and the
// stores movedCredentials name. Only absolute values count (a relative
// one means nothing to a sandbox started elsewhere).
func relocatedCredentials() []string {
	var out []string
	for _, b := range xdgBases {
		base := os.Getenv(b.env)
		if !filepath.IsAbs(base) {
			continue
		}
		for _, rel := range credentialFiles {
			if rest, ok := strings.CutPrefix(rel, b.rel+"/"); ok {
				out = append(out, filepath.Join(base, rest))
			}
		}
	}
	for _, m := range movedCredentials {
		for _, v := range filepath.SplitList(os.Getenv(m.env)) {
			if !filepath.IsAbs(v) {
				continue
			}
			if m.files == nil {
				out = append(out, v)
			}
			for _, f := range m.files {
				out = append(out, filepath.Join(v, f))
			}
		}
	}
	return out
}

// sshPublic are the entries of ~/.ssh that hold nothing secret: what ssh
// reads to find and trust hosts, and the public halves of keys. Every
// other entry there (private keys, whatever their names; control
// sockets) is unreadable to every sandbox (sshPrivate).
var sshPublic = []string{"config", "config.d", "known_hosts", "known_hosts.old", "known_hosts2", "authorized_keys",
	"authorized_keys2", "rc", "environment"}

// sshPrivate are the entries of home's ~/.ssh but sshPublic and *.pub.
func sshPrivate(home string) []string {
	dir := filepath.Join(home, ".ssh")
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if n := e.Name(); !slices.Contains(sshPublic, n) && !strings.HasSuffix(n, ".pub") {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// homeRule adds to p the home folder rule, for home and for every
// granted folder that is a home folder (holds one of homeMarkers):
//
//   - Where a writable grant is the home folder or holds it, the home
//     folder's top-level dot entries (settings, programs, caches, shell
//     and session startup files: ~/.config, ~/.local, ~/.ssh, ~/.cache,
//     ~/.bashrc, ~/.gitconfig…) and homeProgramFolders are read-only
//     and executable, never writable, in every sandbox: the person's own
//     tools, terminal and session run or obey what they hold outside any
//     sandbox. The home folder itself takes no new entries (Rules carves
//     it), so no new dot entry can be planted either.
//   - A writable grant of p deeper inside one of them stays writable:
//     the commands' own cache home (CommandCache), an MCP server's own
//     temporary folder and package cache, Cargo's lock files, and a
//     folder the person granted themselves (~/.config/myapp granted on
//     its own). The folders on the way down to it are listed only, take
//     no new entries, and their other entries stay read-only.
//   - credentialFiles and the private keys in ~/.ssh are unreadable in
//     every sandbox, whatever is granted.
//   - What the person's git settings include and an absolute
//     core.hooksPath there names are read-only where a writable grant
//     reaches them (keepGitSettings).
//
// Other entries of the home folder (~/Documents, ~/projects) stay as
// granted. The cost is one listing of the home folder, and one of each
// folder on the way to a deeper writable grant (BenchmarkHomeRule).
func (p *Policy) homeRule(home string, roots []string) {
	var homes []string
	if home != "" {
		homes = append(homes, Clean(home))
	}
	for _, r := range roots {
		c := Clean(r)
		if slices.Contains(homes, c) {
			continue
		}
		if isHome(c) {
			homes = append(homes, c)
		}
	}
	writable := cleanAll(p.ReadWrite)
	for _, h := range homes {
		p.homeSecrets(h)
		if !slices.ContainsFunc(writable, func(g string) bool { return holdsPath(g, h) }) {
			continue
		}
		var keep []string
		for _, g := range writable {
			if within(h, g) {
				keep = append(keep, g)
			}
		}
		entries, _ := os.ReadDir(h)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				p.keepFrom(filepath.Join(h, e.Name()), keep)
			}
		}
		var kept []string
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				kept = append(kept, filepath.Join(h, e.Name()))
			}
		}
		for _, prog := range homeProgramPaths(h) {
			p.keepFrom(prog, keep)
			kept = append(kept, prog)
		}
		for _, t := range linkedTargets(kept, writable) {
			if !holdsPath(t, h) {
				p.keepFrom(t, keep)
			}
		}
	}
	if home != "" {
		p.keepGitSettings(Clean(home), writable)
	}
	p.broadRule(home, writable)
}

// keepGitSettings makes read-only what the person's own git settings
// (personGitConfigs: ~/.gitconfig, ~/.config/git/config, /etc/gitconfig)
// name where a writable grant reaches it: the files they include
// (include.path, includeIf.*.path, followed as readGitSettings does: a
// dotfiles repository's ~/dotfiles/gitconfig) and the folder an absolute
// core.hooksPath names (~/dotfiles/hooks). Git reads and runs them in
// every repository, unconfined, as it does ~/.gitconfig itself, which
// the home folder rule keeps. One not there yet is made first (an empty
// file, an empty folder), as a repository's hooks folder is, so that no
// command can make one. A relative hooksPath is each repository's, which
// the launcher protects with the repository (gitSettingMounts).
func (p *Policy) keepGitSettings(home string, writable []string) {
	s := readGitSettings(home, personGitConfigs(home, os.Getenv)...)
	type target struct {
		path string
		dir  bool
	}
	var targets []target
	for _, inc := range s.included {
		targets = append(targets, target{inc, false})
	}
	for _, h := range s.hooksPaths {
		if filepath.IsAbs(h) {
			targets = append(targets, target{h, true})
		}
	}
	for _, t := range targets {
		c := Clean(t.path)
		// Outside the writable grants nothing is to keep; a grant that is
		// the file or folder, or lies in it (hooksPath = ~), stays as the
		// person granted it.
		if !slices.ContainsFunc(writable, func(g string) bool { return within(g, c) }) ||
			slices.ContainsFunc(writable, func(g string) bool { return holdsPath(c, g) }) {
			continue
		}
		if _, err := os.Lstat(c); errors.Is(err, os.ErrNotExist) {
			if !makeMissing(c, t.dir) {
				continue
			}
		}
		p.keepFrom(c, nil)
	}
}

// makeMissing makes path, a folder when dir, else an empty file, with
// the folders above it; false when it could not.
func makeMissing(path string, dir bool) bool {
	if dir {
		return os.MkdirAll(path, 0o755) == nil
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return false
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return false
	}
	return f.Close() == nil
}

// Bounds of the search for links in the home folder's kept entries
// (linkedTargets): how deep beneath each it looks, and how many entries
// it looks at in all (a home folder's ~/.local/share may hold hundreds of
// thousands).
const (
	linkDepth   = 3
	linkEntries = 8192
)

// linkedTargets are the targets, resolved, of the symbolic links within
// linkDepth levels beneath the folders of kept (dotfile managers link
// ~/.config/nvim to ~/dotfiles/nvim) that lie in a writable grant: the
// home folder rule keeps what the dot entries name, wherever it lies,
// since Landlock grants by the path a file is reached through and the
// person's tools follow the link. Shallow links come first (breadth
// first); at most linkEntries entries are looked at.
func linkedTargets(kept, writable []string) []string {
	type dir struct {
		path  string
		depth int
	}
	queue := make([]dir, 0, len(kept))
	for _, k := range kept {
		queue = append(queue, dir{k, 0})
	}
	var out []string
	seen := 0
	for len(queue) > 0 && seen < linkEntries {
		d := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(d.path)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if seen++; seen > linkEntries {
				break
			}
			path := filepath.Join(d.path, e.Name())
			switch {
			case e.Type()&os.ModeSymlink != 0:
				t, err := filepath.EvalSymlinks(path)
				if err == nil && slices.ContainsFunc(writable, func(g string) bool { return holdsPath(g, t) }) &&
					!slices.Contains(out, t) {
					out = append(out, t)
				}
			case e.IsDir() && d.depth+1 < linkDepth:
				queue = append(queue, dir{path, d.depth + 1})
			}
		}
	}
	return out
}

// systemFolders are the system's folders a grant that holds them (`/`)
// must not hand a sandbox to write: programs, libraries, settings
// (/etc/profile.d, /etc/cron.d as root), the runtime folders of the
// person's session (/run/user/UID: systemd --user loads units from it),
// kernel interfaces and devices. They stay readable and executable.
var systemFolders = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/boot",
	"/var", "/snap", "/nix", "/srv", "/run", "/sys", "/proc", "/dev"}

// sharedTemp are the temporary folders every program on the system
// shares (other commands' own temporary folders, wrasse-cmd-*, lie in
// /tmp): unreachable from a grant that holds them, but for the sandbox's
// own writable folders inside them.
var sharedTemp = []string{"/tmp", "/var/tmp"}

// broadRule carves a writable grant that holds a folder but is not it
// (/home, /): the system's folders (systemFolders) become read-only, the
// shared temporary folders (sharedTemp) unreachable, and the other
// folders beside the home folder and in /home, and /root, the rule of
// another person's home: unreachable when they are a home folder (hold
// one of homeMarkers), read-only and executable otherwise (Homebrew's
// /home/linuxbrew). Writable grants of the sandbox's own inside them
// (its temporary folder, /dev/null) stay writable. A folder granted by
// name stays as granted.
func (p *Policy) broadRule(home string, writable []string) {
	held := func(dir string) []string {
		if !slices.ContainsFunc(writable, func(g string) bool { return within(g, dir) }) {
			return nil
		}
		keep := []string{}
		for _, g := range writable {
			if g == dir || within(dir, g) {
				keep = append(keep, g)
			}
		}
		return keep
	}
	for _, d := range systemFolders {
		if keep := held(d); keep != nil {
			if _, err := os.Lstat(d); err == nil {
				p.keepFrom(d, keep)
			}
		}
	}
	if home != "" {
		home = Clean(home)
	}
	for _, d := range sharedTemp {
		d = Clean(d)
		keep := held(d)
		if keep == nil || (home != "" && holdsPath(home, d)) {
			continue
		}
		// A home folder in /tmp (HOME=/tmp/… in containers and CI) keeps
		// the grant, under the home folder rule.
		if home != "" && within(d, home) {
			keep = append(keep, home)
		}
		p.noneFrom(d, keep)
	}
	var others []string
	add := func(dir string) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.IsDir() {
				others = append(others, filepath.Join(dir, e.Name()))
			}
		}
	}
	add("/home")
	others = append(others, "/root")
	if home != "" {
		// Beside /root lie the system's folders, handled above.
		if d := filepath.Dir(home); d != string(filepath.Separator) {
			add(d)
		}
	}
	seen := map[string]bool{}
	for _, o := range others {
		o = Clean(o)
		if seen[o] || (home != "" && holdsPath(o, home)) {
			continue
		}
		seen[o] = true
		keep := held(o)
		if keep == nil {
			continue
		}
		if isHome(o) {
			p.homeSecrets(o)
			p.noneFrom(o, keep)
		} else {
			p.keepFrom(o, keep)
		}
	}
}

// isHome reports whether dir holds one of homeMarkers.
func isHome(dir string) bool {
	return slices.ContainsFunc(homeMarkers, func(m string) bool { _, err := os.Lstat(filepath.Join(dir, m)); return err == nil })
}

// homeSecrets makes home's credentials unreachable (credentialFiles, the
// private keys in ~/.ssh). ~/.ssh is always carved (a hole at carveMark
// in it, whether or not it exists yet): it is listed only and its
// public entries present at the start are granted one by one, so a key
// the person makes while a sandbox runs has no rule and stays out of its
// reach.
func (p *Policy) homeSecrets(h string) {
	for _, rel := range credentialFiles {
		p.NoAccess = append(p.NoAccess, filepath.Join(h, rel))
	}
	p.NoAccess = append(p.NoAccess, filepath.Join(h, ".ssh", carveMark))
	p.NoAccess = append(p.NoAccess, sshPrivate(h)...)
	for _, c := range relocatedCredentials() {
		if !slices.Contains(p.NoAccess, c) {
			p.NoAccess = append(p.NoAccess, c)
		}
	}
}

// noneFrom makes path unreachable, except the writable grants in keep
// that lie in it, and folds around them as keepFrom does: the folders on
// the way down are listed only, their other entries unreachable.
func (p *Policy) noneFrom(path string, keep []string) {
	if slices.Contains(keep, path) {
		return
	}
	if !slices.ContainsFunc(keep, func(g string) bool { return within(path, g) }) {
		p.NoAccess = append(p.NoAccess, path)
		return
	}
	p.NoAccess = append(p.NoAccess, filepath.Join(path, carveMark))
	entries, err := os.ReadDir(path)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Type()&os.ModeSymlink != 0 {
			continue
		}
		p.noneFrom(filepath.Join(path, e.Name()), keep)
	}
}

// keepFrom makes path read-only and executable, except the writable
// grants in keep that lie in it, and folds around them: the folders on
// the way down are carved (carveMark: listed, no new entries), their
// other entries read-only.
func (p *Policy) keepFrom(path string, keep []string) {
	if slices.Contains(keep, path) {
		return
	}
	if !slices.ContainsFunc(keep, func(g string) bool { return within(path, g) }) {
		p.ReadOnly = append(p.ReadOnly, path)
		p.Exec = append(p.Exec, path)
		return
	}
	p.ReadOnly = append(p.ReadOnly, filepath.Join(path, carveMark))
	entries, err := os.ReadDir(path)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Type()&os.ModeSymlink != 0 {
			// A link is no grant (Rules skips it in a carved folder).
			continue
		}
		p.keepFrom(filepath.Join(path, e.Name()), keep)
	}
}

// keepReadOnly adds to ReadOnly those of paths a writable grant reaches:
// read-only there. Elsewhere it grants nothing.
func (p *Policy) keepReadOnly(paths ...string) {
	writable := cleanAll(p.ReadWrite)
	for _, r := range paths {
		c := Clean(r)
		if slices.ContainsFunc(writable, func(g string) bool { return g == c || within(g, c) }) {
			p.ReadOnly = append(p.ReadOnly, r)
		}
	}
}

// carveMark is a name no server's folder has: a hole there makes a
// folder of servers' folders carved (listed, no new entries) even when
// the server's own folder is its only entry.
const carveMark = ".wrasse-others"

// othersIn are what, in dir (a folder of MCP servers' caches or
// temporary folders), is not one of own: dir itself when none of own lies
// in it, else its other entries and carveMark.
func othersIn(dir string, own []string) []string {
	dir = Clean(dir)
	mine := func(e string) bool {
		return slices.ContainsFunc(own, func(o string) bool { return o == e || within(e, o) })
	}
	if !slices.ContainsFunc(own, func(o string) bool { return within(dir, o) }) {
		return []string{dir}
	}
	out := []string{filepath.Join(dir, carveMark)}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if p := filepath.Join(dir, e.Name()); !mine(p) {
			out = append(out, p)
		}
	}
	return out
}

// MCPCacheName is the folder, in the user's cache folder, of the package
// caches of MCP servers (each server's npx and uvx downloads, which its
// next start runs).
const MCPCacheName = "wrasse-mcp"

// mcpCaches are where the MCP package cache may be for home: in
// ~/.cache, and in the user's cache folder as os.UserCacheDir says
// ($XDG_CACHE_HOME); and the servers' own temporary folders
// (mcpTempDir). Commands and plugins never reach them.
func mcpCaches(home string) []string {
	var out []string
	if t := mcpTempDir(home); t != "" {
		out = append(out, t)
	}
	if home != "" {
		out = append(out, filepath.Join(home, ".cache", MCPCacheName))
	}
	if dir, err := os.UserCacheDir(); err == nil && filepath.IsAbs(dir) {
		if d := filepath.Join(dir, MCPCacheName); !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// homeConfig are configuration files under the home folder that common
// tools need to read to work at all (git refuses to run when it cannot
// read its configuration). ~/.npmrc is not among them: it holds the
// person's registry tokens (a server gets a copy without them,
// NpmrcWithoutCredentials), as do ~/.gradle/gradle.properties and
// ~/.m2/settings.xml.
var homeConfig = []string{".gitconfig", ".config/git", ".gitignore_global", ".config/go"}

// CommandOptions describe one shell command's sandbox.
type CommandOptions struct {
	// Roots are the folders the user granted.
	Roots []string
	// Protected are Wrasse's own files, protected even inside a granted
	// folder.
	Protected Protected
	// Home is the user's home folder ("" for none); its tool caches and
	// configuration files become usable.
	Home string
	// Temp is the command's own temporary folder (CommandTemp), its
	// only one: the shared temporary folder is out of its reach. Default
	// os.TempDir(), shared, when none could be made.
	Temp string
	// Network allows TCP.
	Network bool
	// UnixSockets allows creating Unix sockets (the Shell's unixSockets
	// setting, which the person turns on). Without it socket(AF_UNIX) and
	// a datagram socketpair are refused: Landlock does not govern
	// connect(2) to a socket file, so a command could otherwise drive any
	// local service that runs commands on request (Wrasse's control
	// socket, the person's tmux or screen, systemd --user, the Docker
	// daemon) and step out of the sandbox through it.
	UnixSockets bool
}

// ForCommand is the policy of a shell command: read and write the granted
// folders, the temporary folder and the commands' own cache home
// (CommandCache); read the person's build caches, never write them; no
// tokens kept in caches; the home folder's login files read-only; read and execute
// the system's programs and the programs installed in the home folder
// (never write them); read the configuration files libraries and git
// need; never touch the workspace's database, config.json, caches and
// logs, nor the MCP package cache; read and execute, never write, the
// capability folder (skills ship scripts their instructions run from
// there); no Unix sockets unless o.UnixSockets.
func ForCommand(o CommandOptions) Policy {
	temp := o.Temp
	if temp == "" {
		temp = os.TempDir()
	}
	p := Policy{
		ReadWrite: append(append([]string(nil), o.Roots...), temp, "/dev/shm"),
		Exec:      append([]string(nil), systemExec...),
		// Its own processes' /proc entries and the system's sizes, as an
		// MCP server's: not other processes' command lines (secrets
		// passed as arguments).
		ReadOnly: slices.Concat(etcFiles, systemInfo),
		Network:  o.Network,
		// The filter (Filter) refuses them; a stream pair between the
		// command's own processes stays allowed.
		NoUnixSockets: !o.UnixSockets,
	}
	p.ReadWrite = append(p.ReadWrite, devFiles...)
	if o.Home != "" {
		for _, t := range homeCacheLocks {
			p.ReadWrite = append(p.ReadWrite, filepath.Join(o.Home, t))
		}
		if c := CommandCache(o.Home); c != "" {
			p.ReadWrite = append(p.ReadWrite, c)
		}
		for _, t := range homePrograms {
			p.Exec = append(p.Exec, filepath.Join(o.Home, t))
		}
		for _, c := range slices.Concat(homeConfig, homeReadable) {
			p.ReadOnly = append(p.ReadOnly, filepath.Join(o.Home, c))
		}
	}
	p.Exec = append(p.Exec, o.Protected.Runnable...)
	p.homeRule(o.Home, o.Roots)
	p.protect(o.Protected)
	p.NoAccess = append(p.NoAccess, mcpCaches(o.Home)...)
	return p
}

// PluginOptions describe one plugin process's sandbox.
type PluginOptions struct {
	// Roots are the folders the plugin may use (only with Files).
	Roots []string
	// Protected are Wrasse's own files, protected even inside a granted
	// folder.
	Protected Protected
	// PluginDir is the plugin's own folder, readable.
	PluginDir string
	// Files, Exec and Network are the granted permissions.
	Files, Exec, Network bool
	// NoListen refuses listening (a plugin held to a list of hosts).
	NoListen bool
}

// ForPlugin is the policy of a plugin process: read and write beneath its
// roots (nothing without the files permission), read its own folder and
// what the Go runtime and libraries read (time zones; name resolution and
// certificates with network; system programs with exec), no TCP without
// network, and the workspace's protected paths as for commands. With
// exec, no Unix sockets: the programs it runs inherit the process's
// sandbox, and no check of the plugin's own dials (its folders only)
// reaches them.
func ForPlugin(o PluginOptions) Policy {
	p := Policy{Network: o.Network, NoListen: o.NoListen, NoUnixSockets: o.Exec, ReadWrite: []string{"/dev/null"}}
	p.ReadOnly = append(p.ReadOnly, "/etc/localtime", "/usr/share/zoneinfo", "/dev/urandom")
	if o.PluginDir != "" {
		p.ReadOnly = append(p.ReadOnly, o.PluginDir)
	}
	if o.Files {
		p.ReadWrite = append(p.ReadWrite, o.Roots...)
	}
	if o.Network {
		p.ReadOnly = append(p.ReadOnly, etcFiles...)
	}
	if o.Exec {
		p.Exec = append(p.Exec, systemExec...)
		p.ReadOnly = append(p.ReadOnly, etcFiles...)
		p.ReadWrite = append(p.ReadWrite, devFiles...)
	}
	if o.Files {
		home, _ := os.UserHomeDir()
		p.homeRule(home, o.Roots)
		p.NoAccess = append(p.NoAccess, mcpCaches(home)...)
		if c := CommandCache(home); c != "" {
			p.NoAccess = append(p.NoAccess, c)
		}
	}
	p.protect(o.Protected)
	return p
}

// Protected are the paths of Wrasse's own files that stay protected in
// every sandbox, even inside a granted folder. The sandbox does not know
// the workspace's layout: the parent that builds a sandbox passes them
// (brain/workspace's Protected and Capabilities).
type Protected struct {
	// NoAccess are neither readable nor writable (the database,
	// config.json, logs, caches, the control socket's folder).
	NoAccess []string `json:"noAccess,omitempty"`
	// ReadOnly are never writable (the workspace, its capability folder).
	ReadOnly []string `json:"readOnly,omitempty"`
	// Runnable are readable and executable by shell commands (the
	// capability folder: skills ship scripts their instructions run).
	Runnable []string `json:"runnable,omitempty"`
	// Credentials are the files and folders that hold the person's keys,
	// tokens and passwords (CredentialPaths and the gate's stores, under
	// the home folder). Sandboxes never read them by their own rules; the
	// file API (sdk.Env.Credentials) also refuses a file in a granted
	// folder that is another name (a hard link) of one of them.
	Credentials []string `json:"credentials,omitempty"`
	// RepoMemory is a file among NoAccess where each command's launcher
	// keeps the git repositories it found beneath the writable grants
	// (mountPlan); one outside NoAccess is not used, since a command
	// could then remove what it lists.
	RepoMemory string `json:"repoMemory,omitempty"`
}

// protect adds the workspace's protected paths. A read-only one limits a
// grant; it is no grant itself: it is added (and so made readable) only
// where the policy reaches it already, or where a writable grant lies
// inside it and must be carved around. Else the workspace, read-only for
// every tool, would become readable to every plugin and server.
func (p *Policy) protect(pr Protected) {
	readOnly := pr.ReadOnly
	p.NoAccess = append(p.NoAccess, pr.NoAccess...)
	if pr.RepoMemory != "" && slices.ContainsFunc(pr.NoAccess, func(n string) bool { return holdsPath(Clean(n), Clean(pr.RepoMemory)) }) {
		p.RepoMemory = Clean(pr.RepoMemory)
	}
	granted := cleanAll(slices.Concat(p.ReadWrite, p.Exec, p.ReadOnly))
	writable := cleanAll(p.ReadWrite)
	for _, r := range readOnly {
		c := Clean(r)
		if slices.ContainsFunc(granted, func(g string) bool { return g == c || within(g, c) }) ||
			slices.ContainsFunc(writable, func(g string) bool { return within(c, g) }) {
			p.ReadOnly = append(p.ReadOnly, r)
		}
	}
}

// runtimeHome are folders under the home folder where language runtimes
// and package managers keep installed interpreters and packages (nvm,
// pyenv, pipx, uv, cargo, go install…), relative to it: an MCP server
// started with npx, uvx or a runtime installed there reads and runs them.
var runtimeHome = append([]string{".npm", ".local/bin", ".local/lib", ".local/share/uv", ".local/share/pnpm",
	".local/pipx", ".nvm", ".pyenv", ".volta", ".bun", ".deno", ".asdf", ".cargo/bin", ".rustup", "go/bin", ".yarn"}, homeBuildCaches...)

// systemInfo are the files in /proc and /sys that runtimes read to size
// themselves (processors, memory, cgroup limits), and the process's own
// /proc entry (/proc/self names the launcher's, which becomes the
// server's). Other processes' entries (command lines, environments) are
// not among them.
var systemInfo = []string{"/proc/self", "/proc/thread-self", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/uptime",
	"/proc/version", "/proc/filesystems", "/proc/sys/kernel/osrelease", "/proc/sys/vm/overcommit_memory",
	"/sys/fs/cgroup", "/sys/devices/system/cpu"}

// MCPOptions describe one stdio MCP server's sandbox.
type MCPOptions struct {
	// Roots are the folders granted to the assistant: read and write.
	Roots []string
	// Protected are Wrasse's own files, protected even inside a granted
	// folder.
	Protected Protected
	// Home is the user's home folder ("" for none).
	Home string
	// Program is the server's command as found on PATH; the installation
	// it belongs to becomes readable and executable (RuntimePrefix).
	Program string
	// Dir is the capability's folder: read and execute (its working
	// folder, and what it ships).
	Dir string
	// Paths are the existing absolute paths its arguments name (a script,
	// a project folder): read and execute, as the person approved them.
	Paths []string
	// Temp and Cache are the server's own temporary folder and package
	// cache (npx's and uvx's downloads): read and write. Other servers'
	// caches are not its to write.
	Temp, Cache string
	// Network allows TCP.
	Network bool
}

// ForMCP is the policy of a stdio MCP server: read and write the folders
// granted to the assistant, its own temporary folder and package cache;
// read and execute the system's programs, its runtime's installation
// (runtimeGrant), runtimes and packages kept in the home folder, its
// capability folder and the paths its arguments name; read the
// configuration files libraries read; never the workspace's protected
// paths; no unix sockets (the kernel cannot otherwise keep it from
// Wrasse's control socket); TCP per Network.
func ForMCP(o MCPOptions) Policy {
	p := Policy{
		ReadWrite:     append(append([]string(nil), o.Roots...), devFiles...),
		Exec:          append([]string(nil), systemExec...),
		ReadOnly:      append(append([]string(nil), etcFiles...), systemInfo...),
		Network:       o.Network,
		NoUnixSockets: true,
	}
	for _, d := range []string{o.Temp, o.Cache} {
		if d != "" {
			p.ReadWrite = append(p.ReadWrite, d)
		}
	}
	if r := runtimeGrant(o.Program, o.Home); r != "" {
		p.Exec = append(p.Exec, r)
	}
	if o.Dir != "" {
		p.Exec = append(p.Exec, o.Dir)
	}
	p.Exec = append(p.Exec, o.Paths...)
	if o.Home != "" {
		for _, r := range runtimeHome {
			p.Exec = append(p.Exec, filepath.Join(o.Home, r))
		}
		for _, c := range homeConfig {
			p.ReadOnly = append(p.ReadOnly, filepath.Join(o.Home, c))
		}
	}
	p.homeRule(o.Home, o.Roots)
	if c := CommandCache(o.Home); c != "" {
		p.NoAccess = append(p.NoAccess, c)
	}
	// Other servers' package caches and temporary folders: read-only where
	// a grant (the home folder) reaches them.
	own := cleanAll([]string{o.Temp, o.Cache})
	for _, d := range mcpCaches(o.Home) {
		p.keepReadOnly(othersIn(d, own)...)
	}
	p.protect(o.Protected)
	return p
}

// personalPrefixes are folders under the home folder that RuntimePrefix
// may name but that hold more than one runtime's installation: other
// programs' data (~/.local/share: keyrings, browsers' profiles), or
// credentials (~/.cargo/credentials.toml).
var personalPrefixes = []string{".local", ".cargo"}

// runtimeGrant is what an MCP server's program opens to it: its
// RuntimePrefix, unless that is the home folder, a folder holding it or
// one of personalPrefixes; then the program file alone.
func runtimeGrant(program, home string) string {
	prefix := RuntimePrefix(program)
	if prefix == "" {
		return ""
	}
	if home != "" {
		home = Clean(home)
		wide := holdsPath(prefix, home)
		for _, d := range personalPrefixes {
			wide = wide || prefix == filepath.Join(home, d)
		}
		if wide {
			real, err := filepath.EvalSymlinks(program)
			if err != nil {
				return ""
			}
			return real
		}
	}
	return prefix
}

// holdsPath reports whether dir is p or a folder above it.
func holdsPath(dir, p string) bool { return dir == p || within(dir, p) }

// RuntimePrefix is the installation a program belongs to, with symbolic
// links resolved: the folder holding its bin/ (or a version manager's
// shims/) folder, e.g. /usr for /usr/bin/node or ~/.nvm/versions/node/v22
// for nvm's node; its own folder otherwise. "" when program is not an
// absolute path to an existing file, or the prefix would be the root.
func RuntimePrefix(program string) string {
	if !filepath.IsAbs(program) {
		return ""
	}
	real, err := filepath.EvalSymlinks(program)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(real)
	switch filepath.Base(dir) {
	case "bin", "sbin", "shims", "libexec":
		dir = filepath.Dir(dir)
	}
	if dir == string(filepath.Separator) || dir == "." {
		return ""
	}
	return dir
}
