package gate

import (
	"maps"
	"net"
	"regexp"
	"strings"
)

// This file reads what a program's options make it do: run another
// program or code (optionsRun), change what runs through its environment
// (dangerousAssign), reach a network host (networkHosts) and name files
// (pathWords). Each errs on the side of asking: a reading it is unsure of
// asks every time rather than let an approval cover more than was seen.

// dangerousNames are variables that change what a program runs or loads,
// or where its traffic goes.
var dangerousNames = setOf("PATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "IFS", "CDPATH",
	"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS", "ZDOTDIR", "EDITOR", "VISUAL", "PAGER",
	"MANPAGER", "BROWSER", "LESSOPEN", "LESSCLOSE", "SSH_ASKPASS", "SUDO_ASKPASS", "TAR_OPTIONS", "RSYNC_RSH",
	"RSYNC_CONNECT_PROG", "NODE_OPTIONS", "NODE_PATH", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
	"JDK_JAVA_OPTIONS", "CLASSPATH", "CC", "CXX", "CPP", "LD", "RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER",
	"RUSTDOC", "MAKEFLAGS", "MAKEFILES", "MFLAGS", "SHELL", "GCONV_PATH", "LOCPATH", "MANOPT", "WGETRC", "CURL_HOME",
	"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "FTP_PROXY", "NO_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE",
	"REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "PERLLIB", "LUA_PATH", "LUA_CPATH", "LUA_INIT", "GEM_PATH", "GEM_HOME",
	"BUNDLE_GEMFILE", "CARGO_HOME", "GOPATH", "GOROOT", "GOTOOLCHAIN", "GOPROXY", "GONOSUMDB", "GOFLAGS", "PIP_INDEX_URL",
	"PIP_EXTRA_INDEX_URL", "DOCKER_HOST", "KUBECONFIG", "TERMINFO", "INPUTRC", "HISTFILE", "TMPDIR",
	// Loads code: an OpenSSL engine, an assembly, the linker's options,
	// make's flags by another name.
	"OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES", "GNUMAKEFLAGS", "DOTNET_STARTUP_HOOKS", "CORECLR_PROFILER_PATH",
	"DOTNET_ADDITIONAL_DEPS", "DOTNET_ROOT", "DOTNET_SHARED_STORE", "CGO_LDFLAGS", "CGO_CFLAGS", "CGO_CPPFLAGS",
	"CGO_CXXFLAGS", "CGO_FFLAGS",
	// Sends traffic elsewhere than the name the card shows.
	"LOCALDOMAIN", "HOSTALIASES", "RES_OPTIONS", "RESOLV_HOST_CONF", "AWS_ENDPOINT_URL", "AWS_CA_BUNDLE", "AWS_CONFIG_FILE",
	"AWS_SHARED_CREDENTIALS_FILE", "BOTO_CONFIG", "CLOUDSDK_CONFIG", "AZURE_CONFIG_DIR")

// dangerousPrefixes are families of such variables.
var dangerousPrefixes = []string{"LD_", "DYLD_", "GIT_", "PYTHON", "PERL5", "NODE_", "BASH_FUNC_", "NPM_CONFIG_", "YARN_",
	"CARGO_", "RUST", "GO", "DOCKER_", "SSH_", "GNUPG", "GPG_", "MALLOC_", "GLIBC_", "JAVA_", "MAVEN_", "GRADLE_", "LUA_", "R_",
	"RUBY", "BUNDLE_", "PIP_", "UV_", "POETRY_", "CONDA", "VIRTUAL_ENV", "AWS_ENDPOINT_URL", "COMPLUS_", "CORECLR_"}

// harmlessGo are Go variables that only tune a build.
var harmlessGo = setOf("GOOS", "GOARCH", "GOARM", "GOAMD64", "GOMAXPROCS", "GOGC", "GOMEMLIMIT", "GODEBUG", "GOCACHE", "GOTMPDIR",
	"GOWORK", "GOTRACEBACK", "GOEXPERIMENT", "GO111MODULE", "GOPRIVATE", "GONOPROXY", "GOINSECURE", "GOSUMDB")

