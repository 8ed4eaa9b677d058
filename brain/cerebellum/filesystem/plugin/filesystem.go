// Package filesystem is the plugin of the built-in filesystem capability:
// reading, writing, patching, listing, finding and searching files inside
// the folders the user granted. Every path is opened through the SDK's file
// API (env.OpenArg, OpenDirArg, ParentArg and Dir's methods), which checks
// what it actually opens, so a link swapped in by another process between
// a check and a read cannot redirect it; nothing here opens a path itself.
//
// The source is interpreted by yaegi at run time: no goroutines, no
// package-level mutable state, stdlib and the SDK only. Heavy lifting is
// left to stdlib calls (strings.Split, regexp) and the SDK's Dir.Walk.
package filesystem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

const (
	maxReadFile   = 20 << 20 // files larger than this are not read whole
	maxReadOutput = 64 << 10 // bytes of text one fs_read returns
	maxReadLines  = 2000
	maxWrite      = 10 << 20
	maxList       = 1000
	maxFind       = 1000
	maxGrepFile   = 5 << 20
	maxGrepLine   = 300
	sniffLen      = 8000
)

// fsys carries the plugin's environment.
type fsys struct {
	env *sdk.Env
}

// Init registers the six filesystem tools.
func Init(env *sdk.Env) (*sdk.Plugin, error) {
	f := &fsys{env: env}
	p := sdk.NewPlugin()
	p.Handle("fs_read", f.read)
	p.Handle("fs_write", f.write)
	p.Handle("fs_patch", f.patch)
	p.Handle("fs_list", f.list)
	p.Handle("fs_find", f.find)
	p.Handle("fs_grep", f.grep)
	return p, nil
}

func isBinary(data []byte) bool {
	if len(data) > sniffLen {
		data = data[:sniffLen]
	}
	return bytes.IndexByte(data, 0) >= 0
}

// notFound describes a failure to open path. The SDK's refusals (outside
// the folders, protected) are already written for the model and pass as
// they are.
func notFound(path string, err error) error {
	var te *sdk.ToolError
	if errors.As(err, &te) {
		return err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return sdk.Errorf("%s does not exist; check the name with fs_list or fs_find", path)
	}
	if errors.Is(err, fs.ErrPermission) {
		return sdk.Errorf("%s cannot be accessed: permission denied", path)
	}
	return sdk.Errorf("%s: %v", path, err)
}

// --- fs_read ---

func (f *fsys) read(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	arg := req.String("path", "")
	file, path, err := f.env.OpenArg(arg)
	if err != nil {
		return nil, notFound(arg, err)
	}
	defer file.Close()
	return ReadOpened(file, arg, path, req)
}

