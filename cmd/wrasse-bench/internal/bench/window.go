package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const sectionWindow = "window"

// Targets of the window's figures.
const (
	launchTarget     = time.Second
	idleMemTarget    = 150 // MB, 1,000 capabilities
	historyMemTarget = 250 // MB, the 5,000-message conversation open
	openTarget       = 500 * time.Millisecond
	firstTarget      = 300 * time.Millisecond // open it and see its first message
	frameMedTarget   = time.Second / 60
	frameMaxTarget   = 50 * time.Millisecond
)

// Where the window's parts are on a 1100×720 window at the screen's
// corner (Xvfb has no window manager to move it): the sidebar's first
// conversation (under its date section's title) and the middle of the
// message list.
const (
	firstConvX, firstConvY = 140, 170
	listX, listY           = 700, 350
)

// streamTokens is the length of the streamed reply, at 100 tokens per
// second.
const (
	streamTokens   = 300
	streamInterval = 10 * time.Millisecond
)

// window measures the real wrasse binary's window under an X server: the
// launch to its first painted frame, resident memory idle and with the
// 5,000-message conversation open, opening it, and frame times while
// scrolling it and while a reply streams. Frames are timed by the window
// itself (WRASSE_FRAME_LOG, see ui.Shell.ProbeFrames); input comes from
// xdotool as a person's would.
func (r *runner) window(ctx context.Context, bin string) []Row {
	if os.Getenv("DISPLAY") == "" {
		return []Row{{Section: sectionWindow, Measure: "window figures", Value: "skipped",
			Note: "no $DISPLAY: run `xvfb-run -a -s '-screen 0 1280x800x24' wrasse-bench --only window` (make bench-window)"}}
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		return []Row{errorRow(sectionWindow, "window figures", fmt.Errorf("xdotool is missing (make smoke-deps): %w", err))}
	}
	ws, err := r.windowSpace()
	if err != nil {
		return []Row{errorRow(sectionWindow, "window figures", err)}
	}
	// The window runs a binary read back from disk, as after a reboot: how
	// a file entered the page cache decides how much of it a process maps
	// (see dropCached), and a freshly linked binary is not what users run.
	if err := dropCached(bin); err != nil {
		return []Row{errorRow(sectionWindow, "window figures", err)}
	}
	// The same for the database, which windowSpace wrote in one call: bbolt
	// maps it, and a file written whole sits in the cache as large folios,
	// so the idle window had 8 MB of it resident against under 0.3 MB for
	// the same file read back from disk (or built by bbolt's page-sized
	// commits, as a user's is).
	if err := dropCached(filepath.Join(ws, "wrasse.db")); err != nil {
		return []Row{errorRow(sectionWindow, "window figures", err)}
	}
	srv, err := newDayServer()
	if err != nil {
		return []Row{errorRow(sectionWindow, "window figures", err)}
	}
	defer srv.Close()
	cfg, _ := json.Marshal(map[string]any{"provider": "openai", "baseURL": srv.url + "/v1", "model": "bench-model"})
	if err := os.WriteFile(filepath.Join(ws, "config.json"), cfg, 0o600); err != nil {
		return []Row{errorRow(sectionWindow, "window figures", err)}
	}

	runs := 5
	if r.cfg.Short {
		runs = 2
	}
	var launches []time.Duration
	var rows []Row
	for i := range runs {
		w, err := startWindow(ctx, bin, ws, r.tmp)
		if err != nil {
			return append(rows, errorRow(sectionWindow, "launch to first frame", err))
		}
		launches = append(launches, w.firstFrame)
		if i < runs-1 {
			w.stop()
			continue
		}
		rows = append(rows, r.windowSession(ctx, w, srv)...)
		w.stop()
	}
	rows = append(rows, r.windowImages(ctx, bin, ws)...) // window_images.go
	// The idle figure's baseline, measured after wrasse's runs so that
	// their first (cold) launch is the first to read Mesa's libraries.
	if i := slices.IndexFunc(rows, func(row Row) bool { return row.Measure == idleMeasure }); i >= 0 {
		r.progress("measuring a bare Fyne window…")
		bare, err := r.bareWindow(ctx, runs)
		rows[i] = withBareBaseline(rows[i], bare, err)
	}
	warm := launches[1:] // the first run fills the page cache
	med := Median(warm)
	launch := Row{Section: sectionWindow, Measure: "launch to first frame, warm (1,000 capabilities)", Value: FormatDuration(med),
		Number: float64(med) / 1e6, Unit: "ms", Baseline: "cold " + FormatDuration(launches[0]),
		Target: "≤ " + FormatDuration(launchTarget), Pass: verdict(med <= launchTarget),
		Note: fmt.Sprintf("median of %d warm runs: from starting the process to the window's first painted frame, under Xvfb with Mesa's software OpenGL", len(warm))}
	return append([]Row{launch}, rows...)
}