// harmlessNames are variables in the dangerous families that only select
// a mode, log level or output encoding, loading nothing.
var harmlessNames = setOf("NODE_ENV", "NODE_NO_WARNINGS", "RUST_LOG", "RUST_BACKTRACE", "RUST_LIB_BACKTRACE",
	"PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "PYTHONHASHSEED", "PYTHONUTF8")

// dangerousAssign says why NAME=value changes what a program runs or
// where its traffic goes, or "" when it does not. GOFLAGS counts only
// when it names a program (-toolexec, -exec, -overlay).
func dangerousAssign(name, value string) string {
	upper := strings.ToUpper(name)
	why := "it sets " + name + ", which changes what the command runs or loads"
	switch {
	case upper == "GOFLAGS":
		if strings.Contains(value, "exec") || strings.Contains(value, "overlay") {
			return why
		}
		return ""
	case harmlessGo[upper] || harmlessNames[upper]:
		return ""
	case dangerousNames[upper]:
		return why
	}
	for _, p := range dangerousPrefixes {
		if strings.HasPrefix(upper, p) {
			return why
		}
	}
	return ""
}

// optionsRun says why a program runs another program, code or file that
// its options, arguments or script name, or "" when it does not.
func optionsRun(base string, args []string) string {
	has := func(names ...string) bool { return hasOption(args, names...) }
	switch base {
	case "git":
		return gitRisk(args)
	case "tar", "gtar", "bsdtar":
		return tarRisk(args)
	case "awk", "gawk", "mawk", "nawk":
		return awkRisk(base, args)
	case "sed", "gsed":
		return sedRisk(base, args)
	case "rsync":
		if has("-e", "--rsh", "--rsync-path") || clusterHas(args, 'e') {
			return "rsync -e/--rsh/--rsync-path runs the program its option names"
		}
	case "ssh":
		return "ssh runs commands on another computer, and its options (ProxyCommand, LocalCommand) run programs here"
	case "scp", "sftp":
		if has("-S", "-F", "-D") || optionValueHas(args, "-o", "command") {
			return base + " runs the program its -S, -F or -o option names"
		}
	case "nc", "ncat", "netcat", "nc.openbsd", "nc.traditional":
		if has("-e", "-c", "--exec", "--sh-exec", "--lua-exec") {
			return base + " -e/-c runs a program for the connection"
		}
	case "socat":
		for _, x := range args {
			l := strings.ToLower(x)
			if strings.Contains(l, "exec:") || strings.Contains(l, "system:") {
				return "socat runs the program its EXEC or SYSTEM address names"
			}
		}
	case "go":
		// Go's flags take one dash or two, and their value after = too.
		if has("-exec", "-toolexec", "-overlay", "-vettool", "-modfile") {
			return "go -exec, -toolexec, -vettool, -overlay or -modfile runs the program or builds the code its option names"
		}
		if cmd, at := firstWord(args); cmd == "env" && hasOption(args[at+1:], "-w", "-u") {
			return "go env -w sets Go's settings (GOFLAGS=-toolexec=…) for every later go command"
		}
	case "cargo":
		if has("--config") {
			return "cargo --config can set the programs it runs"
		}
	case "make", "gmake":
		if has("--eval", "-E") {
			return "make --eval runs the make code its option gives"
		}
		if has("-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir") {
			return "make -f, -C or -I reads another makefile than the folder's own, which says what runs"
		}
		for _, x := range args {
			if x == "--" {
				break
			}
			if name, _, ok := strings.Cut(x, "="); ok && !strings.HasPrefix(x, "-") && name != "" {
				return "make " + name + "=… overrides a variable of the makefile, such as the programs its recipes run (SHELL, CC, GO)"
			}
		}
	case "vim", "vi", "nvim", "ex", "view", "gvim", "vimdiff", "rvim":
		for _, x := range args {
			// Also grouped (-Nu x.vim), as vim reads its flags.
			if x == "-c" || x == "--cmd" || strings.HasPrefix(x, "+") ||
				strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && strings.ContainsAny(x[1:], "cSuU") {
				return base + " runs the editor commands its options give, which can run programs"
			}
		}
	case "emacs":
		if has("--eval", "-l", "--load", "-f", "--funcall", "--script", "-batch", "--batch") {
			return "emacs runs the Lisp code its options give"
		}
	case "lldb":
		return "lldb runs the debugger commands its options, files or input give, which can run programs (platform shell)"
	case "gdb":
		if has("-ex", "-x", "--eval-command", "--command", "-iex", "-ix", "--init-eval-command", "--init-command", "-batch", "--batch") {
			return "gdb runs the commands its options give, which can run programs"
		}
	case "hg":
		if has("--config") {
			return "hg --config can set options that run programs"
		}
	case "zip":
		if has("-TT", "--unzip-command") {
			return "zip -TT runs the program its option names"
		}
	case "man":
		if has("-P", "--pager", "-H", "--html") {
			return "man -P/-H runs the program its option names"
		}
	case "sort":
		if has("--compress-program") {
			return "sort --compress-program runs the program its option names"
		}
	case "wget":
		if has("-e", "--execute", "--use-askpass", "-i", "--input-file", "--config") {
			return "wget -e/-i/--config/--use-askpass runs commands or reaches addresses its option names"
		}
	case "curl":
		if has("-K", "--config") {
			return "curl -K reads the addresses and options it uses from a file"
		}
	case "apt", "apt-get", "aptitude":
		if optionValueHas(args, "-o", "invoke") || optionValueHas(args, "-o", "pre-install") {
			return base + " -o sets a hook that runs a program"
		}
	case "npm", "pnpm", "yarn":
		if has("--script-shell", "--node-options", "--prefix", "-C", "--userconfig", "--globalconfig") {
			return base + " --script-shell, --node-options, --prefix or --userconfig chooses the shell, the code or the package whose scripts run"
		}
	case "node", "nodejs", "deno", "bun":
		if has("-r", "--require", "--import", "--loader", "--experimental-loader") {
			return base + " loads the code its -r/--require/--import option names first"
		}
	case "ruby":
		if has("-r") || clusterHas(args, 'r') {
			return "ruby -r loads the library its option names first"
		}
	case "perl":
		for _, x := range args {
			if strings.HasPrefix(x, "-M") || strings.HasPrefix(x, "-m") {
				return "perl -M loads the module its option names first"
			}
		}
	case "sqlite3", "sqlite":
		if has("-cmd", "-init") {
			return base + " -cmd/-init runs the dot-commands its option gives, and .shell or .system runs programs"
		}
		for _, x := range args {
			if sqliteRuns(x) {
				return base + " runs programs its dot-commands name (.shell, .system, .load, .output |cmd)"
			}
		}
	case "split", "gsplit":
		if has("--filter") {
			return "split --filter runs a shell command for every piece"
		}
	case "R":
		if cmd, _ := firstWord(args); cmd == "CMD" {
			return "R CMD runs an R tool (BATCH, INSTALL, build) on the script or package it names, whose code can run programs"
		}
		if has("-e", "-f", "--file") || clusterHas(args, 'e') {
			return "R -e/-f runs the R code its option gives, which can run programs (system())"
		}
	case "psql":
		if has("-f", "--file") {
			return "psql -f runs the commands of a file, where \\! runs programs"
		}
		for _, x := range args {
			if l := strings.ToLower(x); strings.Contains(x, `\!`) || strings.Contains(x, `\o`) || strings.Contains(x, `\g`) ||
				strings.Contains(l, "copy") && strings.Contains(l, "program") {
				return "psql runs the program its \\!, \\o |, \\g | or COPY … PROGRAM names"
			}
		}
	case "mysql", "mariadb":
		for _, x := range args {
			if strings.Contains(x, `\!`) || strings.Contains(strings.ToLower(x), "system ") {
				return base + " runs the program its system or \\! command names"
			}
		}
	case "crontab":
		// crontab -l lists; anything else installs or edits the table.
		for i := 0; i < len(args); i++ {
			switch args[i] {
			case "-l", "--list":
			case "-u":
				i++
			default:
				return "crontab installs commands that run on their own from then on, every time their schedule comes"
			}
		}
	case "xdg-open", "open", "gio", "kde-open", "gnome-open", "start":
		return base + " opens a file or address with whatever program is set for it"
	}
	return ""
}

// sqliteRuns reports an sqlite3 argument whose dot-commands run a
// program or load code: .shell, .system, .load, or output piped to a
// command (.output |cmd, .once |cmd, .import |cmd), also abbreviated as
// sqlite3 accepts them (.sh, .sys); or SQL that runs a program or writes
// a file (edit() runs the editor its second argument names, writefile()
// writes anywhere, load_extension() loads code).
func sqliteRuns(x string) bool {
	l := strings.ToLower(x)
	for _, f := range []string{"edit(", "writefile(", "load_extension(", "fts3_tokenizer("} {
		if strings.Contains(strings.ReplaceAll(l, " ", ""), f) {
			return true
		}
	}
	for _, line := range strings.FieldsFunc(x, func(r rune) bool { return r == '\n' || r == ';' }) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, ".") {
			continue
		}
		cmd, rest, _ := strings.Cut(line, " ")
		cmd = strings.TrimPrefix(cmd, ".")
		abbrev := func(full string) bool { return len(cmd) >= 2 && strings.HasPrefix(full, cmd) }
		switch {
		case abbrev("shell"), abbrev("system"), abbrev("load"), abbrev("read"):
			return true
		case abbrev("output"), abbrev("once"), abbrev("import"), abbrev("excel"):
			if strings.Contains(rest, "|") {
				return true
			}
		}
	}
	return false
}

// stdinCommands reports a program that reads commands from its input
// and can run programs with them: sqlite3 (.shell), psql and mysql (\!),
// at and batch (a shell script to run later), ed, ex and dc (!cmd), vim
// in ex mode (-e, -es), gdb and lldb (shell), R.
func stdinCommands(base string, args []string) bool {
	switch base {
	case "sqlite3", "sqlite", "psql", "mysql", "mariadb", "at", "batch", "ed", "red", "ex", "gdb", "lldb", "R", "dc":
		return true
	case "vim", "vi", "nvim", "gvim", "view", "rvim":
		for _, x := range args {
			if strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && strings.ContainsAny(x[1:], "eEs") {
				return true
			}
		}
	}
	return false
}

// firstWord is the first argument that is not an option, and its index.
func firstWord(args []string) (string, int) {
	for i, x := range args {
		if !strings.HasPrefix(x, "-") {
			return x, i
		}
	}
	return "", len(args)
}

// hasOption reports whether args (up to a --) give one of the options
// names, as the programs read them (see optionNamed).
func hasOption(args []string, names ...string) bool {
	for _, x := range args {
		if x == "--" {
			return false
		}
		for _, n := range names {
			if optionNamed(x, n) {
				return true
			}
		}
	}
	return false
}

// optionNamed reports whether the word x gives the option name: exactly,
// with its value after = (--file=x, Go's -exec=x), a long option
// abbreviated (GNU getopt and git take any unambiguous start of its
// name: --to-com for --to-command), a one-dash name with two dashes too
// (Go's --toolexec), a one-letter option with its value attached (-Xval)
// or run together with others (-vX). A name that is not an option (set,
// foreach) matches only itself.
func optionNamed(x, name string) bool {
	if x == name {
		return true
	}
	if !strings.HasPrefix(name, "-") || !strings.HasPrefix(x, "-") {
		return false
	}
	if strings.HasPrefix(x, name+"=") {
		return true
	}
	n, _, _ := strings.Cut(x, "=")
	switch {
	case strings.HasPrefix(name, "--"):
		return len(n) >= 3 && strings.HasPrefix(n, "--") && strings.HasPrefix(name, n)
	case len(name) == 2:
		if len(x) < 3 || x[1] == '-' {
			return false
		}
		for i := 1; i < len(x); i++ {
			c := x[i]
			if c == name[1] {
				return true
			}
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return false
			}
		}
		return false
	default:
		return n == "-"+name
	}
}

// clusterHas reports short options run together (-avze) that hold c.
func clusterHas(args []string, c byte) bool {
	for _, x := range args {
		if len(x) > 2 && x[0] == '-' && x[1] != '-' && strings.IndexByte(x[1:], c) >= 0 {
			return true
		}
	}
	return false
}

