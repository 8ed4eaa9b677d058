package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Section names, for Config.Only and --only.
const (
	SecPrompt  = "prompt"
	SecQuality = "quality"
	SecLatency = "latency"
	SecStartup = "startup"
	SecPlugins = "plugins"
	SecMemory  = "memory"
	SecWindow  = "window"
	// SecScale prints the cost curves of issue 14 (see scale.go).
	SecScale = "scale"
	// SecCache measures how much of each request a prefix cache serves.
	SecCache = "cache"
	// SecCodeMode measures code mode against one call per step.
	SecCodeMode = "codemode"
	// SecModels measures what real model servers cost a turn (models.go).
	SecModels = "models"
	// SecLongDay measures a long day: late turns against early ones, a
	// 10 MB reply and many tool turns in the window (issue 24).
	SecLongDay = "longday"
	// SecTasks measures the scheduled tasks' scheduler (tasks.go).
	SecTasks = "tasks"
)

// Sections lists every section in the order the table shows them.
var Sections = []string{SecPrompt, SecQuality, SecLatency, SecStartup, SecPlugins, SecMCP, SecScale, SecCache, SecCodeMode, SecModels, SecTasks, SecMemory, SecWindow, SecLongDay}

// runOrder is the order sections run in: the ones that start processes
// first, while this process is still small (see runWall), and the large
// generated workspaces last.
var runOrder = []string{SecStartup, SecMemory, SecPlugins, SecMCP, SecQuality, SecPrompt, SecLatency, SecCache, SecCodeMode, SecModels, SecTasks, SecScale, SecWindow, SecLongDay}

// Config says what to measure and with what.
type Config struct {
	// Short uses small sizes and few repetitions: what CI runs to keep the
	// benchmarks working, not to judge them.
	Short bool
	// Only limits the run to these sections (see Sections); nil runs all.
	Only []string
	// Repo is the repository root, to build cmd/wrasse and find the data.
	Repo string
	// MetaTool is the data folder; "" looks beside the repository (see
	// FindMetaTool).
	MetaTool string
	// Wrasse is a built wrasse binary; "" builds one from Repo.
	Wrasse string
	// Child starts this program again as a measuring child (see RunChild);
	// nil skips the memory section with an error row.
	Child func(ctx context.Context, args ...string) *exec.Cmd
	// TempDir is where workspaces are generated ("" = the system's).
	TempDir string
	// Progress receives a line per step; nil = quiet.
	Progress io.Writer
	// Seed makes every generated workspace and query set (default 1).
	Seed int64
	// Now stamps the report (default time.Now).
	Now func() time.Time
}

// plan holds the sizes and repetitions of a run.
type plan struct {
	promptSizes     []int
	latencySizes    []int
	queries         int
	baselineQueries int
	startupRuns     int
	loadRuns        int
	callIters       int
	callReps        int
}

func planFor(short bool) plan {
	if short {
		return plan{promptSizes: []int{40, 1000}, latencySizes: []int{1000}, queries: 300, baselineQueries: 100,
			startupRuns: 3, loadRuns: 1, callIters: 2000, callReps: 3}
	}
	return plan{promptSizes: []int{40, 200, 1000, 10000}, latencySizes: []int{1000, 10000}, queries: 2000, baselineQueries: 300,
		startupRuns: 10, loadRuns: 5, callIters: 20000, callReps: 5}
}

