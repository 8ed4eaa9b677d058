package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/adrg/xdg"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
)

// EnvHome overrides the workspace location.
const EnvHome = "WRASSE_HOME"

// Sentinel errors.
var (
	// ErrBadConfig marks a config.json that cannot be read.
	ErrBadConfig = errors.New("invalid config.json")
	// ErrUnknownKey marks a config key Wrasse does not know.
	ErrUnknownKey = errors.New("unknown config key")
	// ErrBadValue marks a config value that is not valid for its key.
	ErrBadValue = errors.New("invalid config value")
)

// Workspace is the set of paths of one workspace.
type Workspace struct {
	Root string
}

// Resolve picks the workspace root: flag, then $WRASSE_HOME, then the
// user's data folder.
func Resolve(flag string, getenv func(string) string) (Workspace, error) {
	root := flag
	if root == "" && getenv != nil {
		root = getenv(EnvHome)
	}
	if root == "" {
		root = filepath.Join(xdg.DataHome, "wrasse")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return Workspace{}, fmt.Errorf("workspace path %q: %w", root, err)
	}
	return Workspace{Root: abs}, nil
}

// Capabilities is the folder of the user's capabilities. The capability
// engine names it, and the staging and trash folders below, so that the
// layout is written down once.
func (w Workspace) Capabilities() string { return cerebellum.CapabilitiesDir(w.Root) }

// Database is the workspace database file.
func (w Workspace) Database() string { return filepath.Join(w.Root, "wrasse.db") }

// Config is config.json.
func (w Workspace) Config() string { return filepath.Join(w.Root, "config.json") }

// Identity is the editable identity prompt.
func (w Workspace) Identity() string { return filepath.Join(w.Root, "brain", "identity.md") }

// Log is the log file.
func (w Workspace) Log() string { return filepath.Join(w.Root, "logs", "wrasse.log") }

// Staging is where installs are prepared before they move into place.
func (w Workspace) Staging() string { return cerebellum.StagingDir(w.Root) }

// ManifestCache remembers parsed SKILL.md files to speed up start-up.
func (w Workspace) ManifestCache() string { return filepath.Join(w.Root, ".cache", "manifests.json") }

// CheckCache remembers plugin check verdicts by code and grants.
func (w Workspace) CheckCache() string { return filepath.Join(w.Root, ".cache", "plugin-checks.json") }

// AppliedState remembers the capabilities as of the last Resync.
func (w Workspace) AppliedState() string { return filepath.Join(w.Root, ".cache", "applied.json") }

// Backups holds the database's automatic backups and the databases
// wrasse doctor set aside; inside .cache, which tools may not touch (the
// files hold secrets).
func (w Workspace) Backups() string { return filepath.Join(w.Root, ".cache", "backups") }

// Trash holds removed capabilities for a while.
func (w Workspace) Trash() string { return cerebellum.TrashDir(w.Root) }

// Ensure creates the workspace folders (private to the user) and the
// default identity file when missing.
func (w Workspace) Ensure() error {
	for _, d := range []string{w.Root, w.Capabilities(), filepath.Dir(w.Log())} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("create workspace folder %s: %w", d, err)
		}
	}
	if _, err := os.Stat(w.Identity()); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(w.Identity(), []byte(DefaultIdentity), 0o600); err != nil {
			return fmt.Errorf("write %s: %w", w.Identity(), err)
		}
	}
	return nil
}

// DefaultIdentity is the identity prompt a new workspace starts with.
const DefaultIdentity = `You are Wrasse, a helpful desktop assistant running on the user's computer.
Be direct and accurate. Use your tools to act rather than guessing; say what you did and what you found.
Ask before anything destructive or hard to undo. Never reveal secrets or API keys.
`

// OpenLog opens the workspace log file for a slog text handler at level,
// rotated by size (logrotate.go).
func (w Workspace) OpenLog(level slog.Level) (*slog.Logger, io.Closer, error) {
	if err := os.MkdirAll(filepath.Dir(w.Log()), 0o700); err != nil {
		return nil, nil, fmt.Errorf("create log folder: %w", err)
	}
	// Open once now so that a log that cannot be written fails here, with
	// its path, rather than on the first record.
	f, err := os.OpenFile(w.Log(), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("open log %s: %w", w.Log(), err)
	}
	f.Close()
	lj := rotatingLog(w.Log())
	return slog.New(slog.NewTextHandler(lj, &slog.HandlerOptions{Level: level})), lj, nil
}