// windowSession measures one open window: memory, opening, scrolling,
// streaming.
func (r *runner) windowSession(ctx context.Context, w *windowProc, srv *dayServer) []Row {
	var rows []Row
	settle := func() { sleepCtx(ctx, 2*time.Second) }
	settle()
	idle := w.rss()
	rows = append(rows, Row{Section: sectionWindow, Measure: idleMeasure, Value: FormatMB(idle.total),
		Number: MB(idle.total), Unit: "MB", Target: fmt.Sprintf("≤ %d MB", idleMemTarget), Pass: verdict(MB(idle.total) <= idleMemTarget),
		Note: "VmRSS of the wrasse process 2 s after its first frame (the binary read back from disk, see dropCached); includes Mesa's software renderer (llvmpipe), which a GPU driver replaces: " + idle.String()})

	// Open the conversation: a click on the sidebar's first row.
	clicked := time.Now()
	if err := xdotool(ctx, "mousemove", "--sync", strconv.Itoa(firstConvX), strconv.Itoa(firstConvY), "click", "1"); err != nil {
		return append(rows, errorRow(sectionWindow, "open the 5,000-message conversation", err))
	}
	opened, err := w.waitFrame(ctx, func(f frame) bool { return f.conv != 0 })
	if err != nil {
		return append(rows, errorRow(sectionWindow, "open the 5,000-message conversation", err))
	}
	open := opened.at.Sub(clicked)
	rows = append(rows, Row{Section: sectionWindow, Measure: "open the 5,000-message conversation", Value: FormatDuration(open),
		Number: float64(open) / 1e6, Unit: "ms", Target: "≤ " + FormatDuration(openTarget), Pass: verdict(open <= openTarget),
		Note: "from the click on its sidebar row (xdotool) to the first painted frame showing it"})
	settle()
	hist := w.rss()
	rows = append(rows, Row{Section: sectionWindow, Measure: "resident memory, 5,000-message conversation open", Value: FormatMB(hist.total),
		Number: MB(hist.total), Unit: "MB", Baseline: "idle " + FormatMB(idle.total), Target: fmt.Sprintf("≤ %d MB", historyMemTarget),
		Pass: verdict(MB(hist.total) <= historyMemTarget), Note: "VmRSS 2 s after opening it: " + hist.String()})

	// Scroll it: 30 wheel steps a second for 3 s, upwards (older pages
	// load on the way).
	if err := xdotool(ctx, "mousemove", "--sync", strconv.Itoa(listX), strconv.Itoa(listY)); err != nil {
		return append(rows, errorRow(sectionWindow, "frame time, scrolling", err))
	}
	from := time.Now()
	if err := xdotool(ctx, "click", "--repeat", "90", "--delay", "33", "4"); err != nil {
		return append(rows, errorRow(sectionWindow, "frame time, scrolling", err))
	}
	rows = append(rows, frameRows("scrolling the 5,000-message conversation", w.framesBetween(from, time.Now()))...)

	// Its first message: Ctrl+Home (the composer has the focus, as after
	// opening it), to the first frame painted with message 1 at the top.
	pressed := time.Now()
	if err := xdotool(ctx, "key", "ctrl+Home"); err != nil {
		return append(rows, errorRow(sectionWindow, firstMeasure, err))
	}
	top, err := w.waitFrame(ctx, func(f frame) bool { return f.first })
	if err != nil {
		return append(rows, errorRow(sectionWindow, firstMeasure, err))
	}
	jump := top.at.Sub(pressed)
	rows = append(rows, Row{Section: sectionWindow, Measure: firstMeasure, Value: FormatDuration(open + jump),
		Number: float64(open+jump) / 1e6, Unit: "ms", Baseline: "open " + FormatDuration(open) + ", Ctrl+Home " + FormatDuration(jump),
		Target: "≤ " + FormatDuration(firstTarget), Pass: verdict(open+jump <= firstTarget),
		Note: "the open row's time (click to its first frame) plus Ctrl+Home (xdotool) to the first painted frame showing message 1 at the top"})
	if err := xdotool(ctx, "key", "ctrl+End"); err != nil {
		return append(rows, errorRow(sectionWindow, "frame time, streaming", err))
	}

	// Stream a reply at 100 tokens a second: type into the composer.
	err = xdotool(ctx, "type", "--delay", "10", "stream please")
	if err == nil {
		err = xdotool(ctx, "key", "Return")
	}
	if err != nil {
		return append(rows, errorRow(sectionWindow, "frame time, streaming", err))
	}
	resp, err := srv.wait(ctx, "stream", 60*time.Second)
	if err != nil {
		return append(rows, errorRow(sectionWindow, "frame time, streaming", err))
	}
	return append(rows, frameRows("a reply streaming at 100 tokens/s", w.framesBetween(resp.start, resp.end))...)
}

