package cerebellum

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"golang.org/x/mod/modfile"
)

// More of what an approved command line can load (a39), beside
// mcpcode.go: settings found in parent folders beyond ancestorNames,
// projects a project names as its path dependencies, the project an
// editable install's finder maps, and what cannot be hashed at all.

// parentSettingNames are more settings runners look for in the working
// folder or project and every folder above (a39): rustup's
// rust-toolchain (a toolchain path runs its bin/cargo), MSBuild's
// Directory.Build.* (targets run at each build), NuGet.Config (package
// sources), dotnet's global.json (the SDK), tsconfig.json (tsx's and
// ts-node's paths and preloads). Matched without regard to case, as
// NuGet and a case-insensitive disk find them. A list, not every file in
// the parent folders: a folder above a project holds other projects'
// notes and files that change all day, and each change would undo the
// approval.
var parentSettingNames = []string{"rust-toolchain", "rust-toolchain.toml", "directory.build.props",
	"directory.build.targets", "directory.build.rsp", "directory.packages.props", "nuget.config", "global.json",
	"tsconfig.json", "jsconfig.json"}

// parentSettingFolders are settings folders hashed whole where they
// appear above a project: Maven's .mvn (jvm.config lands on java's
// command line, extensions.xml loads build extensions, the wrapper's jar
// and properties say which Maven runs). They are small; one past
// maxSettingEntries cannot be checked.
var parentSettingFolders = []string{".mvn"}

const maxSettingEntries = 1000

// moreAncestorSettings are the files of parentSettingNames and
// parentSettingFolders in each of dirs and the folders above it
// (foldersAbove). Each folder is listed, so a name is found whatever its
// case.
func moreAncestorSettings(dirs []string, shelf, home string) []string {
	var out []string
	foldersAbove(dirs, shelf, home, func(dir string) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			name := e.Name()
			switch {
			case slices.Contains(parentSettingNames, strings.ToLower(name)) && !e.IsDir():
				out = append(out, filepath.Join(dir, name))
				if strings.HasPrefix(strings.ToLower(name), "rust-toolchain") {
					out = append(out, toolchainPrograms(filepath.Join(dir, name), home)...)
				}
			case slices.Contains(parentSettingFolders, name) && e.IsDir():
				out = append(out, settingFolderFiles(filepath.Join(dir, name))...)
			}
		}
	})
	return out
}

// settingFolderFiles are the files (and links) in a settings folder, or
// an Unchecked entry for one that cannot be looked through whole.
func settingFolderFiles(dir string) []string {
	var out []string
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > maxSettingEntries {
			return fs.ErrInvalid
		}
		switch {
		case d.IsDir():
		case d.Type()&fs.ModeSocket != 0:
		case d.Type()&fs.ModeSymlink != 0 || d.Type().IsRegular():
			out = append(out, p)
		default:
			out = append(out, RefusedPrefix+nonRegularReason(p, d.Type()))
		}
		return nil
	})
	if err != nil {
		return append(out, UncheckedPrefix+dir)
	}
	return out
}

// nonRegularReason says why a named pipe or device among a server's code
// refuses its start.
func nonRegularReason(p string, mode fs.FileMode) string {
	kind := "a special file"
	switch {
	case mode&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case mode&fs.ModeCharDevice != 0, mode&fs.ModeDevice != 0:
		kind = "a device"
	}
	return "among the code it loads, " + p + " is " + kind + ", which reads as whatever another process writes into it, so no check can say what it runs; remove it (or move the server to a folder without it) and enable it again"
}

// editableFinder reports whether name is a module an editable install
// writes into site-packages to map a package to its project folder: PEP
// 660's setuptools finder (__editable___NAME_finder.py), the editables
// library hatchling uses (_editable_impl_NAME.py), meson-python's and
// scikit-build-core's loaders. A .pth imports it; its paths are the
// project's code.
func editableFinder(name string) bool {
	if !strings.HasSuffix(name, ".py") {
		return false
	}
	return strings.HasPrefix(name, "__editable__") || strings.HasPrefix(name, "_editable_impl_") ||
		strings.HasSuffix(name, "_editable_loader.py") || strings.HasPrefix(name, "_") && strings.HasSuffix(name, "_editable.py")
}

// pyPathLiteral is an absolute path as a Python string literal: what a
// finder's MAPPING and NAMESPACES, or a map_module call, hold.
var pyPathLiteral = regexp.MustCompile(`['"](/[^'"\n]*|[A-Za-z]:\\\\[^'"\n]*)['"]`)