// optionValueHas reports an option (opt value, or optvalue) whose value
// holds sub, compared case-insensitively.
func optionValueHas(args []string, opt, sub string) bool {
	for i, x := range args {
		v := ""
		switch {
		case x == opt && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(x, opt) && len(x) > len(opt):
			v = x[len(opt):]
		default:
			continue
		}
		if strings.Contains(strings.ToLower(v), sub) {
			return true
		}
	}
	return false
}

// gitCommands are git's own commands; any other word where a command goes
// may be an alias, which can run anything.
var gitCommands = setOf("add", "am", "annotate", "apply", "archive", "bisect", "blame", "branch", "bundle", "cat-file",
	"check-attr", "check-ignore", "check-mailmap", "check-ref-format", "checkout", "cherry", "cherry-pick", "citool", "clean",
	"clone", "commit", "commit-graph", "commit-tree", "config", "count-objects", "describe", "diff", "diff-files",
	"diff-index", "diff-tree", "difftool", "fetch", "for-each-ref", "format-patch", "fsck", "gc", "grep", "gui",
	"hash-object", "help", "init", "log", "ls-files", "ls-remote", "ls-tree", "maintenance", "merge", "merge-base",
	"merge-file", "merge-tree", "mergetool", "mktag", "mktree", "mv", "name-rev", "notes", "prune", "pull", "push",
	"range-diff", "read-tree", "rebase", "reflog", "remote", "repack", "replace", "rerere", "reset", "restore", "rev-list",
	"rev-parse", "revert", "rm", "shortlog", "show", "show-branch", "show-ref", "sparse-checkout", "stash", "status",
	"stripspace", "submodule", "switch", "symbolic-ref", "tag", "update-index", "update-ref", "var", "verify-commit",
	"verify-pack", "verify-tag", "version", "whatchanged", "worktree", "write-tree", "lfs", "blame", "filter-branch",
	"send-email", "instaweb", "credential", "hook", "bugreport", "fast-export", "fast-import", "request-pull", "cherry-pick")

// gitGlobalValue are git's options before the command that take a value.
var gitGlobalValue = setOf("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path", "--super-prefix", "--list-cmds")

// gitCommand is git's command word and its index, skipping the global
// options ("" when there is none).
func gitCommand(args []string) (string, int) {
	for i := 0; i < len(args); i++ {
		x := args[i]
		if !strings.HasPrefix(x, "-") {
			return x, i
		}
		if gitGlobalValue[x] {
			i++
		}
	}
	return "", len(args)
}

// gitRisk says why a git command line runs what its options, its
// environment or its configuration name.
func gitRisk(args []string) string {
	cmd, at := gitCommand(args)
	for _, x := range args[:at] {
		switch {
		case x == "-c" || strings.HasPrefix(x, "-c") && len(x) > 2 && x[2] != '-' || x == "--config-env" || strings.HasPrefix(x, "--config-env="):
			return "git -c sets options for this run, and options such as core.fsmonitor, core.sshCommand or an alias run programs"
		case x == "--exec-path" || strings.HasPrefix(x, "--exec-path="):
			return "git --exec-path chooses where git's own programs come from"
		case x == "--git-dir" || strings.HasPrefix(x, "--git-dir="):
			return "git --git-dir uses another repository's configuration, which can run programs"
		}
	}
	if cmd == "" {
		return ""
	}
	if !gitCommands[cmd] {
		return "git " + cmd + " is not one of git's commands, so it may be an alias, which can run anything"
	}
	rest := args[at+1:]
	has := func(names ...string) bool { return hasOption(rest, names...) }
	switch cmd {
	case "config":
		if !has("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "get", "list", "--show-origin", "--show-scope") || has("--add", "--replace-all", "set", "--edit", "-e", "edit", "--unset", "--unset-all") {
			return "git config can set options that run programs (core.fsmonitor, core.pager, core.sshCommand, aliases)"
		}
	case "init":
		if has("--template", "--separate-git-dir") {
			return "git init --template copies the hooks its option names into the repository, which later git commands run"
		}
	case "fetch", "pull", "clone", "ls-remote", "archive", "submodule", "push":
		if has("--upload-pack", "--receive-pack", "--exec", "--template", "-u", "--config", "-c") && cmd != "push" ||
			has("--receive-pack", "--exec") {
			return "git " + cmd + " with --upload-pack, --receive-pack, --exec, --template or -c runs the program or hooks its option names"
		}
		if cmd == "submodule" && len(rest) > 0 && (rest[0] == "foreach" || has("foreach")) {
			return "git submodule foreach runs a shell command in every submodule"
		}
	case "rebase":
		if has("--exec", "-x") {
			return "git rebase --exec runs a shell command after each commit"
		}
	case "bisect":
		if len(rest) > 0 && rest[0] == "run" {
			return "git bisect run runs the command it names"
		}
	case "difftool", "mergetool":
		if has("-x", "--extcmd", "-t", "--tool") {
			return "git " + cmd + " runs the program its option names"
		}
	case "grep":
		if has("-O", "--open-files-in-pager") {
			return "git grep -O runs the program its option names"
		}
	case "filter-branch", "instaweb", "hook", "fast-import":
		return "git " + cmd + " runs programs or code its arguments give"
	case "send-email":
		if has("--sendmail-cmd", "--smtp-server", "--to-cmd", "--cc-cmd", "--header-cmd") {
			return "git send-email runs the program its option names"
		}
	case "credential":
		return "git credential reads or stores saved passwords and tokens"
	}
	return ""
}

// tarRisk says why a tar command line runs a program its options name.
func tarRisk(args []string) string {
	const why = "tar with --to-command, --checkpoint-action, --use-compress-program (-I), --rsh-command or --info-script (-F) runs the program its option names"
	for i, x := range args {
		if x == "--" {
			break
		}
		for _, p := range []string{"--to-command", "--checkpoint-action", "--use-compress-program", "--compress-program",
			"--rsh-command", "--info-script", "--new-volume-script", "--rmt-command", "--index-file"} {
			if optionNamed(x, p) || strings.HasPrefix(x, p) {
				return why
			}
		}
		if strings.HasPrefix(x, "--") {
			continue
		}
		// Short options, also run together (-xIf, -cF) and, first, the old
		// form without a dash (tar xIf …).
		letters := ""
		switch {
		case strings.HasPrefix(x, "-"):
			letters = x[1:]
		case i == 0:
			letters = x
		}
		if strings.ContainsAny(letters, "IF") {
			return why
		}
	}
	return ""
}

// awkRisk says why an awk command line runs programs: its program calls
// system(), pipes to or from a command (print | "cmd", "cmd" | getline),
// or comes from a file or an extension the gate cannot read.
func awkRisk(base string, args []string) string {
	programs, fromFile := awkPrograms(args)
	if fromFile {
		return base + " runs an awk program from a file or an extension, which the checker cannot read"
	}
	for _, p := range programs {
		code := awkCode(p)
		if strings.Contains(code, "system") || strings.Contains(strings.ReplaceAll(code, "||", ""), "|") ||
			strings.Contains(code, "@load") || strings.Contains(code, "@include") {
			return base + " runs commands from its program (system(), a pipe to or from a command, or getline from one)"
		}
	}
	return ""
}

// awkOutput finds the files an awk program writes with print or printf
// > "file" or >> "file", as a redirection of the shell writes.
var awkOutput = regexp.MustCompile(`\bprintf?\b[^;{}\n]*?>>?\s*"([^"]+)"`)

// awkInput finds the files an awk program reads with getline < "file".
var awkInput = regexp.MustCompile(`\bgetline\b[^;{}\n<]*<\s*"([^"]+)"`)

// awkDynamic finds print, printf or getline redirected to or from a file
// whose name is not a string literal (a variable, -v f=…, a
// concatenation): where it writes or reads is known only when it runs.
var awkDynamic = regexp.MustCompile(`\bprintf?\b[^;{}\n]*?>>?\s*[^"\s>]|\bgetline\b[^;{}\n<]*<\s*[^"\s]`)