// firstMeasure names the row of opening the conversation and jumping to
// its first message (issue 27).
const firstMeasure = "open the 5,000-message conversation and see its first message (Ctrl+Home)"

// idleMeasure names the idle row, whose baseline is the bare window's.
const idleMeasure = "resident memory, idle, 1,000 capabilities"

// bareWindow measures a bare Fyne window (the barewindow program: Wrasse's
// window size, its two idle text styles, its frame log and memory release)
// as the idle row measures wrasse: built with `go build`, dropped from the
// page cache, launched runs times and read on the last launch 2 s after
// its first frame, so the row shows what the toolkit alone costs under the
// same X server and software OpenGL.
func (r *runner) bareWindow(ctx context.Context, runs int) (residentSet, error) {
	bin, err := buildBareWindow(ctx, r.cfg.Repo, r.tmp)
	if err != nil {
		return residentSet{}, err
	}
	if err := dropCached(bin); err != nil {
		return residentSet{}, err
	}
	log := filepath.Join(r.tmp, "bare-frames.log")
	for i := range runs {
		cmd := exec.CommandContext(ctx, bin, log)
		cmd.Env = windowEnv(r.tmp)
		w, err := launchWindow(ctx, cmd, log)
		if err != nil {
			return residentSet{}, fmt.Errorf("the bare Fyne window: %w", err)
		}
		if i == runs-1 {
			err = sleepCtx(ctx, 2*time.Second)
			rs := w.rss()
			w.stop()
			return rs, err
		}
		w.stop()
	}
	return residentSet{}, errors.New("the bare Fyne window was not launched")
}

// buildBareWindow builds the barewindow program from repo into dir.
func buildBareWindow(ctx context.Context, repo, dir string) (string, error) {
	const pkg = "./cmd/wrasse-bench/internal/bench/barewindow"
	if repo == "" {
		return "", fmt.Errorf("%w: cannot build the bare Fyne window; pass --repo", ErrNoRepo)
	}
	goBin, err := goTool()
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "barewindow")
	cmd := exec.CommandContext(ctx, goBin, "build", "-o", out, pkg)
	cmd.Dir = repo
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w: %s", pkg, err, strings.TrimSpace(string(msg)))
	}
	return out, nil
}