// editablePaths are the absolute paths a finder module names (the
// project folders its MAPPING maps packages to), at most 256.
func editablePaths(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil
	}
	return parseEditablePaths(string(b))
}

func parseEditablePaths(src string) []string {
	var out []string
	for _, m := range pyPathLiteral.FindAllStringSubmatch(src, 256) {
		p := m[1]
		if !strings.HasPrefix(p, "/") {
			p = strings.ReplaceAll(p, `\\`, `\`)
		}
		out = append(out, p)
	}
	return out
}

// manifestPath is a path = "…" key of a Cargo.toml (a path dependency,
// a [patch] or [replace] entry) or a pyproject.toml ([tool.uv.sources],
// poetry's and hatch's path dependencies), inline or in its own table.
var manifestPath = regexp.MustCompile(`(?m)(?:^|[\s{,])path\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')`)

// projectRootURL is PDM's file:///${PROJECT_ROOT}/../x dependency.
var projectRootURL = regexp.MustCompile(`\$\{PROJECT_ROOT\}/([^"'\s,\]]+)`)

// parseManifestPaths are the paths (relative as written) the manifest
// named base (Cargo.toml, pyproject.toml, go.mod, go.work) holding src
// names as projects it builds from: another project's code is built
// and run at each start (cargo runs a path dependency's build.rs).
func parseManifestPaths(base, src string) []string {
	var out []string
	switch base {
	case "Cargo.toml", "pyproject.toml":
		// Decoded as the tools decode them: a dotted key (shared.path =
		// …), a quoted one, escapes and multi-line strings all name the
		// same path (a41). What no TOML decoder reads is read as text.
		var doc map[string]any
		if _, err := toml.Decode(src, &doc); err == nil {
			out = append(out, tomlPaths(doc)...)
		} else {
			for _, m := range manifestPath.FindAllStringSubmatch(src, -1) {
				out = append(out, m[1]+m[2])
			}
		}
		for _, m := range projectRootURL.FindAllStringSubmatch(src, -1) {
			out = append(out, m[1])
		}
	case "go.mod", "go.work":
		if paths, ok := goModPaths(base, src); ok {
			return paths
		}
		inUse := false
		for _, line := range strings.Split(src, "\n") {
			if i := strings.Index(line, "//"); i >= 0 {
				line = line[:i]
			}
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			switch {
			case f[0] == "use" && len(f) > 1 && f[1] == "(":
				inUse = true
				continue
			case inUse && f[0] == ")":
				inUse = false
				continue
			case f[0] == "use" && len(f) > 1:
				out = append(out, f[1])
				continue
			case inUse:
				out = append(out, f[0])
				continue
			}
			// replace M [v] => ./local (alone or in a replace block): a
			// local replacement starts with ./ or ../ or is absolute.
			if _, after, ok := strings.Cut(line, "=>"); ok {
				if g := strings.Fields(after); len(g) > 0 {
					out = append(out, g[0])
				}
			}
		}
		out = slices.DeleteFunc(out, func(p string) bool {
			p = strings.Trim(p, `"`)
			return !(filepath.IsAbs(p) || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || p == "." || p == ".." ||
				strings.HasPrefix(p, `.\`) || strings.HasPrefix(p, `..\`))
		})
		for i, p := range out {
			out[i] = strings.Trim(p, `"`)
		}
	}
	return slices.DeleteFunc(out, func(p string) bool { return p == "" })
}

// manifestNames are the files parseManifestPaths reads.
var manifestNames = []string{"Cargo.toml", "pyproject.toml", "go.mod", "go.work"}

// cargoConfig reports whether f is a cargo configuration file
// (.cargo/config.toml, or .cargo/config as older cargo names it).
func cargoConfig(f string) bool {
	base := filepath.Base(f)
	return (base == "config.toml" || base == "config") && filepath.Base(filepath.Dir(f)) == ".cargo"
}

// parseCargoConfigPaths are the paths (relative as written, to the
// folder holding .cargo) a cargo configuration names as code it builds
// from (a42): every path key ([patch.<registry>] entries, stable since
// cargo 1.56), the top-level paths overrides, and a source replacement's
// directory or local-registry (vendored crates). Decoded as TOML like a
// Cargo.toml; read as text when no TOML decoder reads it.
func parseCargoConfigPaths(src string) []string {
	var doc map[string]any
	if _, err := toml.Decode(src, &doc); err != nil {
		var out []string
		for _, m := range manifestPath.FindAllStringSubmatch(src, -1) {
			out = append(out, m[1]+m[2])
		}
		return slices.DeleteFunc(out, func(p string) bool { return p == "" })
	}
	out := tomlPaths(doc)
	if paths, ok := doc["paths"].([]any); ok {
		for _, p := range paths {
			if p, ok := p.(string); ok {
				out = append(out, p)
			}
		}
	}
	if sources, ok := doc["source"].(map[string]any); ok {
		names := make([]string, 0, len(sources))
		for n := range sources {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			src, _ := sources[n].(map[string]any)
			for _, k := range []string{"directory", "local-registry"} {
				if p, ok := src[k].(string); ok {
					out = append(out, p)
				}
			}
		}
	}
	return slices.DeleteFunc(out, func(p string) bool { return p == "" })
}

// pathDependencyRoots are the folders the manifests and cargo
// configurations among files name as path dependencies
// (parseManifestPaths, parseCargoConfigPaths) that no folder of roots
// holds:
// each as addRoot in codeRoots takes it (its project, never a system
// folder, the home folder or the folder holding the capabilities'
// folders), sorted.
func pathDependencyRoots(files, roots []string, capDir, home string) []string {
	shelf := shelfOf(capDir)
	var out []string
	for _, f := range files {
		base := filepath.Base(f)
		isConfig := cargoConfig(f)
		if !slices.Contains(manifestNames, base) && !isConfig {
			continue
		}
		if fi, err := os.Stat(f); err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
			continue // never open a pipe: it would block
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		paths, from := parseManifestPaths(base, string(b)), filepath.Dir(f)
		if isConfig {
			// Cargo takes a configuration's paths relative to the folder
			// holding .cargo.
			paths, from = parseCargoConfigPaths(string(b)), filepath.Dir(from)
		}
		for _, rel := range paths {
			p := rel
			if !filepath.IsAbs(p) {
				p = filepath.Join(from, p)
			}
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				continue
			}
			if fi, err := os.Stat(real); err == nil && !fi.IsDir() {
				real = filepath.Dir(real) // [lib] path = "src/lib.rs"
			}
			if systemFolder(real) || HoldsHome(real, home) || shelf != "" && within(shelf, real) {
				continue
			}
			root := ProjectOf(real, home)
			if root == "" {
				continue
			}
			if shelf != "" && within(shelf, root) {
				root = real
			}
			if !slices.ContainsFunc(roots, func(r string) bool { return within(root, r) }) {
				out = append(out, root)
			}
		}
	}
	return foldRoots(out)
}

// withPathDependencies adds to files the code of the path dependencies
// their manifests name (pathDependencyRoots), and of theirs in turn, a
// few levels deep; roots gains them.
func withPathDependencies(files, roots []string, capDir, home string) ([]string, []string) {
	for range 8 {
		more := pathDependencyRoots(files, roots, capDir, home)
		if len(more) == 0 {
			break
		}
		files = append(files, codeFiles(more, home, maxCodeEntries)...)
		roots = foldRoots(append(roots, more...))
	}
	return files, roots
}

// PathEntryPrefix begins a LaunchFiles entry for a program in a folder of
// the server's PATH: its path and what identifies it (a link's target,
// the file's inode, size and times), not its content.
const PathEntryPrefix = "on-path:"

// maxPathEntries bounds the entries of one PATH folder pathFolderEntries
// looks at.
const maxPathEntries = 10_000

// pathFolderEntries are the programs in the folders of path (the
// server's PATH) outside system folders: a server's command, or a script
// it runs (npm is #!/usr/bin/env node, npm start runs `node server.js`
// through sh), looks programs up there by name, so one planted or
// rewritten there (a tools/bin in a granted folder) is code the server
// runs (a39). A folder's direct entries only, since a program is found
// by its name in the folder; each by identity, not content: a PATH
// folder such as /opt/homebrew/bin or ~/.cargo/bin leads to gigabytes
// of programs, while a write to a file still moves its change time,
// which no process can set back. A link counts by its target and the
// target's identity (outside system folders), so a script it leads to
// that is rewritten counts too. A program installed into or removed from
// such a folder changes the approval. A folder past maxPathEntries
// entries cannot be checked. The home folder (or one holding it) on PATH
// is left out: its own entries are the person's settings, not programs.
func pathFolderEntries(path, cwd, home string) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "." // an empty PATH entry is the working folder
		}
		if !filepath.IsAbs(d) {
			if cwd == "" {
				continue
			}
			d = filepath.Join(cwd, d)
		}
		real, err := filepath.EvalSymlinks(d)
		if err != nil || seen[real] || systemFolder(real) || HoldsHome(real, home) {
			continue
		}
		seen[real] = true
		f, err := os.Open(real)
		if err != nil {
			continue
		}
		entries, err := f.ReadDir(maxPathEntries + 1)
		f.Close()
		if err != nil && err != io.EOF {
			out = append(out, UncheckedPrefix+real)
			continue
		}
		if len(entries) > maxPathEntries {
			out = append(out, UncheckedPrefix+real)
			continue
		}
		for _, e := range entries {
			p := filepath.Join(real, e.Name())
			fi, err := os.Lstat(p)
			if err != nil || fi.IsDir() {
				continue
			}
			entry := PathEntryPrefix + p + " " + identity(fi)
			if fi.Mode()&fs.ModeSymlink != 0 {
				target, err := filepath.EvalSymlinks(p)
				if err != nil {
					target, _ = os.Readlink(p)
					entry += " -> " + target + " (dangling)"
				} else if tfi, err := os.Stat(target); err == nil && !systemFolder(target) {
					entry += " -> " + target + " " + identity(tfi)
				} else {
					entry += " -> " + target
				}
			}
			out = append(out, entry)
		}
	}
	return out
}

// identity is what tells a file from itself after a write: its kind and
// permission bits, size, modification time, and where the system keeps
// them, inode and change time.
func identity(fi fs.FileInfo) string {
	ino, ctime := sysStat(fi)
	if fi.Mode()&fs.ModeSymlink != 0 {
		// A link's own times move when it is replaced; its size is its
		// target's length.
		return fmt.Sprintf("link ino=%d ctime=%d", ino, ctime)
	}
	return fmt.Sprintf("%s size=%d mtime=%d ino=%d ctime=%d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), ino, ctime)
}

// toolchainPrograms are the programs of the toolchain a rust-toolchain
// file names by its path ([toolchain] path = "…"), counted as those of a
// PATH folder (pathFolderEntries): rustup's proxies run its bin/cargo
// and bin/rustc. The toolchain's libraries are not looked through (a
// toolchain is gigabytes).
func toolchainPrograms(file, home string) []string {
	fi, err := os.Stat(file)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<16 {
		return nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range manifestPath.FindAllStringSubmatch(string(b), 4) {
		p := m[1] + m[2]
		if p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(file), p)
		}
		out = append(out, pathFolderEntries(filepath.Join(p, "bin"), "", home)...)
	}
	return out
}

// tomlPaths are the values of every "path" key in a decoded manifest, at
// any depth (dependencies, dev- and build-dependencies, target tables,
// [patch.*], [replace], [workspace.dependencies], uv's and poetry's
// sources), and Cargo's package.workspace: a workspace root beside the
// project, whose own manifest's [patch] builds code too (a41).
func tomlPaths(doc map[string]any) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if p, ok := t[k].(string); ok && k == "path" {
					out = append(out, p)
					continue
				}
				walk(t[k])
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		case []map[string]any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(doc)
	if pkg, ok := doc["package"].(map[string]any); ok {
		if ws, ok := pkg["workspace"].(string); ok && ws != "" {
			out = append(out, ws)
		}
	}
	return out
}

// goModPaths are the local folders a go.mod's replace directives or a
// go.work's use and replace directives name, as the go command parses
// them (quoted and escaped paths included: a41); false when the file
// does not parse.
func goModPaths(base, src string) ([]string, bool) {
	var out []string
	local := func(p string) bool {
		return filepath.IsAbs(p) || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || p == "." || p == ".." ||
			strings.HasPrefix(p, `.\`) || strings.HasPrefix(p, `..\`)
	}
	addReplace := func(rs []*modfile.Replace) {
		for _, r := range rs {
			if r.New.Version == "" && local(r.New.Path) {
				out = append(out, r.New.Path)
			}
		}
	}
	if base == "go.work" {
		f, err := modfile.ParseWork(base, []byte(src), nil)
		if err != nil {
			return nil, false
		}
		for _, u := range f.Use {
			out = append(out, u.Path)
		}
		addReplace(f.Replace)
		return out, true
	}
	f, err := modfile.Parse(base, []byte(src), nil)
	if err != nil {
		return nil, false
	}
	addReplace(f.Replace)
	return out, true
}