// awkReads are the files awk's programs read by name with getline.
func awkReads(args []string) []string {
	programs, _ := awkPrograms(args)
	var out []string
	for _, p := range programs {
		for _, m := range awkInput.FindAllStringSubmatch(p, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// awkUnknownFile says why an awk program writes or reads a file the line
// does not name, or "".
func awkUnknownFile(args []string) string {
	programs, _ := awkPrograms(args)
	for _, p := range programs {
		if awkDynamic.MatchString(p) {
			return "awk writes or reads a file whose name it computes (print > f, getline < f), so which file is known only when it runs"
		}
	}
	return ""
}

// awkWrites are the files awk's programs write by name.
func awkWrites(args []string) []string {
	programs, _ := awkPrograms(args)
	var out []string
	for _, p := range programs {
		for _, m := range awkOutput.FindAllStringSubmatch(p, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// awkPrograms are the program texts of an awk command line; fromFile is
// true when it also runs one from a file or an extension.
func awkPrograms(args []string) (programs []string, fromFile bool) {
	fromText := false
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch {
		case x == "--":
			if i+1 < len(args) && !fromText {
				programs = append(programs, args[i+1])
			}
			i = len(args)
		case x == "-f" || x == "--file" || strings.HasPrefix(x, "--file=") || x == "-E" || x == "--exec" ||
			x == "-l" || x == "--load" || x == "-i" || x == "--include" || strings.HasPrefix(x, "-f") && len(x) > 2:
			fromFile = true
		case x == "-e" || x == "--source":
			if i+1 < len(args) {
				programs = append(programs, args[i+1])
				fromText = true
			}
			i++
		case x == "-F" || x == "-v" || x == "--field-separator" || x == "--assign":
			i++
		case strings.HasPrefix(x, "-") && len(x) > 1:
		default:
			if !fromText {
				programs = append(programs, x)
			}
			i = len(args)
		}
	}
	return programs, fromFile
}

// awkCode is an awk program without its string and regular-expression
// literals, whose text may hold | and names that are not code.
func awkCode(p string) string {
	var b strings.Builder
	prev := byte(0) // the last character of code that is not a space
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '"':
			i = skipDelimited(p, i, '"')
			b.WriteString(`""`)
			prev = '"'
			continue
		case c == '/' && (prev == 0 || strings.IndexByte("(,~!{;&|=", prev) >= 0 || prev == '\n'):
			i = skipDelimited(p, i, '/')
			b.WriteString("//")
			prev = '/'
			continue
		}
		b.WriteByte(c)
		if c != ' ' && c != '\t' {
			prev = c
		}
	}
	return b.String()
}

// skipDelimited returns the index of the delimiter that closes the
// literal opened at p[i], honouring backslash escapes (len(p)-1 when it
// is not closed).
func skipDelimited(p string, i int, delim byte) int {
	for j := i + 1; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case delim:
			return j
		}
	}
	return len(p) - 1
}

// sedRisk says why a sed command line runs programs or writes or reads
// files its script names: the e command or the s///e flag runs a command,
// w, W and the s///w flag write a file, r and R read one; a script from a
// file cannot be read. GNU sed's --sandbox refuses all of them.
func sedRisk(base string, args []string) string {
	var scripts []string
	fromE := false
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch {
		case x == "--sandbox":
			return ""
		case x == "--":
			if i+1 < len(args) && !fromE {
				scripts = append(scripts, args[i+1])
			}
			i = len(args)
		case x == "-f" || x == "--file" || strings.HasPrefix(x, "--file=") || strings.HasPrefix(x, "-f") && len(x) > 2 && !strings.HasPrefix(x, "--"):
			return base + " runs a sed script from a file, which the checker cannot read"
		case x == "-e" || x == "--expression":
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
			}
			fromE = true
			i++
		case strings.HasPrefix(x, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(x, "--expression="))
			fromE = true
		case strings.HasPrefix(x, "-e") && len(x) > 2:
			scripts = append(scripts, x[2:])
			fromE = true
		case x == "-l" || x == "--line-length":
			i++
		case strings.HasPrefix(x, "-") && len(x) > 1:
		default:
			if !fromE {
				scripts = append(scripts, x)
			}
			fromE = true // the rest are files
		}
	}
	for _, s := range scripts {
		if sedScriptRuns(s) {
			return base + " with the e or w command (or the s///e, s///w flags, or r, R) runs a command or reads or writes a file its script names"
		}
	}
	return ""
}

// sedScriptRuns reports whether a sed script uses e, w, W, r or R, or
// the e or w flag of s, or holds anything the reader does not know.
func sedScriptRuns(s string) bool {
	i := 0
	n := len(s)
	toLineEnd := func() {
		for i < n && s[i] != '\n' {
			i++
		}
	}
	for i < n {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' || c == '}' || c == '!' {
			i++
			continue
		}
		// An address: a number, $, /re/, \cREc, first~step, and a second one after a comma.
		for addr := true; addr && i < n; {
			switch c = s[i]; {
			case c >= '0' && c <= '9' || c == '$' || c == '~' || c == '+' || c == ',' || c == ' ':
				i++
			case c == '/':
				i = skipDelimited(s, i, '/') + 1
				for i < n && (s[i] == 'I' || s[i] == 'M') {
					i++
				}
			case c == '\\' && i+1 < n:
				i = skipDelimited(s, i+1, s[i+1]) + 1
			default:
				addr = false
			}
		}
		if i >= n {
			return false
		}
		switch c = s[i]; c {
		case '!', ' ', '\t':
			i++
			continue
		case 'e', 'w', 'W', 'r', 'R':
			return true
		case 's', 'y':
			if i+1 >= n {
				return true
			}
			d := s[i+1]
			if d == '\\' || d == '\n' {
				return true
			}
			j := skipDelimited(s, i+1, d)
			j = skipDelimited(s, j, d)
			i = j + 1
			if c == 'y' {
				continue
			}
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' && s[i] != ' ' {
				if s[i] == 'e' || s[i] == 'w' || s[i] == 'W' {
					return true
				}
				i++
			}
		case 'a', 'i', 'c', '#':
			toLineEnd()
		case 'b', 't', 'T', ':':
			// A label ends at a semicolon or a line break (GNU).
			for i < n && s[i] != '\n' && s[i] != ';' {
				i++
			}
		case 'q', 'Q', 'l', 'L':
			i++
			for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == ' ') {
				i++
			}
		case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F', 'v':
			i++
		default:
			return true
		}
	}
	return false
}

// optionGrammar is how a program reads its options, for scanArgs.
type optionGrammar struct {
	// short are the letters of one-letter options that take a value; they
	// run together with others and take it attached or as the next word
	// (curl -fsSLo FILE, -oFILE).
	short string
	// long are the whole words that are options taking the next word as
	// their value: --name, and one-dash names (nc's -p, nmap's -oN).
	long map[string]bool
	// eq: a -- option also takes its value after = (--name=value).
	eq bool
}

// scanArgs reads args as a program with grammar g reads them. option sees
// each -- option by name and each one-letter option that takes a value
// (the first of a cluster), with its value (ok false when it takes none or
// the line ends first); operand sees every word that is neither an option
// nor an option's value, and every word after --, with afterDashes true.
// A word - alone is an operand. option may be nil.
func scanArgs(args []string, g optionGrammar, option func(name, value string, ok bool), operand func(x string, afterDashes bool)) {
	if option == nil {
		option = func(string, string, bool) {}
	}
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch {
		case x == "--":
			for _, y := range args[i+1:] {
				operand(y, true)
			}
			return
		case g.long[x]:
			v, ok := "", i+1 < len(args)
			if ok {
				v = args[i+1]
				i++
			}
			option(x, v, ok)
		case strings.HasPrefix(x, "--"):
			name, v, ok := x, "", false
			if g.eq {
				name, v, ok = strings.Cut(x, "=")
			}
			if !ok && g.long[name] && i+1 < len(args) {
				v, ok = args[i+1], true
				i++
			}
			option(name, v, ok)
		case strings.HasPrefix(x, "-") && len(x) > 1:
			for j := 1; j < len(x); j++ {
				if strings.IndexByte(g.short, x[j]) < 0 {
					continue
				}
				name := "-" + x[j:j+1]
				switch {
				case j+1 < len(x):
					option(name, x[j+1:], true)
				case i+1 < len(args):
					option(name, args[i+1], true)
					i++
				default:
					option(name, "", false)
				}
				break
			}
		default:
			operand(x, false)
		}
	}
}