// withBareBaseline puts the bare window's figure, or why there is none,
// in the idle row's baseline and note.
func withBareBaseline(idle Row, bare residentSet, err error) Row {
	if err != nil {
		idle.Baseline = "bare Fyne window n/a"
		idle.Note += "; no bare-window baseline: " + err.Error()
		return idle
	}
	idle.Baseline = "bare Fyne window " + FormatMB(bare.total)
	idle.Note += ". Baseline: a bare Fyne window of the same size drawing the same two text styles (barewindow), launched and read the same way: " +
		bare.describe("its binary")
	return idle
}

// frameRows turns frame times into the median and the longest frame.
func frameRows(what string, intervals []time.Duration) []Row {
	if len(intervals) < 2 {
		return []Row{errorRow(sectionWindow, "frame time, "+what, errors.New("fewer than two frames were painted"))}
	}
	med, worst := Median(intervals), slices.Max(intervals)
	fps := float64(time.Second) / float64(med)
	return []Row{
		{Section: sectionWindow, Measure: "median frame time, " + what, Value: fmt.Sprintf("%s (%.0f fps)", FormatDuration(med), fps),
			Number: float64(med) / 1e6, Unit: "ms", Target: "≤ 16.7 ms (60 fps)", Pass: verdict(med <= frameMedTarget+time.Second/600),
			Note: fmt.Sprintf("%d frames; intervals between painted frames, the window forced to paint every tick of Fyne's 60 Hz loop", len(intervals))},
		{Section: sectionWindow, Measure: "longest frame, " + what, Value: FormatDuration(worst),
			Number: float64(worst) / 1e6, Unit: "ms", Target: "≤ " + FormatDuration(frameMaxTarget), Pass: verdict(worst <= frameMaxTarget)},
	}
}

// windowSpace is a copy of the 1,000-capability workspace whose database
// holds one 5,000-message conversation.
func (r *runner) windowSpace() (string, error) {
	ws, err := startupWorkspace(filepath.Join(r.tmp, "window"), r.cfg.Seed)
	if err != nil {
		return "", err
	}
	dir, cleanup, err := scratchDir(r.tmp)
	if err != nil {
		return "", err
	}
	defer cleanup()
	db := filepath.Join(dir, "window.db")
	if err := writeHistory(db, historyMessages); err != nil {
		return "", err
	}
	data, err := os.ReadFile(db)
	if err != nil {
		return "", err
	}
	return ws, os.WriteFile(filepath.Join(ws, "wrasse.db"), data, 0o600)
}

// frame is one line of the window's frame log.
type frame struct {
	at   time.Time
	conv uint64
	// first: the chat shows the conversation's first message at its top.
	first bool
}

// windowProc is a running wrasse window.
type windowProc struct {
	cmd        *exec.Cmd
	log        string
	firstFrame time.Duration
}

// startWindow starts bin on ws and waits for its first frame.
func startWindow(ctx context.Context, bin, ws, tmp string) (*windowProc, error) {
	log := filepath.Join(tmp, "frames.log")
	cmd := exec.CommandContext(ctx, bin, "--workspace", ws)
	cmd.Env = append(windowEnv(tmp), "WRASSE_FRAME_LOG="+log, "OPENAI_API_KEY=sk-bench")
	return launchWindow(ctx, cmd, log)
}

// windowEnv is the environment both windows run in: a home of the
// bench's (Fyne keeps its settings there) and one locale.
func windowEnv(tmp string) []string {
	home := filepath.Join(tmp, "window-home")
	return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "LANG=en_US.UTF-8")
}

// launchWindow starts cmd, a window logging its frames to log, and waits
// for its first frame.
func launchWindow(ctx context.Context, cmd *exec.Cmd, log string) (*windowProc, error) {
	bin := cmd.Path
	_ = os.Remove(log)
	started := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	w := &windowProc{cmd: cmd, log: log}
	f, err := w.waitFrame(ctx, func(frame) bool { return true })
	if err != nil {
		w.stop()
		return nil, err
	}
	w.firstFrame = f.at.Sub(started)
	return w, nil
}

