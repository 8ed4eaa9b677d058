package mcpbundle

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// Answers are the person's values for user_config, by key: one value,
// or several for an option with multiple set. A key left out takes the
// option's default.
type Answers map[string][]string

// Folders are the places ${HOME}, ${DESKTOP}, ${DOCUMENTS} and
// ${DOWNLOADS} stand for.
type Folders struct {
	Home, Desktop, Documents, Downloads string
}

// UserFolders are this person's folders (Desktop, Documents and
// Downloads under the home folder, as the spec's clients take them).
func UserFolders() Folders {
	home, _ := os.UserHomeDir()
	return Folders{Home: home, Desktop: filepath.Join(home, "Desktop"),
		Documents: filepath.Join(home, "Documents"), Downloads: filepath.Join(home, "Downloads")}
}

// Launch is what the installed server runs: relative paths are inside
// the capability folder, its working folder. Env values may reference
// Secrets as ${secret:NAME}; Secrets holds the values to store.
type Launch struct {
	Command string
	Args    []string
	Env     map[string]string
	Secrets map[string]string
}

// Field is one user_config option as a form shows it: in the manifest's
// key order (sorted), with the default already expanded.
type Field struct {
	Key string
	UserOption
	// Defaults are the default values, ${HOME} and the like expanded.
	Defaults []string
}

// Fields lists the options to ask, sorted by key (JSON objects have no
// order Go keeps).
func (b *Bundle) Fields(dirs Folders) []Field {
	var out []Field
	for _, k := range sortedKeys(b.Manifest.UserConfig) {
		o := b.Manifest.UserConfig[k]
		defs, _ := o.defaultValues()
		for i := range defs {
			defs[i] = dirs.expand(defs[i])
		}
		out = append(out, Field{Key: k, UserOption: o, Defaults: defs})
	}
	return out
}

// Plan checks answers against user_config and substitutes them into the
// server's command line and environment for this system. Every problem
// with the answers is reported together.
func (b *Bundle) Plan(answers Answers, dirs Folders) (*Launch, error) {
	m := b.Manifest
	cfg := m.Server.MCPConfig
	if o, ok := cfg.PlatformOverrides[platformOf(runtime.GOOS)]; ok {
		if o.Command != "" {
			cfg.Command = o.Command
		}
		if o.Args != nil {
			cfg.Args = o.Args
		}
		if len(o.Env) > 0 {
			env := map[string]string{}
			for k, v := range cfg.Env {
				env[k] = v
			}
			for k, v := range o.Env {
				env[k] = v
			}
			cfg.Env = env
		}
	}
	for k := range answers {
		if _, ok := m.UserConfig[k]; !ok {
			return nil, fmt.Errorf("%w: %s is not a setting of %s", ErrAnswer, k, m.Name)
		}
	}
	values := map[string][]string{}
	var probs []string
	for _, f := range b.Fields(dirs) {
		vals, given := answers[f.Key]
		if !given {
			vals = f.Defaults
		}
		vals = slices.DeleteFunc(slices.Clone(vals), func(s string) bool { return strings.TrimSpace(s) == "" })
		if err := f.check(vals, dirs); err != nil {
			probs = append(probs, fmt.Sprintf("%s (%s): %v", f.Title, f.Key, err))
			continue
		}
		values[f.Key] = vals
	}
	if len(probs) > 0 {
		return nil, fmt.Errorf("%w:\n%s", ErrAnswer, strings.Join(probs, "\n"))
	}

	l := &Launch{Env: map[string]string{}, Secrets: map[string]string{}}
	sub := func(v string) string {
		return userConfigRef.ReplaceAllStringFunc(dirs.expandDir(v), func(ref string) string {
			return strings.Join(values[userConfigRef.FindStringSubmatch(ref)[1]], ",")
		})
	}
	// A sensitive value reaches the server through its environment only.
	for _, v := range append([]string{cfg.Command}, cfg.Args...) {
		for _, ref := range userConfigRef.FindAllStringSubmatch(v, -1) {
			if m.UserConfig[ref[1]].Sensitive {
				return nil, fmt.Errorf("%w: the sensitive setting %s reaches the server on its command line, which every program on this computer can read; Wrasse passes secrets through the environment only",
					ErrUnsupported, ref[1])
			}
		}
	}
	switch {
	case strings.TrimSpace(cfg.Command) != "":
		l.Command = sub(cfg.Command)
	case m.Server.Type == "node":
		l.Command, cfg.Args = "node", append([]string{m.Server.EntryPoint}, cfg.Args...)
	case m.Server.Type == "python":
		l.Command, cfg.Args = "python3", append([]string{m.Server.EntryPoint}, cfg.Args...)
	default:
		l.Command = m.Server.EntryPoint
	}
	if m.Server.Type == "binary" && !filepath.IsAbs(l.Command) && strings.Contains(l.Command, "/") && !strings.HasPrefix(l.Command, "./") {
		// A program inside the folder, not one found on PATH.
		l.Command = "./" + l.Command
	}
	for _, a := range cfg.Args {
		// An argument that is exactly a multiple setting becomes one
		// argument per value, as the spec says.
		if ref := userConfigRef.FindStringSubmatch(a); ref != nil && ref[0] == a && m.UserConfig[ref[1]].Multiple {
			l.Args = append(l.Args, values[ref[1]]...)
			continue
		}
		l.Args = append(l.Args, sub(a))
	}
	for _, k := range sortedKeys(cfg.Env) {
		if !skillmd.ValidEnvName(k) {
			return nil, fmt.Errorf("%w: server.mcp_config.env: %q cannot name an environment variable", ErrManifest, k)
		}
		v := cfg.Env[k]
		dropped := false
		v = userConfigRef.ReplaceAllStringFunc(dirs.expandDir(v), func(ref string) string {
			key := userConfigRef.FindStringSubmatch(ref)[1]
			vals := values[key]
			if !m.UserConfig[key].Sensitive {
				return strings.Join(vals, ",")
			}
			if len(vals) == 0 {
				dropped = true
				return ""
			}
			name := SecretName(b.Name, key)
			l.Secrets[name] = vals[0]
			return "${secret:" + name + "}"
		})
		if dropped {
			continue // an optional secret not given: the variable is not set at all
		}
		l.Env[k] = v
	}
	return l, nil
}

