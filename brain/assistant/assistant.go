package assistant

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/brain/history"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/tasks"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/plugins"
	"github.com/wrasse-app/wrasse/plugins/codemode"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// Options configure Open.
type Options struct {
	// Workspace is the workspace folder as the user gave it ("" means
	// $WRASSE_HOME, then the user data folder).
	Workspace string
	// Getenv reads the environment (API keys, WRASSE_HOME, locale); nil
	// reads none.
	Getenv func(string) string
	// PluginChild is the command line of a helper process that serves one
	// plugin (plugins.Options.Child); nil runs every plugin in process.
	PluginChild []string
	// LogLevel is the level of the workspace log (default Info).
	LogLevel slog.Level
	// Clock stamps conversations and the system prompt (default time.Now).
	Clock func() time.Time
	// Retries is how often a model request that failed for a passing
	// reason is retried (0: provider.DefaultMaxRetries; negative: never).
	Retries int
	// LockTimeout bounds the wait for the database lock (default 1 s), so
	// a second process learns at once that the workspace is in use.
	LockTimeout time.Duration
	// Home is the user's home folder: what ~ means in folders, and where
	// the common folders offered for granting are (default: the
	// operating system's).
	Home string
	// MCPAsker puts MCP servers' questions to the person (the window's
	// cards, the CLI's prompts); nil declines them.
	MCPAsker mcp.Asker
	// TaskClock is the scheduled tasks' clock (default the system's);
	// Location the time zone their schedules are read in (default
	// time.Local). Tests set both.
	TaskClock tasks.Clock
	Location  *time.Location
}

// App is one opened workspace with everything wired. All methods are safe
// for concurrent use.
type App struct {
	opts Options
	ws   workspace.Workspace
	log  *slog.Logger
	db   *store.DB
	host *plugins.Host
	reg  *cerebellum.Registry
	// mgr changes reg's capabilities (install, trash, resync, state and
	// settings writes); reg alone serves conversations.
	mgr *manage.Manager

	closers []io.Closer

	// mu serialises changes: config updates, key changes and capability
	// state changes are each read-modify-write under it.
	mu    sync.Mutex
	model atomic.Pointer[modelState]

	busyMu sync.Mutex
	busy   map[store.ID]*running
	// memory carries each conversation's prepared history from
	// one turn's agent to the next.
	memory *agent.Memory
	// caller runs tool calls outside a turn (CallTool, Check).
	caller *agent.Agent

	subs subscribers
	// tasks are the scheduled tasks' scheduler and runs (tasks.go).
	tasks *taskState

	serveMu sync.Mutex
	servers []server

	keep modeKeeper
	// usage holds each conversation's token use by day (usage.go).
	usage usageCache
	// instructionsEdits counts changes of conversations' instructions, so
	// a running turn re-reads its own only after one (organise.go).
	instructionsEdits atomic.Uint64
	// attachSeen are the files the window read into chips (attachread.go).
	attachSeen attachSeen
}