// Config is config.json: non-secret settings. API keys never live here.
type Config struct {
	// Provider is "ollama" (Ollama's own API), "openai" (any
	// OpenAI-compatible server) or "anthropic".
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	BaseURL  string `json:"baseURL,omitempty"`
	// ContextWindow is the model's context size in tokens; 0 learns it
	// from the server.
	ContextWindow int `json:"contextWindow,omitempty"`
	// MaxSteps bounds model requests per turn.
	MaxSteps int `json:"maxSteps,omitempty"`
	// PinnedCapabilities are always loaded, like core ones.
	PinnedCapabilities []string `json:"pinnedCapabilities,omitempty"`
	// AutoResync applies capability changes on disk at once.
	AutoResync bool `json:"autoResync,omitempty"`
	// Folders are the folders file and shell tools may use. None by
	// default: a new workspace grants no folder until the person picks one
	// (CommonFolders are offered), and no key means none, also for a
	// config.json written when the home folder was the default.
	Folders []string `json:"folders,omitempty"`
	// IndexBudget is the capability index budget in tokens.
	IndexBudget int `json:"indexBudget,omitempty"`
	// ToolBudget bounds the tool schemas of a conversation's loaded
	// capabilities, in tokens (default: ToolBudgetShare of ContextWindow).
	ToolBudget int `json:"toolBudget,omitempty"`
	// ImageInput says whether images that tools return are sent to the
	// model: "" (auto: Anthropic models, and OpenAI-compatible models
	// named as vision models such as gpt-4o, llava or qwen2.5vl), "on" or
	// "off" (the model reads a description instead).
	ImageInput string `json:"imageInput,omitempty"`
	// Thinking turns each model's reasoning on or off (thinking.go).
	Thinking Thinking `json:"thinking,omitempty"`
	// ThinkingBudget is the tokens Anthropic's extended thinking may use
	// (budget_tokens); 0 is the provider's default.
	ThinkingBudget int `json:"thinkingBudget,omitempty"`
	// StreamIdleTimeout is how long an answer may stop arriving before
	// the turn ends ("60s", "2m"; "" is DefaultStreamIdleTimeout).
	StreamIdleTimeout string `json:"streamIdleTimeout,omitempty"`
}

// ToolBudgetShare is the default share of the context window (in percent)
// that loaded capabilities' tool schemas may take, counted with the
// index's over-counting estimate (about 15% in real tokens): small local models
// choose tools badly when offered many, and their windows are small.
const ToolBudgetShare = 20

// EffectiveToolBudget is ToolBudget, or the default share of the context window.
func (c Config) EffectiveToolBudget() int {
	if c.ToolBudget > 0 {
		return c.ToolBudget
	}
	w := c.ContextWindow
	if w <= 0 {
		w = DefaultContextWindow
	}
	return w * ToolBudgetShare / 100
}

// Defaults used when config.json leaves a setting out.
const (
	DefaultProvider = "ollama"
	// DefaultBaseURL is the default provider's: a local Ollama's root.
	DefaultBaseURL = "http://localhost:11434"
	// OpenAIDefaultBaseURL is provider openai's default, Ollama's
	// OpenAI-compatible endpoint, as Wrasse used before it spoke Ollama's
	// own API: a config.json naming openai alone keeps working.
	OpenAIDefaultBaseURL = "http://localhost:11434/v1"
	DefaultModel         = "llama3.1"
	// DefaultContextWindow is the window assumed when neither the config
	// nor the server says (WithDefaults leaves ContextWindow 0: learn it).
	DefaultContextWindow     = 32768
	DefaultMaxSteps          = 25
	DefaultStreamIdleTimeout = 60 * time.Second
)

// WithDefaults fills unset settings: with no configuration Wrasse talks to
// a local Ollama server. ContextWindow stays 0 when unset: the window is
// learnt from the server (DefaultContextWindow when it does not say).
func (c Config) WithDefaults() Config {
	if c.Provider == "" {
		c.Provider = ImpliedProvider(c.BaseURL)
	}
	if c.BaseURL == "" {
		switch c.Provider {
		case "ollama":
			c.BaseURL = DefaultBaseURL
		case "openai":
			c.BaseURL = OpenAIDefaultBaseURL
		}
	}
	if c.Model == "" {
		if c.Provider == "anthropic" {
			c.Model = "claude-sonnet-4-5"
		} else {
			c.Model = DefaultModel
		}
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = DefaultMaxSteps
	}
	return c
}

// ImpliedProvider is the provider of a config that names none: ollama,
// unless its base URL names a server on another port than Ollama's 11434,
// which is then spoken to as OpenAI-compatible, as Wrasse did when openai
// was the default (an LM Studio or vLLM base URL keeps working).
func ImpliedProvider(baseURL string) string {
	if strings.TrimSpace(baseURL) == "" {
		return DefaultProvider
	}
	if u, err := url.Parse(strings.TrimSpace(baseURL)); err == nil && u.Port() == "11434" {
		return "ollama"
	}
	return "openai"
}