// check validates the values of one option.
func (f Field) check(vals []string, dirs Folders) error {
	if len(vals) == 0 {
		if f.Required {
			return fmt.Errorf("required")
		}
		return nil
	}
	if len(vals) > 1 && !f.Multiple {
		return fmt.Errorf("takes one value, not %d", len(vals))
	}
	for _, v := range vals {
		if strings.ContainsRune(v, 0) || len(v) > maxValueBytes {
			return fmt.Errorf("a value holds a NUL character or is over %d bytes", maxValueBytes)
		}
		switch f.Type {
		case TypeNumber:
			n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return fmt.Errorf("%q is not a number", v)
			}
			if err := f.inRange(n); err != nil {
				return err
			}
		case TypeBoolean:
			if v != "true" && v != "false" {
				return fmt.Errorf("%q is not true or false", v)
			}
		case TypeDirectory, TypeFile:
			p := dirs.expand(v)
			if !filepath.IsAbs(p) {
				return fmt.Errorf("%q is not an absolute path", v)
			}
			fi, err := os.Stat(p)
			if err != nil {
				return fmt.Errorf("%q: %w", v, err)
			}
			if fi.IsDir() != (f.Type == TypeDirectory) {
				return fmt.Errorf("%q is not a %s", v, f.Type)
			}
		}
	}
	return nil
}

// expand substitutes the user's folders in a value.
func (d Folders) expand(v string) string {
	return strings.NewReplacer("${HOME}", d.Home, "${DESKTOP}", d.Desktop, "${DOCUMENTS}", d.Documents,
		"${DOWNLOADS}", d.Downloads, "${pathSeparator}", string(filepath.Separator), "${/}", string(filepath.Separator)).Replace(v)
}

// expandDir is expand plus ${__dirname}, the capability folder, which is
// the server's working folder: a path inside it becomes relative.
func (d Folders) expandDir(v string) string {
	v = strings.ReplaceAll(v, "${__dirname}/", "")
	v = strings.ReplaceAll(v, "${__dirname}"+string(filepath.Separator), "")
	v = strings.ReplaceAll(v, "${__dirname}", ".")
	return d.expand(v)
}

// SecretName names the secret holding a bundle's sensitive setting:
// mcp.<capability>.<key>, shortened with a hash to fit.
func SecretName(capability, key string) string {
	name := "mcp." + capability + "." + key
	if len(name) > store.MaxNameLen {
		sum := sha256.Sum256([]byte(name))
		name = name[:store.MaxNameLen-9] + "." + hex.EncodeToString(sum[:4])
	}
	return name
}

// SkillMD is the capability's SKILL.md for a launch: the manifest's
// description, and an mcp: block. It is parsed back, so a block this
// build's SKILL.md would not keep is refused rather than lost.
func (b *Bundle) SkillMD(l *Launch) ([]byte, error) {
	type block struct {
		Command string            `yaml:"command"`
		Args    []string          `yaml:"args,omitempty,flow"`
		Env     map[string]string `yaml:"env,omitempty"`
	}
	type front struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
		MCP         block  `yaml:"mcp"`
	}
	m := b.Manifest
	desc := strings.Join(strings.Fields(m.Description), " ")
	if len(desc) > skillmd.MaxDescriptionLength {
		desc = strings.ToValidUTF8(desc[:skillmd.MaxDescriptionLength-3], "") + "..."
	}
	env := l.Env
	if len(env) == 0 {
		env = nil
	}
	fm, err := yaml.Marshal(front{Name: b.Name, Description: desc, MCP: block{Command: l.Command, Args: l.Args, Env: env}})
	if err != nil {
		return nil, fmt.Errorf("write SKILL.md for %s: %w", b.Name, err)
	}
	title := m.DisplayName
	if title == "" {
		title = m.Name
	}
	var body strings.Builder
	fmt.Fprintf(&body, "# %s\n\nAn MCP server installed from the bundle %s version %s by %s. Its tools come from the server's own list when it connects.\n",
		oneLine(title), oneLine(m.Name), oneLine(m.Version), oneLine(m.Author.Name))
	if len(m.Tools) > 0 {
		body.WriteString("\nThe bundle says it offers:\n\n")
		for _, t := range m.Tools {
			fmt.Fprintf(&body, "- %s: %s\n", oneLine(t.Name), oneLine(t.Description))
		}
	}
	data := []byte("---\n" + string(fm) + "---\n" + body.String())
	parsed, err := skillmd.Parse(data, skillmd.Options{File: "SKILL.md", Folder: b.Name})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	for _, w := range parsed.Warnings {
		if strings.HasPrefix(w.Field, "mcp.") {
			return nil, fmt.Errorf("%w: this build cannot keep %s (%s)", ErrUnsupported, w.Field, w.Message)
		}
	}
	if probs := parsed.MCP.SecretPlaceProblems(); len(probs) > 0 {
		return nil, fmt.Errorf("%w: %s: %s", ErrUnsupported, probs[0].Field, probs[0].Message)
	}
	return data, nil
}

// oneLine keeps manifest text from breaking the Markdown body's lines.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}
