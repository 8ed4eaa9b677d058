package mcpbundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Manifest is the part of manifest.json Wrasse uses. Unknown fields are
// ignored, as the spec allows clients to.
type Manifest struct {
	ManifestVersion string `json:"manifest_version"`
	// DXTVersion is manifest_version's name in .dxt bundles.
	DXTVersion    string                `json:"dxt_version"`
	Name          string                `json:"name"`
	DisplayName   string                `json:"display_name"`
	Version       string                `json:"version"`
	Description   string                `json:"description"`
	Author        Author                `json:"author"`
	Server        Server                `json:"server"`
	UserConfig    map[string]UserOption `json:"user_config"`
	Compatibility *Compatibility        `json:"compatibility"`
	Tools         []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"tools"`
}

// Author is manifest.author.
type Author struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	URL   string `json:"url"`
}

// Server is manifest.server.
type Server struct {
	Type       string    `json:"type"`
	EntryPoint string    `json:"entry_point"`
	MCPConfig  MCPConfig `json:"mcp_config"`
}

// MCPConfig is how the server is run, before substitution.
type MCPConfig struct {
	Command           string               `json:"command"`
	Args              []string             `json:"args"`
	Env               map[string]string    `json:"env"`
	PlatformOverrides map[string]MCPConfig `json:"platform_overrides"`
}

// UserOption is one user_config entry.
type UserOption struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Required    bool            `json:"required"`
	Default     json.RawMessage `json:"default"`
	Sensitive   bool            `json:"sensitive"`
	Multiple    bool            `json:"multiple"`
	Min         *float64        `json:"min"`
	Max         *float64        `json:"max"`
}

// Compatibility is manifest.compatibility (client versions are not ours
// to check).
type Compatibility struct {
	Platforms []string          `json:"platforms"`
	Runtimes  map[string]string `json:"runtimes"`
}

// Option types of user_config.
const (
	TypeString    = "string"
	TypeNumber    = "number"
	TypeBoolean   = "boolean"
	TypeDirectory = "directory"
	TypeFile      = "file"
)

// Limits on what a manifest may hold, so a hostile one cannot make the
// form or the folder unbounded.
const (
	MaxManifestBytes = 1 << 20
	maxOptions       = 64
	maxArgs          = 256
	maxValueBytes    = 8 << 10
)

var (
	userConfigRef = regexp.MustCompile(`\$\{user_config\.([^}]*)\}`)
	optionKey     = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)
)

// Problem is one thing wrong with a manifest.
type Problem struct {
	Field   string
	Message string
}

func (p Problem) String() string { return p.Field + ": " + p.Message }

// ManifestError lists every problem of a manifest, each on its own line.
type ManifestError struct {
	Problems []Problem
}

func (e *ManifestError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return fmt.Sprintf("%s:\n%s", ErrManifest, strings.Join(lines, "\n"))
}

func (e *ManifestError) Unwrap() error { return ErrManifest }

// ParseManifest decodes and validates manifest.json. files, when not nil,
// are the archive's files (slash paths) so that the entry point is checked
// to be there; goos is the system the server would run on (runtime.GOOS).
func ParseManifest(data []byte, files map[string]bool, goos string) (*Manifest, error) {
	if len(data) > MaxManifestBytes {
		return nil, fmt.Errorf("%w: manifest.json is %d bytes, over %d", ErrTooLarge, len(data), MaxManifestBytes)
	}
	if !utf8.Valid(data) {
		return nil, &ManifestError{[]Problem{{"manifest.json", "not UTF-8 text"}}}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, &ManifestError{[]Problem{{"manifest.json", "not valid JSON: " + err.Error()}}}
	}
	var probs []Problem
	bad := func(field, format string, args ...any) {
		probs = append(probs, Problem{field, fmt.Sprintf(format, args...)})
	}
	version := m.ManifestVersion
	if version == "" {
		version = m.DXTVersion
	}
	switch version {
	case "0.1", "0.2", "0.3":
	case "":
		bad("manifest_version", "missing (this reader knows 0.1 to 0.3)")
	default:
		bad("manifest_version", "%q is not a version this reader knows (0.1 to 0.3)", version)
	}
	if strings.TrimSpace(m.Name) == "" {
		bad("name", "missing")
	} else if CapabilityName(m.Name) == "" {
		bad("name", "%q has no letters or digits to name a capability with", m.Name)
	}
	if strings.TrimSpace(m.Version) == "" {
		bad("version", "missing")
	}
	if strings.TrimSpace(m.Description) == "" {
		bad("description", "missing")
	}
	if strings.TrimSpace(m.Author.Name) == "" {
		bad("author.name", "missing")
	}
	switch m.Server.Type {
	case "node", "python", "binary":
	case "":
		bad("server.type", "missing: node, python or binary")
	case "uv":
		return nil, fmt.Errorf("%w: server.type uv (the host installs its Python dependencies) is not supported; ask for a bundle of type python", ErrUnsupported)
	default:
		bad("server.type", "%q is not node, python or binary", m.Server.Type)
	}
	switch ep := m.Server.EntryPoint; {
	case ep == "":
		bad("server.entry_point", "missing")
	case !safeRel(ep):
		bad("server.entry_point", "%q is not a relative path inside the bundle", ep)
	case files != nil && !files[path.Clean(ep)]:
		bad("server.entry_point", "%q is not in the bundle", ep)
	}
	checkConfig := func(field string, c MCPConfig, top bool) {
		if top && strings.TrimSpace(c.Command) == "" {
			bad(field+".command", "missing")
		}
		if len(c.Args) > maxArgs {
			bad(field+".args", "%d arguments, over %d", len(c.Args), maxArgs)
		}
		for _, v := range append(append([]string{c.Command}, c.Args...), slices.Collect(mapValues(c.Env))...) {
			if strings.ContainsRune(v, 0) || len(v) > maxValueBytes {
				bad(field, "a value holds a NUL character or is over %d bytes", maxValueBytes)
				break
			}
		}
		for _, ref := range refsOf(c) {
			if _, ok := m.UserConfig[ref]; !ok {
				bad(field, "${user_config.%s} is used but user_config does not declare %s", ref, ref)
			}
		}
	}
	checkConfig("server.mcp_config", m.Server.MCPConfig, true)
	for _, p := range sortedKeys(m.Server.MCPConfig.PlatformOverrides) {
		if len(m.Server.MCPConfig.PlatformOverrides[p].PlatformOverrides) > 0 {
			bad("server.mcp_config.platform_overrides."+p, "overrides cannot nest")
		}
		checkConfig("server.mcp_config.platform_overrides."+p, m.Server.MCPConfig.PlatformOverrides[p], false)
	}
	if len(m.UserConfig) > maxOptions {
		bad("user_config", "%d entries, over %d", len(m.UserConfig), maxOptions)
	}
	for _, k := range sortedKeys(m.UserConfig) {
		for _, p := range m.UserConfig[k].check() {
			bad("user_config."+k+p.Field, "%s", p.Message)
		}
		if !optionKey.MatchString(k) {
			bad("user_config."+k, "the key must be 1-64 letters, digits, '_', '.' or '-'")
		}
	}
	if c := m.Compatibility; c != nil && len(c.Platforms) > 0 && goos != "" && !slices.Contains(c.Platforms, platformOf(goos)) {
		return nil, fmt.Errorf("%w: it runs on %s only (compatibility.platforms), not on %s", ErrUnsupported, strings.Join(c.Platforms, ", "), platformOf(goos))
	}
	if len(probs) > 0 {
		return nil, &ManifestError{probs}
	}
	return &m, nil
}

// check validates one user_config entry; fields are relative (".type").
func (o UserOption) check() []Problem {
	var probs []Problem
	bad := func(field, format string, args ...any) {
		probs = append(probs, Problem{field, fmt.Sprintf(format, args...)})
	}
	switch o.Type {
	case TypeString, TypeNumber, TypeBoolean, TypeDirectory, TypeFile:
	case "":
		bad(".type", "missing: string, number, boolean, directory or file")
		return probs
	default:
		bad(".type", "%q is not string, number, boolean, directory or file", o.Type)
		return probs
	}
	if strings.TrimSpace(o.Title) == "" {
		bad(".title", "missing")
	}
	if o.Sensitive && o.Type != TypeString {
		bad(".sensitive", "only a string can be sensitive")
	}
	if o.Multiple && o.Type != TypeDirectory && o.Type != TypeFile {
		bad(".multiple", "only directory and file take several values")
	}
	if (o.Min != nil || o.Max != nil) && o.Type != TypeNumber {
		bad(".min", "min and max are for numbers")
	}
	if o.Min != nil && o.Max != nil && *o.Min > *o.Max {
		bad(".min", "min %v is over max %v", *o.Min, *o.Max)
	}
	if len(o.Default) > 0 && string(o.Default) != "null" {
		if _, err := o.defaultValues(); err != nil {
			bad(".default", "%v", err)
		}
	}
	return probs
}

// defaultValues is the default as text values (several for multiple),
// before ${HOME} and the like are expanded; nil when there is none.
func (o UserOption) defaultValues() ([]string, error) {
	if len(o.Default) == 0 || string(o.Default) == "null" {
		return nil, nil
	}
	switch o.Type {
	case TypeNumber:
		var f float64
		if err := json.Unmarshal(o.Default, &f); err != nil {
			return nil, fmt.Errorf("%s is not a number", o.Default)
		}
		if err := o.inRange(f); err != nil {
			return nil, err
		}
		return []string{formatNumber(f)}, nil
	case TypeBoolean:
		var b bool
		if err := json.Unmarshal(o.Default, &b); err != nil {
			return nil, fmt.Errorf("%s is not true or false", o.Default)
		}
		return []string{fmt.Sprint(b)}, nil
	}
	var s string
	if err := json.Unmarshal(o.Default, &s); err == nil {
		return []string{s}, nil
	}
	var list []string
	if err := json.Unmarshal(o.Default, &list); err != nil || !o.Multiple {
		return nil, fmt.Errorf("%s is not a text value", o.Default)
	}
	return list, nil
}

func (o UserOption) inRange(f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("%v is not a number", f)
	}
	if o.Min != nil && f < *o.Min {
		return fmt.Errorf("%v is under the minimum %v", formatNumber(f), formatNumber(*o.Min))
	}
	if o.Max != nil && f > *o.Max {
		return fmt.Errorf("%v is over the maximum %v", formatNumber(f), formatNumber(*o.Max))
	}
	return nil
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// CapabilityName turns a bundle's name (which may hold capitals and
// spaces: "My MCP Extension") into a capability name (my-mcp-extension):
// lowercase letters and digits, runs of anything else one hyphen, at most
// 64 characters. "" when nothing is left.
func CapabilityName(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
			continue
		}
		hyphen = true
	}
	s := b.String()
	if len(s) > 64 {
		s = strings.TrimRight(s[:64], "-")
	}
	return s
}

// safeRel reports whether p is a relative slash path that stays inside.
func safeRel(p string) bool {
	if p == "" || strings.ContainsAny(p, "\\\x00") || path.IsAbs(p) || len(p) > 1 && p[1] == ':' {
		return false
	}
	c := path.Clean(p)
	return c != "." && c != ".." && !strings.HasPrefix(c, "../")
}

// refsOf lists the user_config keys a config references, sorted.
func refsOf(c MCPConfig) []string {
	var refs []string
	for _, v := range append(append([]string{c.Command}, c.Args...), slices.Collect(mapValues(c.Env))...) {
		for _, m := range userConfigRef.FindAllStringSubmatch(v, -1) {
			refs = append(refs, m[1])
		}
	}
	slices.Sort(refs)
	return slices.Compact(refs)
}

// platformOf is Node's process.platform for a GOOS.
func platformOf(goos string) string {
	if goos == "windows" {
		return "win32"
	}
	return goos
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func mapValues(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, k := range sortedKeys(m) {
			if !yield(m[k]) {
				return
			}
		}
	}
}