// Options of network programs that take a separate value, which is not
// an address.
var (
	wgetValue = setOf("-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "-P", "--directory-prefix",
		"-U", "--user-agent", "--header", "-t", "--tries", "-T", "--timeout", "-w", "--wait", "-Q", "--quota", "-l", "--level",
		"-A", "--accept", "-R", "--reject", "-D", "--domains", "--post-data", "--post-file", "--body-data", "--body-file",
		"--method", "--user", "--password", "--http-user", "--http-password", "--referer", "--load-cookies", "--save-cookies",
		"-B", "--base", "--bind-address", "--limit-rate", "--ca-certificate", "--certificate", "--private-key", "-e", "--execute",
		"-i", "--input-file", "-I", "--include-directories", "-X", "--exclude-directories", "--config", "--bind-dns-address",
		"--dns-servers", "--use-askpass", "--proxy-user", "--proxy-password", "--ftp-user", "--ftp-password", "--warc-file",
		"--restrict-file-names", "--progress", "--local-encoding", "--remote-encoding", "--default-page", "--secure-protocol",
		"--ca-directory", "--crl-file", "--pinnedpubkey", "--random-file", "--egd-file", "--hsts-file", "--rejected-log",
		"--exclude-domains", "--follow-tags", "--ignore-tags", "--accept-regex", "--reject-regex", "--regex-type",
		"--max-redirect", "--read-timeout", "--dns-timeout", "--connect-timeout", "--waitretry", "--retry-on-http-error",
		"--prefer-family", "--cut-dirs", "--certificate-type", "--private-key-type", "--ciphers", "--report-speed")
	sshValue = setOf("-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R", "-S",
		"-W", "-w", "-B", "-P")
	ncValue = setOf("-p", "-s", "-w", "-i", "-x", "-X", "-q", "-T", "-O", "-I", "-V", "-M", "-m", "-g", "-G", "-e", "-c",
		"--source", "--source-port", "--proxy", "--proxy-type", "--wait", "--idle-timeout", "--exec", "--sh-exec")
	curlLike = setOf("http", "https", "xh", "xhs", "aria2c", "lynx", "w3m", "links", "elinks", "httpie", "curlie")
	ncLike   = setOf("nc", "ncat", "netcat", "nc.openbsd", "nc.traditional", "telnet", "ftp", "lftp", "tftp")
)

// networkHosts are the hosts a command would connect to, read from its
// words as the program reads them; args are expanded. Any other program
// given a URL with a network scheme (a script, a downloader) counts as
// reaching it too. unreadable says why a word that names where the
// program connects cannot be read as a host (then it asks every time),
// or is "".
func networkHosts(base string, args []string) (out []Host, unreadable string) {
	positional := func(value map[string]bool, f func(x string)) {
		scanArgs(args, optionGrammar{long: value}, nil, func(x string, _ bool) { f(x) })
	}
	switch {
	case base == "curl" || base == "curlie":
		return curlHosts(args)
	case base == "wget" || base == "wget2":
		return wgetHosts(args)
	case curlLike[base]:
		for i, x := range args {
			if (x == "--url" || x == "-x" || x == "--proxy" || x == "--preproxy") && i+1 < len(args) {
				if h, ok := urlHost(args[i+1], true); ok {
					out = append(out, h)
				}
			}
			for _, p := range []string{"--url=", "--proxy=", "--preproxy="} {
				if v, ok := strings.CutPrefix(x, p); ok {
					if h, ok := urlHost(v, true); ok {
						out = append(out, h)
					}
				}
			}
		}
		positional(nil, func(x string) {
			if h, ok := urlHost(x, true); ok {
				out = append(out, h)
			}
		})
		return out, ""
	case ncLike[base]:
		var pos []string
		positional(ncValue, func(x string) { pos = append(pos, x) })
		if len(pos) > 0 {
			if h, ok := urlHost(pos[0], false); ok {
				return []Host{h}, ""
			}
			host := pos[0]
			if at := strings.LastIndexByte(host, '@'); at >= 0 {
				host = host[at+1:]
			}
			key := HostKey(host)
			if len(pos) > 1 && key != "" && !strings.Contains(key, ":") {
				key = HostKey(host + ":" + pos[1])
			}
			if key != "" {
				return []Host{{Name: key, URL: strings.Join(append([]string{base}, pos...), " ")}}, ""
			}
			return nil, base + "'s address " + quoteWord(pos[0]) + " names no host the checker can read, so no one can tell where it connects"
		}
		return nil, ""
	case base == "ssh" || base == "mosh" || base == "autossh":
		var host string
		positional(sshValue, func(x string) {
			if host == "" {
				host = x
			}
		})
		for i, x := range args {
			if x == "-J" && i+1 < len(args) {
				for _, j := range strings.Split(args[i+1], ",") {
					out = append(out, sshHost(j)...)
				}
			}
		}
		return append(out, sshHost(host)...), ""
	case base == "scp" || base == "sftp" || base == "rsync":
		first := true
		positional(sshValue, func(x string) {
			if h, ok := urlHost(x, false); ok {
				out = append(out, h)
			} else if h, ok := remoteSpec(x); ok {
				out = append(out, h)
			} else if base == "sftp" && first {
				out = append(out, sshHost(x)...)
			}
			first = false
		})
		return out, ""
	case base == "git":
		return gitHosts(args)
	case base == "socat":
		for _, x := range args {
			l := strings.ToLower(x)
			for _, p := range []string{"tcp:", "tcp4:", "tcp6:", "udp:", "udp4:", "udp6:", "openssl:", "ssl:", "tcp-connect:", "udp-connect:"} {
				if rest, ok := strings.CutPrefix(l, p); ok {
					rest, _, _ = strings.Cut(rest, ",")
					if k := HostKey(rest); k != "" {
						out = append(out, Host{Name: k, URL: x})
					}
				}
			}
		}
		return out, ""
	case base == "openssl":
		for i, x := range args {
			if x == "-connect" && i+1 < len(args) {
				if k := HostKey(args[i+1]); k != "" {
					out = append(out, Host{Name: k, URL: "openssl " + strings.Join(args, " ")})
				}
			}
		}
		return out, ""
	case lookups[base] != nil:
		return lookupHosts(base, args), lookupUnread(base, args)
	case textArgs[base]:
		return nil, ""
	}
	for _, x := range args {
		if v, ok := cutOption(x); ok {
			x = v
		}
		if h, ok := urlHost(x, false); ok {
			out = append(out, h)
		}
	}
	return out, ""
}

// lookups are programs that resolve or reach the host names they are
// given (the name's DNS server sees every query, so a name can carry
// data out), with their options that take a value.
var lookups = map[string]map[string]bool{
	"ping4":                   setOf("-c", "-i", "-s", "-W", "-w", "-I", "-t", "-l", "-p", "-Q", "-S", "-M", "-m", "-F", "-T"),
	"tracepath6":              setOf("-l", "-m", "-p"),
	"traceroute4":             setOf("-f", "-m", "-p", "-q", "-w", "-z", "-s", "-i", "-N", "-t", "-g"),
	"tcptraceroute":           setOf("-i", "-f", "-l", "-m", "-p", "-q", "-w", "-s", "-t"),
	"systemd-resolve":         setOf("-i", "-t", "-c", "-p", "--interface", "--type", "--class", "--protocol"),
	"nping":                   setOf("-c", "-p", "-g", "-e", "-S", "--dest-port", "--source-port", "--rate", "--delay", "--data", "--data-string", "--ttl"),
	"hping3":                  setOf("-c", "-i", "-p", "-s", "-t", "-a", "-d", "-E", "-I", "-N", "-w", "-o", "-H", "-O", "-K", "-C", "-g", "-m"),
	"hping":                   setOf("-c", "-i", "-p", "-s", "-t", "-a", "-d", "-E", "-I", "-N", "-w"),
	"ping":                    setOf("-c", "-i", "-s", "-W", "-w", "-I", "-t", "-l", "-p", "-Q", "-S", "-M", "-m", "-F", "-T"),
	"ping6":                   setOf("-c", "-i", "-s", "-W", "-w", "-I", "-t", "-l", "-p", "-Q", "-S", "-M", "-m", "-F", "-T"),
	"fping":                   setOf("-c", "-C", "-i", "-p", "-t", "-r", "-b", "-B", "-f", "-I", "-S", "-O", "-H", "-Q"),
	"arping":                  setOf("-c", "-w", "-I", "-s", "-i"),
	"dig":                     setOf("-b", "-c", "-f", "-k", "-p", "-q", "-t", "-y"),
	"kdig":                    setOf("-b", "-c", "-k", "-p", "-q", "-t", "-y", "-E"),
	"delv":                    setOf("-a", "-b", "-c", "-p", "-q", "-t"),
	"drill":                   setOf("-c", "-k", "-p", "-s", "-y", "-b", "-a", "-r"),
	"nslookup":                setOf(),
	"host":                    setOf("-c", "-t", "-W", "-N", "-R", "-m"),
	"whois":                   setOf("-p", "-s", "-T", "-i", "-g"),
	"traceroute":              setOf("-f", "-m", "-p", "-q", "-w", "-z", "-s", "-i", "-N", "-t", "-g", "-A", "-M", "-O", "-l"),
	"traceroute6":             setOf("-f", "-m", "-p", "-q", "-w", "-z", "-s", "-i", "-N", "-t", "-g"),
	"tracepath":               setOf("-l", "-m", "-p"),
	"mtr":                     setOf("-c", "-i", "-s", "-a", "-f", "-m", "-B", "-G", "-Q", "-P", "-L", "-o", "-I", "-Z"),
	"ssh-keyscan":             setOf("-f", "-p", "-t", "-T", "-O"),
	"nmap":                    setOf("-p", "-e", "-S", "-D", "-g", "-oN", "-oX", "-oG", "-oA", "-iL", "--script", "--script-args"),
	"getent":                  setOf("-s", "--service"),
	"resolvectl":              setOf("-i", "-t", "-c", "-p"),
	"avahi-resolve":           setOf(),
	"avahi-resolve-host-name": setOf(),
}