// frames reads the frame log so far.
func (w *windowProc) frames() []frame {
	f, err := os.Open(w.log)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []frame
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var ns int64
		var conv uint64
		first := 0
		if n, _ := fmt.Sscanf(sc.Text(), "frame %d %d %d", &ns, &conv, &first); n >= 2 {
			out = append(out, frame{at: time.Unix(0, ns), conv: conv, first: first == 1})
		}
	}
	return out
}

// waitFrame polls the frame log for a frame painted from now on that
// matches, for up to 30 s.
func (w *windowProc) waitFrame(ctx context.Context, match func(frame) bool) (frame, error) {
	seen := len(w.frames())
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		fs := w.frames()
		for _, f := range fs[min(seen, len(fs)):] {
			if match(f) {
				return f, nil
			}
		}
		if w.cmd.ProcessState != nil {
			return frame{}, errors.New("the window exited")
		}
		if err := sleepCtx(ctx, 5*time.Millisecond); err != nil {
			return frame{}, err
		}
	}
	return frame{}, errors.New("no matching frame was painted within 30 s")
}

// framesBetween returns the intervals between the frames painted from
// from to to.
func (w *windowProc) framesBetween(from, to time.Time) []time.Duration {
	var out []time.Duration
	var prev time.Time
	for _, f := range w.frames() {
		if f.at.Before(from) || f.at.After(to) {
			continue
		}
		if !prev.IsZero() {
			out = append(out, f.at.Sub(prev))
		}
		prev = f.at
	}
	return out
}

// residentSet is where a process's resident memory is, in KiB.
type residentSet struct {
	total, anon, file int // VmRSS, RssAnon, RssFile
	// exe and llvm are the file pages of the process's own binary and of
	// Mesa's libLLVM (part of file).
	exe, llvm int
}

func (r residentSet) String() string { return r.describe("the wrasse binary") }

// describe says where the memory is; bin names the executable.
func (r residentSet) describe(bin string) string {
	return fmt.Sprintf("%s anonymous (Go heap, Mesa's buffers), %s file-backed (of which %s %s, libLLVM %s)",
		FormatMB(r.anon), FormatMB(r.file), bin, FormatMB(r.exe), FormatMB(r.llvm))
}

// rss reads the process's resident set from /proc.
func (w *windowProc) rss() residentSet {
	pid := w.cmd.Process.Pid
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	smaps, _ := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	return parseResident(string(status), string(smaps), exe)
}

// parseResident takes the totals from a /proc/PID/status and the pages
// of the executable exe and of libLLVM from a /proc/PID/smaps.
func parseResident(status, smaps, exe string) residentSet {
	var r residentSet
	for line := range strings.SplitSeq(status, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if f := strings.Fields(v); ok && len(f) > 0 {
			kb, _ := strconv.Atoi(f[0])
			switch k {
			case "VmRSS":
				r.total = kb
			case "RssAnon":
				r.anon = kb
			case "RssFile":
				r.file = kb
			}
		}
	}
	var mapping string
	for line := range strings.SplitSeq(smaps, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case !strings.HasSuffix(f[0], ":"): // a mapping's header: range perms offset dev inode [path]
			mapping = ""
			if len(f) >= 6 {
				mapping = f[5]
			}
		case f[0] == "Rss:" && len(f) >= 2:
			kb, _ := strconv.Atoi(f[1])
			switch {
			case exe != "" && mapping == exe:
				r.exe += kb
			case strings.HasPrefix(filepath.Base(mapping), "libLLVM"):
				r.llvm += kb
			}
		}
	}
	return r
}

// stop quits the window as a signal would and waits for it.
func (w *windowProc) stop() {
	_ = w.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = w.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = w.cmd.Process.Kill()
		<-done
	}
}

func xdotool(ctx context.Context, args ...string) error {
	out, err := exec.CommandContext(ctx, "xdotool", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("xdotool %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