// IdleTimeout is StreamIdleTimeout as a duration (the default when unset
// or unreadable; Set refuses those).
func (c Config) IdleTimeout() time.Duration {
	if d, err := parseTimeout(c.StreamIdleTimeout); err == nil && d > 0 {
		return d
	}
	return DefaultStreamIdleTimeout
}

// LoadConfig reads config.json strictly: a missing or empty file is an
// empty config; any problem ReadConfig reports fails with ErrBadConfig.
func (w Workspace) LoadConfig() (Config, error) {
	c, problems, err := w.ReadConfig()
	if err != nil {
		return Config{}, err
	}
	if len(problems) > 0 {
		return Config{}, fmt.Errorf("%w: %s", ErrBadConfig, problems[0])
	}
	return c, nil
}

// ReadConfig reads config.json as far as it can be read, so a typo never
// keeps Wrasse from starting: a missing or empty file is an empty config;
// after a syntax error the keys before it are kept, and a value of the
// wrong type is left out (its default applies). What was left out is
// returned as problems, each with its line and column. The error is for a
// file that cannot be read at all.
func (w Workspace) ReadConfig() (Config, []Problem, error) {
	data, err := os.ReadFile(w.Config())
	if errors.Is(err, os.ErrNotExist) {
		return Config{}, nil, nil
	}
	if err != nil {
		return Config{}, nil, fmt.Errorf("read %s: %w", w.Config(), err)
	}
	c, problems := DecodeConfig(data, w.Config())
	return c, problems, nil
}

// ParseConfig decodes config.json strictly, reporting the first problem
// DecodeConfig finds (with its line and column) as ErrBadConfig.
func ParseConfig(data []byte, name string) (Config, error) {
	c, problems := DecodeConfig(data, name)
	if len(problems) > 0 {
		return Config{}, fmt.Errorf("%w: %s", ErrBadConfig, problems[0])
	}
	return c, nil
}

// DecodeConfig decodes config.json key by key (see ReadConfig): after a
// syntax error nothing more is read; a value of the wrong type costs only
// its key.
func DecodeConfig(data []byte, name string) (Config, []Problem) {
	var c Config
	if len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\uFEFF")))) == 0 {
		return c, nil
	}
	syntax := func(off int64, format string, a ...any) []Problem {
		line, col := position(data, off)
		return []Problem{{File: name, Line: line, Column: col,
			Message: fmt.Sprintf(format, a...) + "; what follows is not read (defaults apply)"}}
	}
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte("\uFEFF"))))
	bom := int64(len(data) - len(bytes.TrimPrefix(data, []byte("\uFEFF"))))
	fail := func(err error) []Problem {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return syntax(bom+se.Offset, "%v", err)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return syntax(int64(len(data)), "the file ends before its closing }")
		}
		return syntax(bom+dec.InputOffset(), "%v", err)
	}
	tok, err := dec.Token()
	if err != nil {
		return c, fail(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return c, syntax(bom, "config.json must be a JSON object ({ ... })")
	}
	var problems []Problem
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return c, append(problems, fail(err)...)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return c, append(problems, fail(err)...)
		}
		// One key at a time, so a value of the wrong type costs only itself.
		one, _ := json.Marshal(map[string]json.RawMessage{key: raw})
		var probe Config
		var te *json.UnmarshalTypeError
		if err := json.Unmarshal(one, &probe); errors.As(err, &te) {
			line, col := position(data, bom+dec.InputOffset()-int64(len(raw)))
			problems = append(problems, Problem{File: name, Line: line, Column: col,
				Message: fmt.Sprintf("%s must be %s, not %s; the default applies", key, jsonKind(te.Type.String()), jsonValue(te.Value))})
			continue
		}
		_ = json.Unmarshal(one, &c)
	}
	if _, err := dec.Token(); err != nil {
		return c, append(problems, fail(err)...)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		problems = append(problems, syntax(bom+dec.InputOffset(), "unexpected text after the closing }")...)
	}
	return c, problems
}

// jsonValue names the kind of a JSON value as UnmarshalTypeError gives it.
func jsonValue(v string) string {
	switch {
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	case v == "bool":
		return "true or false"
	case strings.HasPrefix(v, "number"):
		return "a number"
	}
	return "a " + v
}

// jsonKind names a Go type of Config's fields as a person would.
func jsonKind(goType string) string {
	switch goType {
	case "int":
		return "a whole number"
	case "bool":
		return "true or false"
	case "string":
		return "text in quotes"
	case "[]string":
		return "a list of texts in quotes ([\"a\", \"b\"])"
	}
	return goType
}

func position(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// SaveConfig writes config.json atomically.
func (w Workspace) SaveConfig(c Config) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(w.Config(), append(data, '\n'), 0o600)
}