// lookupHosts are the host names and addresses a lookup program's words
// name: its positional words that read as a host, dig's @server, whois
// -h's server; for getent, the names after a hosts database.
func lookupHosts(base string, args []string) []Host {
	value := lookups[base]
	line := base + " " + strings.Join(args, " ")
	var out []Host
	add := func(x string) {
		x = strings.TrimSuffix(strings.TrimPrefix(x, "@"), ".")
		if h, ok := urlHost(x, false); ok {
			out = append(out, Host{Name: h.Name, URL: line})
			return
		}
		if k := HostKey(x); k != "" && (strings.Contains(k, ".") || strings.Contains(k, ":") || k == "localhost") {
			out = append(out, Host{Name: k, URL: line})
		}
	}
	// dig -x, whois -h and the like take a host as their value.
	server := map[string]bool{}
	switch base {
	case "whois":
		server["-h"] = true
	case "dig", "kdig", "delv":
		server["-x"], server["-q"] = true, true
	case "drill":
		server["-s"] = true
	}
	long := maps.Clone(value)
	maps.Copy(long, server)
	pos, none := 0, false
	scanArgs(args, optionGrammar{long: long}, func(name, v string, ok bool) {
		if ok && server[name] {
			add(v)
		}
	}, func(x string, afterDashes bool) {
		switch {
		case afterDashes:
			add(x)
		case strings.HasPrefix(x, "+"):
			// dig's +short
		case base == "getent":
			if pos == 0 && !strings.Contains(x, "host") {
				none = true // passwd, group…: no host
			}
			if pos > 0 {
				add(x)
			}
			pos++
		case base == "resolvectl" && pos == 0:
			pos++ // query, status…
		default:
			add(x)
			pos++
		}
	})
	if none {
		return nil
	}
	return out
}

// lookupUnread says why a lookup program's names are not known from the
// line: it reads them from a file (dig -f, nmap -iL) or from its input
// (nslookup or fping given none), or "".
func lookupUnread(base string, args []string) string {
	for _, x := range args {
		switch {
		case x == "-f" && (base == "dig" || base == "kdig" || base == "fping" || base == "ssh-keyscan" || base == "host"),
			x == "-iL" && base == "nmap", x == "--file" && base == "fping":
			return base + " " + x + " reads the names it looks up from a file, so the hosts it reaches are known only when it runs"
		}
	}
	if (base == "nslookup" || base == "fping") && !hasPositional(args) {
		return base + " reads the names it looks up from its input, so the hosts it reaches are known only when it runs"
	}
	return ""
}

// quoteWord shows a word of a command line in a reason.
func quoteWord(s string) string { return "\"" + OneLineVisible(s, 120) + "\"" }

// Options of curl (7.88) that take a value: one-letter ones, which may
// run together (-fsSLo file), and long ones.
var (
	curlShortValue = "EKCbcdDFPHhmoUQreXYytzTuAwx"
	curlLongValue  = setOf("--abstract-unix-socket", "--alt-svc", "--aws-sigv4", "--cacert", "--capath", "--cert", "--cert-type",
		"--ciphers", "--config", "--connect-timeout", "--connect-to", "--continue-at", "--cookie", "--cookie-jar",
		"--create-file-mode", "--crlfile", "--curves", "--data", "--data-ascii", "--data-binary", "--data-raw",
		"--data-urlencode", "--delegation", "--dns-interface", "--dns-ipv4-addr", "--dns-ipv6-addr", "--dns-servers",
		"--doh-url", "--dump-header", "--egd-file", "--engine", "--etag-compare", "--etag-save", "--expect100-timeout",
		"--form", "--form-string", "--ftp-account", "--ftp-alternative-to-user", "--ftp-method", "--ftp-port",
		"--ftp-ssl-ccc-mode", "--happy-eyeballs-timeout-ms", "--header", "--help", "--hostpubmd5", "--hostpubsha256",
		"--hsts", "--interface", "--json", "--keepalive-time", "--key", "--key-type", "--krb", "--libcurl", "--limit-rate",
		"--local-port", "--login-options", "--mail-auth", "--mail-from", "--mail-rcpt", "--max-filesize", "--max-redirs",
		"--max-time", "--netrc-file", "--noproxy", "--oauth2-bearer", "--output", "--output-dir", "--parallel-max",
		"--pass", "--pinnedpubkey", "--preproxy", "--proto", "--proto-default", "--proto-redir", "--proxy",
		"--proxy-cacert", "--proxy-capath", "--proxy-cert", "--proxy-cert-type", "--proxy-ciphers", "--proxy-crlfile",
		"--proxy-header", "--proxy-key", "--proxy-key-type", "--proxy-pass", "--proxy-pinnedpubkey",
		"--proxy-service-name", "--proxy-tls13-ciphers", "--proxy-tlsauthtype", "--proxy-tlspassword", "--proxy-tlsuser",
		"--proxy-user", "--proxy1.0", "--pubkey", "--quote", "--random-file", "--range", "--rate", "--referer",
		"--request", "--request-target", "--resolve", "--retry", "--retry-delay", "--retry-max-time", "--sasl-authzid",
		"--service-name", "--socks4", "--socks4a", "--socks5", "--socks5-gssapi-service", "--socks5-hostname",
		"--speed-limit", "--speed-time", "--stderr", "--telnet-option", "--tftp-blksize", "--time-cond", "--tls-max",
		"--tls13-ciphers", "--tlsauthtype", "--tlspassword", "--tlsuser", "--trace", "--trace-ascii", "--unix-socket",
		"--upload-file", "--url", "--url-query", "--user", "--user-agent", "--write-out", "--variable", "--expand-url",
		"--ech", "--ip-tos", "--vlan-priority", "--trace-config", "--output-dir", "--etag-save", "--knownhosts")
	// curlProxy are the options whose value is a proxy curl connects to.
	curlProxy = setOf("-x", "--proxy", "--preproxy", "--socks4", "--socks4a", "--socks5", "--socks5-hostname", "--proxy1.0")
	// curlElsewhere are options whose value chooses where or how curl
	// connects in a way no host names.
	curlElsewhere = setOf("--interface", "--dns-interface", "--dns-ipv4-addr", "--dns-ipv6-addr", "--unix-socket",
		"--abstract-unix-socket", "-P", "--ftp-port", "--local-port", "--expand-url")
)