// Open opens the workspace with everything wired. The caller owns the App
// and must Close it. A workspace another process holds fails within the
// lock timeout with an error matching store.ErrLocked.
func Open(opts Options) (*App, error) {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	if opts.Retries == 0 {
		opts.Retries = provider.DefaultMaxRetries
	}
	ws, err := workspace.Resolve(opts.Workspace, opts.Getenv)
	if err != nil {
		return nil, err
	}
	if err := ws.Ensure(); err != nil {
		return nil, err
	}
	a := &App{opts: opts, ws: ws, busy: map[store.ID]*running{}, memory: agent.NewMemory(0)}
	logger, closer, err := ws.OpenLog(opts.LogLevel)
	if err != nil {
		return nil, err
	}
	// Every log record is redacted with the secrets stored when it is
	// written, encodings included: a plugin's or server's output, an
	// error quoting a tool result, a value bound to a logger.
	var dbp atomic.Pointer[store.DB]
	logger = slog.New(store.RedactingHandler(logger.Handler(), func() *store.Redactor {
		if db := dbp.Load(); db != nil {
			return db.Redactor()
		}
		return nil
	}))
	a.log = logger
	a.closers = append(a.closers, closer)
	a.startKeepingModes()
	// A config.json that cannot be read in full never stops Wrasse: what
	// could be read applies, defaults the rest (ConfigErrors says what).
	raw, _, err := ws.ReadConfig()
	if err != nil {
		logger.Warn("config.json cannot be read; defaults apply", "error", err)
	}
	a.warnConfig()
	cfg := raw.WithDefaults()
	db, err := store.Open(ws.Database(), store.Options{Logger: logger, Clock: opts.Clock, Timeout: opts.LockTimeout,
		Backups: ws.Backups(), OnStorage: a.onStorage})
	if err != nil {
		a.Close()
		return nil, databaseError(err)
	}
	a.db = db
	dbp.Store(db)
	a.bindKeys(raw)
	// The database lock makes this process the workspace's only writer:
	// temporary files of writes a kill cut short can go.
	a.sweepTemporary()
	a.model.Store(a.buildModel(cfg, raw))
	a.tasks = newTaskState(a)
	a.host = plugins.NewHost(plugins.Options{
		Child:         opts.PluginChild,
		Logger:        logger,
		Secrets:       db.Secret,
		SecretAllowed: a.secretAllowed,
		Roots:         a.pluginRoots,
		Hosts:         a.pluginHosts,
		Protected:     a.pluginProtected,
	})
	reg, err := cerebellum.Open(cerebellum.Options{
		Builtin:   builtin.FS(),
		Workspace: ws.Root,
		States:    db,
		Settings:  db,
		Pinned:    cfg.PinnedCapabilities,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: attachLoader{Host: a.host, a: a}, cerebellum.KindMCP: mcp.NewLoader(mcp.Options{Logger: logger, Protected: ProtectedPaths, Secrets: db.Secret, SecretAllowed: a.secretAllowed,
			Sandbox: a.sandboxLauncher(), Folders: a.Folders, Asker: opts.MCPAsker, Tokens: db, Progress: a.toolProgress, Sampler: a.mcpSampler(opts.MCPAsker)})},
		Logger:        logger,
		IndexBudget:   cfg.IndexBudget,
		ToolBudget:    cfg.EffectiveToolBudget(),
		ManifestCache: ws.ManifestCache(),
		AppliedState:  ws.AppliedState(),
		CheckCache:    ws.CheckCache(),
		Native: map[string]cerebellum.Runtime{history.Name: history.New(db), TasksCapability: taskTools{a}, manage.AuthoringName: manage.Authoring(func() *manage.Manager { return a.mgr }),
			agent.CodeModeCapability: agent.NewCodeMode(&codemode.Runner{Command: codemode.ChildCommandFor(opts.PluginChild), Logger: logger})},
	})
	if err != nil {
		a.Close()
		return nil, err
	}
	a.reg = reg
	a.mgr = manage.New(reg, manage.Options{})
	if a.caller, err = a.newCaller(); err != nil {
		a.Close()
		return nil, err
	}
	a.recordDestinations()
	reg.Subscribe(func(c cerebellum.Change) {
		a.subs.publish(Event{Kind: EventCapabilities, Generation: c.Generation, Reason: c.Reason, Names: c.Names})
	})
	// The database lock makes this process the workspace's only user, so
	// leftovers of an interrupted install can go.
	if err := a.mgr.Sweep(); err != nil {
		logger.Warn("sweeping the workspace", "error", err)
	}
	return a, nil
}

// warnConfig logs the problems CheckConfig finds in config.json (a
// misspelt key, say) once at start-up; `wrasse config` shows them too.
func (a *App) warnConfig() {
	for _, p := range a.ConfigProblems() {
		a.log.Warn("config.json", "problem", p.String())
	}
}

// Workspace is the opened workspace's layout.
func (a *App) Workspace() workspace.Workspace { return a.ws }

// Engine hands tests the store and the registry behind the App, to seed
// state no App method makes (events of a past turn, a damaged record).
// Front ends never use it: every read they need is in History and
// Capabilities, every change is an App method that claims, waits and
// announces (TestFrontEndsGoThroughApp enforces it).
func (a *App) Engine() Engine { return Engine{DB: a.db, Registry: a.reg} }

// Engine is the store and the registry behind an App (App.Engine).
type Engine struct {
	DB       *store.DB
	Registry *cerebellum.Registry
}

// Logger is the workspace log.
func (a *App) Logger() *slog.Logger { return a.log }

// Close releases everything in reverse order of opening. Turns still
// running should be cancelled first.
func (a *App) Close() error {
	a.stopServing()
	if a.tasks != nil {
		a.tasks.close()
	}
	var errs []error
	if a.reg != nil {
		errs = append(errs, a.reg.Close())
	}
	if a.db != nil {
		errs = append(errs, a.db.Close())
	}
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i].Close())
	}
	return errors.Join(errs...)
}

// PluginChildCommand is the command line that serves one plugin in a
// process of its own: this executable with the hidden subcommand.
func PluginChildCommand(subcommand string) ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the wrasse executable to run plugins in their own process: %w", err)
	}
	return []string{exe, subcommand}, nil
}