// Run measures the chosen sections and returns the report. A measurement
// that fails becomes a row marked Broken; Run itself fails only when it
// cannot start.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	for _, s := range cfg.Only {
		if !slices.Contains(Sections, s) {
			return Report{}, fmt.Errorf("%w: unknown section %q (choose from %s)", ErrUsage, s, strings.Join(Sections, ", "))
		}
	}
	tmp, err := os.MkdirTemp(cfg.TempDir, "wrasse-bench-")
	if err != nil {
		return Report{}, fmt.Errorf("make a temporary folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	r := &runner{cfg: cfg, plan: planFor(cfg.Short), tmp: tmp, spaces: map[int]*space{}}
	defer r.closeSpaces()
	rep := Report{Machine: ThisMachine(cfg.Now()), Short: cfg.Short}
	rows := map[string][]Row{}
	for _, s := range runOrder {
		if len(cfg.Only) > 0 && !slices.Contains(cfg.Only, s) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		r.progress("%s…", s)
		t0 := time.Now()
		rows[s] = r.section(ctx, s)
		r.progress("%s done in %s", s, FormatDuration(time.Since(t0)))
	}
	for _, s := range Sections {
		rep.Rows = append(rep.Rows, rows[s]...)
	}
	return rep, nil
}

type runner struct {
	cfg    Config
	plan   plan
	tmp    string
	spaces map[int]*space
	// startupWS is the 1,000-capability, 50-plugin workspace, made once.
	startupWS string
	// capsList is what the start-up runs saw of memory.
	capsList capsListRSS
}

func (r *runner) progress(format string, args ...any) {
	if r.cfg.Progress != nil {
		fmt.Fprintf(r.cfg.Progress, "wrasse-bench: "+format+"\n", args...)
	}
}

func (r *runner) section(ctx context.Context, s string) []Row {
	p := r.plan
	switch s {
	case SecPrompt:
		return r.prompt(ctx)
	case SecQuality:
		dir, err := FindMetaTool(r.cfg.Repo, r.cfg.MetaTool)
		if err != nil {
			return []Row{errorRow(sectionQuality, "MetaTool", err)}
		}
		return quality(ctx, r.tmp, dir)
	case SecLatency:
		var rows []Row
		for _, n := range p.latencySizes {
			sp, err := r.space(n)
			if err != nil {
				rows = append(rows, errorRow(sectionLatency, fmt.Sprintf("p50, %s capabilities", FormatInt(n)), err))
				continue
			}
			rows = append(rows, latency(ctx, sp, p.queries, p.baselineQueries, r.cfg.Seed)...)
		}
		return rows
	case SecStartup:
		ws, err := r.startupSpace()
		if err != nil {
			return []Row{errorRow(sectionStartup, startupMeasure, err)}
		}
		var rows []Row
		bin := r.cfg.Wrasse
		if bin == "" {
			r.progress("building cmd/wrasse…")
			bin, err = buildWrasse(ctx, r.cfg.Repo, r.tmp)
		}
		if err != nil {
			rows = []Row{errorRow(sectionStartup, startupMeasure, err)}
		} else {
			rows, r.capsList = startup(ctx, bin, ws, filepath.Join(r.tmp, "startup-empty"), p.startupRuns)
		}
		return append(rows, inProcessOpen(ws, p.startupRuns))
	case SecMCP:
		return r.mcpSection(ctx)
	case SecScale:
		return r.scaleSection(ctx)
	case SecCache:
		return r.cacheSection(ctx)
	case SecCodeMode:
		return r.codeModeSection(ctx)
	case SecModels:
		return r.modelsSection(ctx)
	case SecTasks:
		return r.tasksSection(ctx)
	case SecLongDay:
		return r.longDaySection(ctx)
	case SecPlugins:
		rows := firstInterpretation(ctx, r.tmp, p.loadRuns, r.cfg.Seed)
		return append(rows, callCost(ctx, r.tmp, p.callIters, p.callReps, r.cfg.Seed)...)
	case SecWindow:
		if os.Getenv("DISPLAY") == "" {
			return r.window(ctx, "")
		}
		bin := r.cfg.Wrasse
		if bin == "" {
			var err error
			r.progress("building cmd/wrasse…")
			if bin, err = buildWrasse(ctx, r.cfg.Repo, r.tmp); err != nil {
				return []Row{errorRow(sectionWindow, "window figures", err)}
			}
		}
		return r.window(ctx, bin)
	case SecMemory:
		ws, err := r.startupSpace()
		if err != nil {
			return []Row{errorRow(sectionMemory, "peak RSS", err)}
		}
		rows := memory(ctx, r.cfg.Child, r.tmp, ws)
		if c := r.capsList; c.Full > 0 {
			empty := "n/a"
			if c.Empty > 0 {
				empty = FormatMB(c.Empty)
			}
			rows = append(rows, Row{Section: sectionMemory, Measure: fmt.Sprintf("peak RSS, `wrasse caps list`, %s capabilities", FormatInt(startupCaps)),
				Value: FormatMB(c.Full), Number: MB(c.Full), Unit: "MB", Baseline: "empty workspace " + empty,
				Note: "from the start-up runs: the largest maximum resident set (wait4 rusage) of the real wrasse binary, which carries no tokenizer; counted only when it exceeds this program's own peak (see runWall)"})
		}
		return rows
	}
	return nil
}

// prompt measures every size; the workspaces stay open for latency.
func (r *runner) prompt(ctx context.Context) []Row {
	tc, err := newCounter("o200k_base")
	if err != nil {
		return []Row{errorRow(sectionPrompt, "tokenizer", err)}
	}
	cl, err := newCounter("cl100k_base")
	if err != nil {
		return []Row{errorRow(sectionPrompt, "tokenizer", err)}
	}
	var rows []Row
	for _, n := range r.plan.promptSizes {
		sp, err := r.space(n)
		if err != nil {
			rows = append(rows, errorRow(sectionPrompt, fmt.Sprintf("index, %s capabilities", FormatInt(n)), err))
			continue
		}
		rows = append(rows, economy(ctx, sp, tc, cl, r.cfg.Seed)...)
		if !slices.Contains(r.plan.latencySizes, n) {
			r.dropSpace(n)
		}
	}
	return rows
}

// space returns the generated workspace of n capabilities, making it once.
func (r *runner) space(n int) (*space, error) {
	if sp, ok := r.spaces[n]; ok {
		return sp, nil
	}
	r.progress("generating a workspace of %s capabilities…", FormatInt(n))
	sp, err := economySpace(r.tmp, n, r.cfg.Seed)
	if err != nil {
		return nil, err
	}
	r.spaces[n] = sp
	return sp, nil
}

func (r *runner) dropSpace(n int) {
	if sp, ok := r.spaces[n]; ok {
		sp.close()
		delete(r.spaces, n)
		os.RemoveAll(sp.dir)
	}
}

func (r *runner) closeSpaces() {
	for n := range r.spaces {
		r.dropSpace(n)
	}
}

func (r *runner) startupSpace() (string, error) {
	if r.startupWS != "" {
		return r.startupWS, nil
	}
	ws, err := startupWorkspace(filepath.Join(r.tmp, "startup"), r.cfg.Seed)
	if err != nil {
		return "", err
	}
	r.startupWS = ws
	return ws, nil
}

// FindRepo walks up from dir to the folder whose go.mod declares the wrasse
// module.
func FindRepo(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && strings.Contains(string(data), "module github.com/wrasse-app/wrasse\n") {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%w: no go.mod of github.com/wrasse-app/wrasse above %s", ErrNoRepo, abs)
		}
	}
}