// ReadOpened answers fs_read from file, already opened by the caller
// through checked handles: arg is the path as the model gave it, path the
// one shown in the header. Wrasse's core uses it to read a file the
// person attached to the conversation (outside the granted folders, so
// not through this plugin), so that the model reads it as it reads any
// other file.
func ReadOpened(file *os.File, arg, path string, req *sdk.Request) (*sdk.Result, error) {
	info, err := file.Stat()
	if err != nil {
		return nil, notFound(arg, err)
	}
	if info.IsDir() {
		return nil, sdk.Errorf("%s is a folder; use fs_list to see its contents", arg)
	}
	if info.Size() > maxReadFile {
		return nil, sdk.Errorf("%s is %d bytes, too large to read whole (limit %d); use fs_grep to find the part you need or shell tools such as head/sed", arg, info.Size(), maxReadFile)
	}
	data, err := readAll(file, maxReadFile)
	if err != nil {
		return nil, notFound(arg, err)
	}
	if isBinary(data) {
		return nil, sdk.Errorf("%s is a binary file (%d bytes); it cannot be shown as text", arg, len(data))
	}
	text := string(data)
	if text == "" {
		return sdk.Textf("%s is empty (0 lines)", path), nil
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	total := len(lines)
	start := req.Int("start_line", 1)
	end := req.Int("end_line", total)
	if start < 1 {
		start = 1
	}
	if end > total || end < 1 {
		end = total
	}
	if start > total {
		return nil, sdk.Errorf("start_line %d is past the end: %s has %d lines", start, arg, total)
	}
	if end < start {
		return nil, sdk.Errorf("end_line %d is before start_line %d", end, start)
	}
	numbers := req.Bool("line_numbers", true)
	var b strings.Builder
	shown := start - 1
	for i := start - 1; i < end; i++ {
		if i-start+1 >= maxReadLines || b.Len() >= maxReadOutput {
			break
		}
		line := strings.TrimSuffix(lines[i], "\r")
		if numbers {
			b.WriteString(strconv.Itoa(i + 1))
			b.WriteString("\t")
		}
		b.WriteString(line)
		b.WriteString("\n")
		shown = i + 1
	}
	header := fmt.Sprintf("%s (%d lines", path, total)
	if start > 1 || shown < total {
		header += fmt.Sprintf(", showing %d-%d", start, shown)
	}
	header += ")\n"
	footer := ""
	if shown < end {
		footer = fmt.Sprintf("[... stopped at line %d to keep the output small; call fs_read again with start_line %d ...]\n", shown, shown+1)
	}
	return sdk.Text(header + b.String() + footer), nil
}

// --- fs_write / fs_patch ---

// readAll reads an open file, at most limit bytes (a file that grew since
// its size was checked is cut there).
func readAll(file *os.File, limit int64) ([]byte, error) {
	return io.ReadAll(io.LimitReader(file, limit))
}

// writeFile replaces the file arg names with data: through the folder
// that holds it (made first when createDirs), into a temporary file renamed
// over the name, so a crash never leaves a half-written file and nothing
// is truncated. An existing file's permissions are kept.
func (f *fsys) writeFile(arg string, data []byte, createDirs bool) error {
	dir, name, err := f.env.ParentArg(arg, createDirs)
	if err != nil {
		return err
	}
	defer dir.Close()
	return dir.WriteFile(name, data, 0o644)
}

func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

func (f *fsys) write(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	arg := req.String("path", "")
	if strings.TrimSpace(arg) == "" {
		return nil, sdk.Errorf("path is empty: pass the file to write")
	}
	content := req.String("content", "")
	if len(content) > maxWrite {
		return nil, sdk.Errorf("content is %d bytes; the limit is %d", len(content), maxWrite)
	}
	// A first look for the messages; the write checks again on what it opens.
	verb := "created"
	info, path, err := f.env.CheckArg(arg, true)
	dir := filepath.Dir(path)
	switch {
	case err == nil && info.IsDir():
		return nil, sdk.Errorf("%s is a folder; pass a file path", arg)
	case err == nil:
		verb = "replaced"
	case path == "":
		return nil, notFound(arg, err)
	}
	if dinfo, _, err := f.env.CheckArg(dir, false); err == nil && !dinfo.IsDir() {
		return nil, sdk.Errorf("%s is a file, not a folder; choose another path", dir)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(arg, err)
	}
	if err := f.writeFile(arg, []byte(content), req.Bool("create_dirs", true)); err != nil {
		var te *sdk.ToolError
		switch {
		case errors.As(err, &te):
			return nil, err
		case errors.Is(err, fs.ErrNotExist):
			return nil, sdk.Errorf("folder %s does not exist; pass create_dirs: true to create it", dir)
		}
		return nil, sdk.Errorf("cannot write %s: %v", arg, err)
	}
	return sdk.Textf("%s %s (%d bytes, %d lines)", verb, path, len(content), countLines(content)), nil
}

func (f *fsys) patch(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	arg := req.String("path", "")
	info, path, err := f.env.CheckArg(arg, true)
	if err != nil {
		return nil, notFound(arg, err)
	}
	search := req.String("search", "")
	replace := req.String("replace", "")
	if search == "" {
		return nil, sdk.Errorf("search is empty: pass the exact text to replace, copied from fs_read output (without line numbers)")
	}
	if info.IsDir() || info.Size() > maxReadFile {
		return nil, sdk.Errorf("%s is a folder or too large to patch", arg)
	}
	// Read and write through one handle of the folder that holds the file.
	dir, name, err := f.env.ParentArg(arg, false)
	if err != nil {
		return nil, notFound(arg, err)
	}
	defer dir.Close()
	file, err := dir.Open(name)
	if err != nil {
		return nil, notFound(arg, err)
	}
	data, err := readAll(file, maxReadFile)
	file.Close()
	if err != nil {
		return nil, notFound(arg, err)
	}
	text := string(data)
	// Files with CRLF endings: match and replace with CRLF too.
	if strings.Contains(text, "\r\n") && !strings.Contains(search, "\r\n") {
		search = strings.ReplaceAll(search, "\n", "\r\n")
		replace = strings.ReplaceAll(replace, "\n", "\r\n")
	}
	n := strings.Count(text, search)
	all := req.Bool("all", false)
	switch {
	case n == 0:
		hint := "read the file again with fs_read and copy the text exactly, including indentation and blank lines"
		if strings.Contains(text, strings.TrimSpace(search)) {
			hint = "the text exists but its surrounding whitespace differs; " + hint
		}
		return nil, sdk.Errorf("search text not found in %s; %s", arg, hint)
	case n > 1 && !all:
		return nil, sdk.Errorf("search text occurs %d times in %s; include more surrounding lines to make it unique, or pass all: true to replace every occurrence", n, arg)
	}
	line := strings.Count(text[:strings.Index(text, search)], "\n") + 1
	out := strings.Replace(text, search, replace, 1)
	if all {
		out = strings.ReplaceAll(text, search, replace)
	}
	if err := dir.WriteFile(name, []byte(out), 0o644); err != nil {
		return nil, sdk.Errorf("cannot write %s: %v", arg, err)
	}
	if n == 1 {
		return sdk.Textf("patched %s: replaced 1 occurrence at line %d (%d lines now)", path, line, countLines(out)), nil
	}
	return sdk.Textf("patched %s: replaced %d occurrences, the first at line %d (%d lines now)", path, n, line, countLines(out)), nil
}

// --- fs_list / fs_find / fs_grep ---

// skipDir reports folders whose contents are skipped when walking: version
// control internals and dependency caches are rarely what the user means.
func skipDir(name string) bool {
	return name == ".git" || name == "node_modules" || name == ".hg" || name == ".svn"
}

func humanSize(n int64) string {
	switch {
	case n < 1024:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20:
		return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) + " KiB"
	case n < 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
}

// dirArg opens a folder argument.
func (f *fsys) dirArg(arg string) (*sdk.Dir, error) {
	info, _, err := f.env.CheckArg(arg, false)
	if err != nil {
		return nil, notFound(arg, err)
	}
	if !info.IsDir() {
		return nil, sdk.Errorf("%s is a file, not a folder; use fs_read to read it", arg)
	}
	dir, err := f.env.OpenDirArg(arg, false)
	if err != nil {
		return nil, notFound(arg, err)
	}
	return dir, nil
}

func (f *fsys) list(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	dir, err := f.dirArg(req.String("path", "."))
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	root := dir.Path()
	depth := req.Int("depth", 1)
	if depth < 1 {
		depth = 1
	}
	if depth > 5 {
		depth = 5
	}
	hidden := req.Bool("include_hidden", true)
	var b strings.Builder
	count, dirs, files := 0, 0, 0
	truncated := false
	// Protected entries are left out by the walk itself.
	err = dir.Walk(func(e *sdk.Entry) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel := e.Path
		if !hidden && strings.HasPrefix(e.Name, ".") {
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if count >= maxList {
			truncated = true
			return fs.SkipAll
		}
		count++
		level := strings.Count(rel, "/") + 1
		if e.IsDir() {
			dirs++
			b.WriteString(rel + "/\n")
			if level >= depth || skipDir(e.Name) {
				return fs.SkipDir
			}
			return nil
		}
		files++
		if e.Type()&fs.ModeSymlink != 0 {
			target, _ := e.Readlink()
			b.WriteString(rel + " -> " + target + "\n")
		} else {
			b.WriteString(rel + "  " + humanSize(e.Info().Size()) + "\n")
		}
		return nil
	})
	if err != nil {
		return nil, sdk.Errorf("cannot list %s: %v", root, err)
	}
	header := fmt.Sprintf("%s: %d folders, %d files", root, dirs, files)
	if depth > 1 {
		header += fmt.Sprintf(" (depth %d)", depth)
	}
	if count == 0 {
		return sdk.Text(header + "\n(empty folder)"), nil
	}
	out := header + "\n" + b.String()
	if truncated {
		out += fmt.Sprintf("[... stopped after %d entries; list a subfolder or use fs_find with a pattern ...]\n", maxList)
	}
	return sdk.Text(out), nil
}

// globRegexp compiles a glob into a regexp over slash-separated relative
// paths: ** spans folders, * and ? stay within one name, [...] is a class,
// {a,b} an alternation. A pattern without / matches the base name at any
// depth, as in .gitignore.
func globRegexp(glob string) (*regexp.Regexp, error) {
	glob = filepath.ToSlash(strings.TrimPrefix(strings.TrimSpace(glob), "./"))
	if glob == "" {
		return nil, fmt.Errorf("empty pattern")
	}
	var b strings.Builder
	b.WriteString("^")
	if !strings.Contains(glob, "/") {
		b.WriteString("(?:.*/)?")
	}
	inClass, inBrace := false, false
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		if inClass {
			switch c {
			case ']':
				inClass = false
				b.WriteByte(']')
			case '\\':
				b.WriteString(`\\`)
			case '!':
				if glob[i-1] == '[' {
					b.WriteByte('^')
				} else {
					b.WriteByte('!')
				}
			default:
				b.WriteByte(c)
			}
			continue
		}
		switch c {
		case '*':
			if i+1 < len(glob) && glob[i+1] == '*' {
				i++
				if i+1 < len(glob) && glob[i+1] == '/' {
					i++
					b.WriteString("(?:.*/)?")
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			if strings.IndexByte(glob[i+1:], ']') < 0 {
				return nil, fmt.Errorf("unclosed [ in %q", glob)
			}
			inClass = true
			b.WriteByte('[')
		case '{':
			if inBrace {
				return nil, fmt.Errorf("nested { in %q", glob)
			}
			inBrace = true
			b.WriteString("(?:")
		case '}':
			if !inBrace {
				b.WriteString(`\}`)
			} else {
				inBrace = false
				b.WriteString(")")
			}
		case ',':
			if inBrace {
				b.WriteString("|")
			} else {
				b.WriteByte(',')
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	if inBrace {
		return nil, fmt.Errorf("unclosed { in %q", glob)
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

func (f *fsys) find(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	pattern := req.String("pattern", "")
	re, err := globRegexp(pattern)
	if err != nil {
		return nil, sdk.Errorf("pattern %q is not a valid glob (%v); use e.g. **/*.go, *.md or src/**/test_*.py", pattern, err)
	}
	dir, err := f.dirArg(req.String("path", "."))
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	root := dir.Path()
	var out []string
	truncated := false
	err = dir.Walk(func(e *sdk.Entry) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel := e.Path
		if e.IsDir() && skipDir(e.Name) {
			return fs.SkipDir
		}
		if !re.MatchString(rel) {
			return nil
		}
		if len(out) >= maxFind {
			truncated = true
			return fs.SkipAll
		}
		if e.IsDir() {
			rel += "/"
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		return nil, sdk.Errorf("cannot search %s: %v", root, err)
	}
	if len(out) == 0 {
		return sdk.Textf("no match for %s under %s", pattern, root), nil
	}
	text := fmt.Sprintf("%d matches for %s under %s\n%s\n", len(out), pattern, root, strings.Join(out, "\n"))
	if truncated {
		text += fmt.Sprintf("[... stopped after %d matches; narrow the pattern or the folder ...]\n", maxFind)
	}
	return sdk.Text(text), nil
}

func (f *fsys) grep(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	pattern := req.String("pattern", "")
	if pattern == "" {
		return nil, sdk.Errorf("pattern is empty: pass a regular expression, e.g. func\\s+main")
	}
	// (?m): ^ and $ match at line boundaries, as in grep.
	flags := "(?m)"
	if req.Bool("ignore_case", false) {
		flags = "(?mi)"
	}
	re, err := regexp.Compile(flags + pattern)
	if err != nil {
		return nil, sdk.Errorf("pattern is not a valid regular expression (Go RE2 syntax): %v; escape special characters such as ( [ . with a backslash", err)
	}
	var globRe *regexp.Regexp
	if g := req.String("glob", ""); g != "" {
		if globRe, err = globRegexp(g); err != nil {
			return nil, sdk.Errorf("glob %q is not valid (%v); use e.g. *.go or src/**/*.ts", g, err)
		}
	}
	maxResults := req.Int("max_results", 100)
	if maxResults < 1 {
		maxResults = 100
	}
	if maxResults > 1000 {
		maxResults = 1000
	}
	pathArg := req.String("path", ".")
	rootInfo, root, err := f.env.CheckArg(pathArg, false)
	if err != nil {
		return nil, notFound(pathArg, err)
	}
	var b strings.Builder
	matches, filesWithMatch, skippedBinary := 0, 0, 0
	truncated := false
	// search greps one opened file. Protected files (Wrasse's database,
	// settings, logs) are never opened (the SDK refuses them), and binary
	// files are skipped before the pattern sees them: a match count on
	// either would read them out bit by bit.
	search := func(file *os.File, err error, rel string) {
		if err != nil {
			return
		}
		data, err := readAll(file, maxReadFile)
		file.Close()
		if err != nil {
			return
		}
		if isBinary(data) {
			skippedBinary++
			return
		}
		if !re.Match(data) {
			return
		}
		filesWithMatch++
		// One regexp scan per matching line, not per line: the interpreter
		// is slow at loops, the regexp engine is not.
		off, line := 0, 1
		for off <= len(data) {
			loc := re.FindIndex(data[off:])
			if loc == nil {
				return
			}
			start := off + loc[0]
			if start == len(data) && start > 0 && data[start-1] == '\n' {
				return // an empty match after the final newline is no line
			}
			lineStart := bytes.LastIndexByte(data[:start], '\n') + 1
			lineEnd := len(data)
			if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
				lineEnd = start + i
			}
			line += bytes.Count(data[off:lineStart], []byte("\n"))
			if matches >= maxResults {
				truncated = true
				return
			}
			matches++
			text := strings.TrimRight(string(data[lineStart:lineEnd]), "\r")
			if len(text) > maxGrepLine {
				text = text[:maxGrepLine] + " [...]"
			}
			b.WriteString(rel + ":" + strconv.Itoa(line) + ": " + text + "\n")
			off = lineEnd + 1
			line++
		}
	}
	if !rootInfo.IsDir() {
		file, _, err := f.env.OpenArg(pathArg)
		if err != nil {
			return nil, notFound(pathArg, err)
		}
		search(file, nil, filepath.Base(root))
	} else {
		dir, err := f.dirArg(pathArg)
		if err != nil {
			return nil, err
		}
		defer dir.Close()
		err = dir.Walk(func(e *sdk.Entry) error {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if e.IsDir() {
				if skipDir(e.Name) {
					return fs.SkipDir
				}
				return nil
			}
			if truncated {
				return fs.SkipAll
			}
			if !e.Type().IsRegular() {
				return nil
			}
			if globRe != nil && !globRe.MatchString(e.Path) {
				return nil
			}
			if e.Info().Size() > maxGrepFile {
				return nil
			}
			file, err := e.Open()
			search(file, err, e.Path)
			return nil
		})
		if err != nil {
			return nil, sdk.Errorf("cannot search %s: %v", root, err)
		}
	}
	if matches == 0 {
		return sdk.Textf("no match for /%s/ under %s", req.String("pattern", ""), root), nil
	}
	header := fmt.Sprintf("%d matching lines in %d files under %s\n", matches, filesWithMatch, root)
	out := header + b.String()
	if truncated {
		out += fmt.Sprintf("[... stopped at %d results; narrow the pattern, path or glob, or raise max_results (max 1000) ...]\n", maxResults)
	}
	if skippedBinary > 0 {
		out += fmt.Sprintf("(%d binary files were not searched)\n", skippedBinary)
	}
	return sdk.Text(out), nil
}
