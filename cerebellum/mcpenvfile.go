package cerebellum

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// maxEnvFile bounds what is read of an environment file.
const maxEnvFile = 1 << 20

// envFileFlags name an environment file whose variables the command
// runs with (node --env-file, uv run --env-file, deno, bun).
var envFileFlags = []string{"--env-file", "--env-file-if-exists"}

// envVar is one KEY=VALUE an environment file sets.
type envVar struct{ key, value string }

// envFilesOf are the environment files s's command line names, absolute
// when cwd is given: a flag's (node --env-file=.env, uv run --env-file
// F), an env wrapper's (dotenv -e F) and uv's UV_ENV_FILE in the block's
// env. cwd is the working folder after any wrapper's (envFilesOf takes
// dotenv's own relative to the block's).
func envFilesOf(s *skillmd.MCPServer, blockCwd string) []string {
	abs := func(p, dir string) string {
		if strings.HasPrefix(p, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				return filepath.Join(home, p[2:])
			}
		}
		if !filepath.IsAbs(p) && dir != "" {
			return filepath.Join(dir, p)
		}
		return p
	}
	u, _ := unwrap(s.Command, s.Args, blockCwd)
	cwd := blockCwd
	if len(u.dirs) > 0 {
		cwd = u.dirs[len(u.dirs)-1]
	}
	var out []string
	for _, f := range u.files {
		out = append(out, abs(f, blockCwd))
	}
	if base := strings.ToLower(filepath.Base(s.Command)); (base == "dotenv" || base == "dotenv-cli") && len(u.files) == 0 {
		// dotenv-cli reads ./.env when no -e names a file, and with -c
		// the cascade .env.ENV.local, .env.local, .env.ENV, .env (a45):
		// each by its path, so one written later changes the approval.
		out = append(out, abs(".env", blockCwd), abs(".env.local", blockCwd))
		for i, a := range s.Args {
			if a == "--" {
				break
			}
			if a == "-c" && i+1 < len(s.Args) && !strings.HasPrefix(s.Args[i+1], "-") {
				out = append(out, abs(".env."+s.Args[i+1]+".local", blockCwd), abs(".env."+s.Args[i+1], blockCwd))
			}
		}
	}
	for i := 0; i < len(u.args); i++ {
		a := u.args[i]
		if a == "--" {
			break
		}
		flag, value, hasValue := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "--") || !slices.Contains(envFileFlags, flag) {
			continue
		}
		if !hasValue {
			if i+1 >= len(u.args) {
				break
			}
			i++
			value = u.args[i]
		}
		if value != "" {
			out = append(out, abs(value, cwd))
		}
	}
	env := withSettings(s.Env, s.Command, s.Args, blockCwd)
	if f := env["UV_ENV_FILE"]; f != "" {
		for _, p := range strings.Fields(f) {
			out = append(out, abs(p, cwd))
		}
	}
	return out
}

// envFileVars are the variables the environment files s names set (a43):
// node applies NODE_OPTIONS from its --env-file, uv puts a file's
// PYTHONPATH in python's environment, so they count as the block's own
// code variables. A file that cannot be read sets none (it is hashed as
// unreadable).
func envFileVars(s *skillmd.MCPServer, cwd string) []envVar {
	var out []envVar
	for _, p := range envFilesOf(s, cwd) {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			f.Close()
			continue
		}
		data, _ := io.ReadAll(io.LimitReader(f, maxEnvFile))
		f.Close()
		out = append(out, envFileCandidates(string(data))...)
	}
	return out
}

// envFileCandidates are every variable some runtime's parser may read
// in an environment file: the quoted reading (parseEnvFile) and each
// line read alone, lines split at \r\n, \r or \n, a byte-order mark
// dropped. The runtimes differ (node takes an unclosed quote to its
// line's end and knows no escapes, dotenv-cli breaks lines at a lone \r
// and skips a BOM: a45), so a line one parser hides in a quoted value
// another reads as a variable; taking both only adds code to hash.
func envFileCandidates(src string) []envVar {
	src = strings.TrimPrefix(src, "\ufeff")
	out := parseEnvFile(src)
	for _, line := range strings.FieldsFunc(src, func(r rune) bool { return r == '\n' || r == '\r' }) {
		out = append(out, parseEnvFile(strings.TrimPrefix(line, "\ufeff"))...)
	}
	return out
}

// parseEnvFile reads an environment file as node's, dotenv's and uv's
// parsers do, broadly (a value counts as a candidate, no more): lines of
// KEY=VALUE (or dotenv's KEY: VALUE), an optional "export ", '#'
// comments, values in single, double or back quotes over several lines
// (a double-quoted one with \n expanded), and an unquoted value up to
// the line's end, given too without what follows a '#'. A key set twice
// gives each value.
func parseEnvFile(src string) []envVar {
	var out []envVar
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimLeft(lines[i], " \t")
		if line == "" || line[0] == '#' {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			line = strings.TrimLeft(rest, " \t")
		}
		sep := strings.IndexAny(line, "=:")
		if sep <= 0 {
			continue
		}
		key := strings.TrimSpace(line[:sep])
		if key == "" || strings.ContainsAny(key, " \t\"'`#") {
			continue
		}
		value := strings.TrimLeft(line[sep+1:], " \t")
		if value != "" && strings.ContainsRune("\"'`", rune(value[0])) {
			q := value[0]
			body := value[1:]
			// The closing quote may lie on a later line.
			j := i
			for {
				if end := closingQuote(body, q); end >= 0 {
					body = body[:end]
					break
				}
				if j+1 >= len(lines) {
					break // unclosed: the rest as written
				}
				j++
				body += "\n" + lines[j]
			}
			i = j
			if q == '"' {
				out = append(out, envVar{key, body})
				body = strings.NewReplacer(`\n`, "\n", `\r`, "\r", `\t`, "\t", `\"`, `"`, `\\`, `\`).Replace(body)
			}
			out = append(out, envVar{key, body})
			continue
		}
		value = strings.TrimRight(value, " \t")
		out = append(out, envVar{key, value})
		if c := strings.IndexByte(value, '#'); c >= 0 {
			out = append(out, envVar{key, strings.TrimRight(value[:c], " \t")})
		}
	}
	return out
}

// closingQuote is the index in body of the quote q that closes it (one
// not escaped by a backslash in a double-quoted value), -1 when none.
func closingQuote(body string, q byte) int {
	for k := 0; k < len(body); k++ {
		switch {
		case body[k] == '\\' && q == '"' && k+1 < len(body):
			k++
		case body[k] == q:
			return k
		}
	}
	return -1
}