// curlHosts reads curl's words as curl does: every word that is not an
// option or an option's value is a URL; --url, the proxies, --connect-to,
// --resolve, --dns-servers and --doh-url name hosts too. A URL whose host
// curl reads differently from the checker (a glob such as [1-3] or {a,b}
// in the host or port, an escape) and options that send it somewhere no
// host names (--interface, --unix-socket) make it ask every time.
func curlHosts(args []string) (out []Host, unreadable string) {
	url := func(x string) bool {
		h, ok := curlURL(x)
		if ok {
			out = append(out, h)
		} else if unreadable == "" {
			unreadable = "curl's address " + quoteWord(x) + " names no host the checker can read as curl does (a URL glob such as [1-3] or {a,b}, an escape), so no one can tell where it connects"
		}
		return ok
	}
	option := func(opt, val string) {
		switch {
		case opt == "--url":
			url(val)
		case curlProxy[opt]:
			if h, ok := curlURL(val); ok {
				out = append(out, h)
			} else if unreadable == "" {
				unreadable = "curl " + opt + " names a proxy " + quoteWord(val) + " the checker cannot read as a host"
			}
		case opt == "--doh-url":
			url(val)
		case opt == "--connect-to":
			if h, ok := connectTo(val); ok {
				out = append(out, h)
			} else if unreadable == "" {
				unreadable = "curl --connect-to " + quoteWord(val) + " sends the request to an address the checker cannot read as a host"
			}
		case opt == "--resolve":
			hs, ok := resolveTo(val)
			out = append(out, hs...)
			if !ok && unreadable == "" {
				unreadable = "curl --resolve " + quoteWord(val) + " sends the request to an address the checker cannot read as a host"
			}
		case opt == "--dns-servers":
			for _, s := range strings.Split(val, ",") {
				if k := HostKey(strings.TrimSpace(s)); k != "" {
					out = append(out, Host{Name: k, URL: "dns://" + s})
				} else if unreadable == "" {
					unreadable = "curl --dns-servers " + quoteWord(val) + " asks a name server the checker cannot read as a host"
				}
			}
		case curlElsewhere[opt]:
			if unreadable == "" {
				unreadable = "curl " + opt + " chooses where or how it connects in a way no host name shows"
			}
		}
	}
	scanArgs(args, optionGrammar{short: curlShortValue, long: curlLongValue}, func(name, v string, ok bool) {
		if ok {
			option(name, v)
		}
	}, func(x string, _ bool) { url(x) })
	return out, unreadable
}

// curlURL reads a URL as curl does: http:// when it has no scheme, and
// only when its host and port are plain (a name, an address, [an IPv6
// address], a number for the port): curl expands globs there ([1-3],
// {a,b}) and reads escapes the checker would not.
func curlURL(x string) (Host, bool) {
	x = strings.TrimSpace(x)
	rest := x
	if i := strings.Index(x, "://"); i > 0 {
		rest = x[i+3:]
	} else {
		x = "http://" + x
	}
	auth := rest
	if i := strings.IndexAny(auth, "/?#"); i >= 0 {
		auth = auth[:i]
	}
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		auth = auth[at+1:]
	}
	if !plainAuthority(auth) {
		return Host{}, false
	}
	return urlHost(x, false)
}

// plainAuthority reports a host[:port] made of a name or an address and
// a number: nothing curl or wget would expand or unescape.
func plainAuthority(s string) bool {
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 || net.ParseIP(s[1:end]) == nil {
			return false
		}
		s = "h" + s[end+1:]
	}
	host, port, hasPort := strings.Cut(s, ":")
	if host == "" || hasPort && (port == "" || strings.Trim(port, "0123456789") != "") {
		return false
	}
	for _, r := range host {
		if !(r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 && r != 0xfffd) {
			return false
		}
	}
	return true
}

// connectTo reads --connect-to HOST1:PORT1:HOST2:PORT2: the request for
// the first goes to the second, which must name a host.
func connectTo(v string) (Host, bool) {
	parts := splitColons(v)
	if len(parts) != 4 || parts[2] == "" {
		return Host{}, false
	}
	addr := parts[2]
	if parts[3] != "" {
		addr = joinHostPort(parts[2], parts[3])
	}
	if !plainAuthority(addr) {
		return Host{}, false
	}
	k := HostKey(addr)
	return Host{Name: k, URL: "--connect-to " + v}, k != ""
}

// resolveTo reads --resolve [+]HOST:PORT:ADDR[,ADDR]…: requests for the
// host go to each address.
func resolveTo(v string) ([]Host, bool) {
	if strings.HasPrefix(v, "-") {
		return nil, true // removes an entry
	}
	parts := splitColons(strings.TrimPrefix(v, "+"))
	if len(parts) < 3 {
		return nil, false
	}
	var out []Host
	for _, a := range strings.Split(strings.Join(parts[2:], ":"), ",") {
		addr := joinHostPort(strings.Trim(a, "[]"), parts[1])
		k := HostKey(addr)
		if k == "" || !plainAuthority(addr) {
			return out, false
		}
		out = append(out, Host{Name: k, URL: "--resolve " + v})
	}
	return out, true
}

// splitColons splits at colons outside [brackets].
func splitColons(v string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ':':
			if depth == 0 {
				out = append(out, strings.Trim(v[start:i], "[]"))
				start = i + 1
			}
		}
	}
	return append(out, strings.Trim(v[start:], "[]"))
}

func joinHostPort(host, port string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + port
	}
	return host + ":" + port
}

// wgetShortValue are wget's one-letter options that take a value.
const wgetShortValue = "eoaiBtOTwQPUlARDIX"

// wgetHosts reads wget's words as wget does: every word that is not an
// option or an option's value is a URL (http:// assumed), which must
// name a host the checker can read; --bind-address and the like ask.
func wgetHosts(args []string) (out []Host, unreadable string) {
	url := func(x string) {
		if h, ok := curlURL(x); ok {
			out = append(out, h)
		} else if unreadable == "" {
			unreadable = "wget's address " + quoteWord(x) + " names no host the checker can read, so no one can tell where it connects"
		}
	}
	scanArgs(args, optionGrammar{short: wgetShortValue, long: wgetValue, eq: true}, func(name, _ string, _ bool) {
		if strings.HasPrefix(name, "--") && hasOption([]string{name}, "--bind-address", "--bind-dns-address", "--dns-servers") && unreadable == "" {
			unreadable = "wget " + name + " chooses where or how it connects in a way no host name shows"
		}
	}, func(x string, _ bool) { url(x) })
	return out, unreadable
}

// gitHosts are the hosts of git's network commands: URLs and
// [user@]host:path; a remote helper (ext::, fd::, any x::…) runs a
// program or reaches what the checker cannot read, so it asks.
func gitHosts(args []string) (out []Host, unreadable string) {
	cmd, at := gitCommand(args)
	switch cmd {
	case "push", "fetch", "pull", "clone", "ls-remote", "remote", "submodule", "archive":
	default:
		return nil, ""
	}
	for _, x := range args[at+1:] {
		if v, ok := strings.CutPrefix(x, "--remote="); ok {
			x = v
		}
		if i := strings.Index(x, "::"); i > 0 && !strings.ContainsAny(x[:i], "/:@") {
			if unreadable == "" {
				unreadable = "git's address " + quoteWord(x) + " uses the remote helper git-remote-" + x[:i] + ", which runs a program or connects where no host name shows"
			}
			continue
		}
		if h, ok := urlHost(x, false); ok {
			out = append(out, h)
		} else if h, ok := remoteSpec(x); ok {
			out = append(out, h)
		} else if strings.Contains(x, "://") && unreadable == "" {
			unreadable = "git's address " + quoteWord(x) + " names no host the checker can read, so no one can tell where it connects"
		}
	}
	return out, unreadable
}

// cutOption is the value of --name=value.
func cutOption(x string) (string, bool) {
	if !strings.HasPrefix(x, "-") {
		return "", false
	}
	_, v, ok := strings.Cut(x, "=")
	return v, ok
}

// sshHost is the host of [user@]host[:port] as ssh takes it.
func sshHost(x string) []Host {
	if x == "" {
		return nil
	}
	if h, ok := urlHost(x, false); ok {
		return []Host{h}
	}
	host := x
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if k := HostKey(host); k != "" {
		return []Host{{Name: k, URL: "ssh://" + x}}
	}
	return nil
}

// remoteSpec reads [user@]host:path (scp, rsync, git) and host::module
// (rsync): a word with a colon before any slash that does not start
// like a local path.
func remoteSpec(x string) (Host, bool) {
	if x == "" || strings.HasPrefix(x, "/") || strings.HasPrefix(x, ".") || strings.HasPrefix(x, "~") || strings.HasPrefix(x, "-") {
		return Host{}, false
	}
	i := strings.IndexByte(x, ':')
	if i <= 0 || strings.Contains(x[:i], "/") || strings.ContainsAny(x[:i], " $`") {
		return Host{}, false
	}
	host := x[:i]
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if len(host) == 1 { // a Windows drive letter (C:…)
		return Host{}, false
	}
	k := HostKey(host)
	if k == "" {
		return Host{}, false
	}
	return Host{Name: k, URL: x}, true
}

// pathWords records the words of a command that may name files:
// arguments (not options; for grep, sed, awk, jq and the like not the
// pattern or program that comes first), the values of --option=value,
// and not the remote half of scp or rsync. Programs that only print
// their arguments name nothing; git's words are refs, paths in the
// repository and messages, except where git reads a file (see
// gitPathWord).
func (a *analyzer) pathWords(base string, args []string, exp []expansion) {
	if textArgs[base] && base != "git" {
		return
	}
	recursive := readsRecursively(base, args)
	skipFirst := patternFirst[base]
	for _, x := range args {
		if x == "-e" || x == "--regexp" || x == "-f" || x == "--file" || x == "--expression" || x == "--source" {
			skipFirst = false
		}
	}
	var git gitFiles
	if base == "git" {
		git = gitFileArgs(args)
	}
	before := len(a.paths)
	defer func() {
		// rg, ag, ack and grep -r without a folder search the one they
		// run in.
		if len(a.paths) == before && recursive && searchesHere[base] {
			a.paths = append(a.paths, a.pathUse(".", ".", false, false, true, base)...)
		}
	}()
	skipNext := false
	inFindExpr := false
	for i, x := range args {
		e := exp[i]
		switch {
		case base == "git":
			if git.path(i) || gitPathLike(e) {
				a.paths = append(a.paths, a.pathUses(x, gitValue(x, e), false, base)...)
			}
			continue
		case skipNext:
			skipNext = false
			if patternFirst[base] {
				continue // the pattern after -e
			}
		case base == "find" && (inFindExpr || strings.HasPrefix(x, "-") || x == "(" || x == "!"):
			inFindExpr = true
			continue
		case x == "--" || x == "-":
			continue
		case strings.HasPrefix(x, "-") && len(x) > 1:
			if x == "-e" || x == "--regexp" || x == "--expression" {
				skipNext = true
			}
			for _, v := range e.vals {
				if o, ok := cutOption(v); ok && (strings.HasPrefix(o, "/") || strings.HasPrefix(o, "~") || strings.HasPrefix(o, ".") || e.unknown) {
					a.paths = append(a.paths, a.pathUse(x, o, e.glob, e.unknown, recursive, base)...)
				}
				if p, ok := atPath(v); ok {
					a.paths = append(a.paths, a.pathUse(p, p, e.glob, e.unknown, false, base)...)
				}
			}
			continue
		case skipFirst:
			skipFirst = false
			continue
		case strings.Contains(x, "://"):
			continue
		case (base == "scp" || base == "rsync" || base == "sftp") && !strings.HasPrefix(x, "/"):
			if _, remote := remoteSpec(x); remote {
				continue
			}
		}
		a.paths = append(a.paths, a.pathUses(x, e, recursive, base)...)
		for _, v := range e.vals {
			if p, ok := atPath(v); ok {
				a.paths = append(a.paths, a.pathUse(p, p, e.glob, e.unknown, false, base)...)
			}
		}
	}
}

// gitFiles are the indexes of git's arguments that name files outside
// the repository's own paths.
type gitFiles map[int]bool

func (g gitFiles) path(i int) bool { return g[i] }

// gitFileOptions are git's options whose value is a file or folder it
// reads or writes: -C and --git-dir/--work-tree before the command,
// blame --contents and --ignore-revs-file, commit/tag/notes -F, commit
// -t, config -f/--file, format-patch/archive -o, diff --output.
var gitFileOptions = setOf("-C", "--git-dir", "--work-tree", "--contents", "--ignore-revs-file", "-F", "--file", "-t",
	"--template", "-f", "-o", "--output", "--output-directory", "--blob", "--exec-path", "--reference", "--separate-git-dir")

// gitFileArgs finds git's words that name files: the values of
// gitFileOptions, and every argument of git diff/grep --no-index (which
// read any two files), apply, am, hash-object (which read the files they
// are given), merge-file and check-ignore --no-index.
func gitFileArgs(args []string) gitFiles {
	out := gitFiles{}
	cmd, at := gitCommand(args)
	for i := 0; i < len(args); i++ {
		x := args[i]
		if x == "--" {
			break
		}
		if gitFileOptions[x] && i+1 < len(args) {
			out[i+1] = true
			i++
			continue
		}
		if name, _, ok := strings.Cut(x, "="); ok && strings.HasPrefix(x, "--") && hasOption([]string{name}, "--contents",
			"--ignore-revs-file", "--file", "--template", "--output", "--output-directory", "--git-dir", "--work-tree",
			"--exec-path", "--reference", "--separate-git-dir") {
			out[i] = true
		}
	}
	every := false
	switch cmd {
	case "apply", "am", "hash-object", "merge-file":
		every = true
	case "diff", "grep", "check-ignore":
		every = hasOption(args[at+1:], "--no-index")
	}
	if every {
		for i := at + 1; i < len(args); i++ {
			if args[i] != "--" && !strings.HasPrefix(args[i], "-") {
				out[i] = true
			}
		}
	}
	return out
}

// gitPathLike reports a git word that can only be a path outside the
// repository: absolute, in a home folder (~), or climbing out with ..
func gitPathLike(e expansion) bool {
	for _, v := range e.vals {
		if _, o, ok := strings.Cut(v, "="); ok && strings.HasPrefix(v, "-") {
			v = o
		}
		if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || v == ".." || strings.HasPrefix(v, "../") {
			return true
		}
	}
	return e.unknown
}

// gitValue is the file part of a git word: the value of --opt=file.
func gitValue(x string, e expansion) expansion {
	if !strings.HasPrefix(x, "-") {
		return e
	}
	out := expansion{glob: e.glob, unknown: e.unknown}
	for _, v := range e.vals {
		if _, o, ok := strings.Cut(v, "="); ok {
			v = o
		}
		out.vals = append(out.vals, v)
	}
	return out
}

// atPath is the file of curl's and httpie's @file forms: -d @notes.txt,
// -F f=@/path, field@~/x.
func atPath(w string) (string, bool) {
	i := strings.LastIndexByte(w, '@')
	if i < 0 {
		return "", false
	}
	p := w[i+1:]
	if i == 0 || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") ||
		strings.HasPrefix(p, ".") && i > 0 && w[i-1] == '=' {
		return p, p != ""
	}
	return "", false
}

// searchesHere are recursive searches that read the folder they run in
// when given none.
var searchesHere = setOf("rg", "ag", "ack", "grep", "egrep", "fgrep")

// readsContents are the recursive readers that read the files' contents
// (searches, archivers, copies), not only their names: a credential file
// beneath a folder they are given is read.
var readsContents = setOf("rg", "ag", "ack", "grep", "egrep", "fgrep", "tar", "gtar", "bsdtar", "rsync", "7z", "cp", "scp", "zip")

// readsRecursively reports a program that reads everything beneath the
// folders it is given.
func readsRecursively(base string, args []string) bool {
	switch base {
	case "rg", "ag", "ack", "tar", "gtar", "bsdtar", "find", "rsync", "7z", "du", "tree", "fd", "fdfind":
		return true
	case "grep", "egrep", "fgrep", "cp", "scp", "zip", "chmod", "chown", "chgrp", "ls":
		for _, x := range args {
			if x == "--recursive" || x == "--dereference-recursive" || x == "--archive" ||
				strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && strings.ContainsAny(x, "rRa") && base != "ls" ||
				base == "ls" && strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && strings.Contains(x, "R") {
				return true
			}
		}
	}
	return false
}
