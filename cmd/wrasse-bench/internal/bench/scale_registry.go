package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// Targets of issue 14 for the capability registry.
const (
	warmListTarget     = 150 * time.Millisecond // warm `caps list` at 10,000 capabilities
	resyncTarget       = 50 * time.Millisecond  // Resync with nothing changed at 10,000
	brokenRatioTarget  = 1.3                    // start-up with 400 broken plugins / without
	firstStartTarget   = 40 * time.Millisecond  // first start on an empty workspace
	firstStartMemMB    = 50.0                   // and its peak resident set
	registryJudgedSize = 10000
	registryMaxSize    = 10000 // see the list curve's note
	brokenCaps         = 1000
	brokenPlugins      = 400
)

// ChildExecRSS runs a program and reports its peak resident set (wait4
// rusage): started from a small child, the figure is the program's own and
// not this large process's high-water mark carried across exec (see runWall).
const ChildExecRSS = "exec-rss"

// runExecRSS serves ChildExecRSS: args are the program and its arguments.
func runExecRSS(ctx context.Context, args []string, out *ChildReport) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: %s needs a program to run", ErrUsage, ChildExecRSS)
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	kB, _ := maxRSSKB(cmd.ProcessState)
	out.VmHWMKB = kB
	out.Detail = time.Since(t0).String()
	return nil
}

// scaleRegistry prints the registry's curves (warm `caps list`, Resync with
// nothing changed, Resync after a one-capability edit) and judges the
// targets of issue 14: warm list and Resync at 10,000 capabilities, start-up
// with 400 broken plugins against the same workspace without them, and a
// first start on an empty workspace.
func (r *runner) scaleRegistry(ctx context.Context) []Row {
	const measure = "registry"
	bin := r.cfg.Wrasse
	if bin == "" {
		dir := filepath.Join(r.tmp, "scale-registry-bin")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return []Row{errorRow(sectionScale, measure, err)}
		}
		r.progress("building cmd/wrasse…")
		var err error
		if bin, err = buildWrasse(ctx, r.cfg.Repo, dir); err != nil {
			return []Row{errorRow(sectionScale, measure, err)}
		}
	}
	// The first start runs first, while this process is smallest.
	rows := r.firstStartEmpty(ctx, bin)
	rows = append(rows, r.registryCurves(ctx, bin)...)
	rows = append(rows, r.brokenPlugins(ctx, bin)...)
	return rows
}

// runTimed is runWall that also returns the CPU time (user + system) the
// process used: on a machine busy with other work wall time says more of
// the machine than of Wrasse, so the rows give both.
func runTimed(ctx context.Context, bin string, args ...string) (wall, cpu time.Duration, kB int, err error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	var errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &errOut
	t0 := time.Now()
	err = cmd.Run()
	wall = time.Since(t0)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%s %s: %w: %s", filepath.Base(bin), strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	rss, ok := maxRSSKB(cmd.ProcessState)
	if self, selfOK, _ := readVmHWM(); !ok || !selfOK || rss <= self {
		rss = 0
	}
	return wall, cpu, rss, nil
}

// withCPU formats a wall time with the CPU time beside it.
func withCPU(wall, cpu time.Duration) string {
	return fmt.Sprintf("%s (CPU %s)", FormatDuration(wall), FormatDuration(cpu))
}

// runs is how many timed repetitions a measurement of n capabilities gets.
func (r *runner) registryRuns(n int) int {
	switch {
	case r.cfg.Short:
		return 3
	case n >= 100000:
		return 3
	default:
		return 7
	}
}

// firstStartEmpty times `wrasse caps list` on a workspace folder that does
// not exist yet: it creates the database, config and log, and checks what
// it must of the built-in capabilities. The binary is first dropped from
// the page cache (dropCached) and read back from disk by an untimed run, as
// after a reboot or an install: a freshly linked file sits in the cache as
// the linker's large folios, each fault maps a large piece of it, and its
// peak resident set is some 20 MB larger for the same bytes. That figure,
// measured before the drop, is a row of its own.
func (r *runner) firstStartEmpty(ctx context.Context, bin string) []Row {
	measure := "first start, empty workspace (`wrasse caps list`)"
	runs := 5
	if !r.cfg.Short {
		runs = 15
	}
	// Without the probe (no Go toolchain), peaks come from this program or
	// a measuring child, whose own peak they cannot fall below.
	probe, probeErr := buildRSSProbe(ctx, filepath.Join(r.tmp, "rss-probe"))
	if probeErr != nil {
		probe = ""
	}
	linked, err := r.firstStartPeaks(ctx, probe, bin, "linked", 3)
	if err != nil {
		return []Row{errorRow(sectionScale, measure, err)}
	}
	if err := dropCached(bin); err != nil {
		return []Row{errorRow(sectionScale, measure, err)}
	}
	var walls, cpus []time.Duration
	for i := -1; i < runs; i++ {
		ws := filepath.Join(r.tmp, fmt.Sprintf("first-start-%d", i+1))
		d, cpu, _, err := runTimed(ctx, bin, "caps", "list", "--workspace", ws)
		if err != nil {
			return []Row{errorRow(sectionScale, measure, err)}
		}
		os.RemoveAll(ws)
		if i >= 0 {
			walls, cpus = append(walls, d), append(cpus, cpu)
		}
	}
	fromDisk, err := r.firstStartPeaks(ctx, probe, bin, "disk", 5)
	if err != nil {
		return []Row{errorRow(sectionScale, measure, err)}
	}
	med := Median(walls)
	rows := []Row{{
		Section: sectionScale, Measure: measure,
		Value: fmt.Sprintf("%s (min %s, CPU %s)", FormatDuration(med), FormatDuration(Min(walls)), FormatDuration(Median(cpus))), Number: ms(med), Unit: "ms",
		Target: "≤ " + FormatDuration(firstStartTarget), Pass: verdict(med <= firstStartTarget),
		Note: fmt.Sprintf("first start: median wall time (and CPU time, user + system) of %d processes, each on a workspace folder that does not exist yet (creates the database, config and log), after the binary was dropped from the page cache and read back from disk by one untimed run; the built-in plugins are trusted by the hashes checked when Wrasse was built", runs),
	}}
	memRow := Row{Section: sectionScale, Measure: "first start, empty workspace, peak RSS", Target: fmt.Sprintf("≤ %.0f MB", firstStartMemMB)}
	linkedRow := Row{Section: sectionScale, Measure: "first start, empty workspace, peak RSS, binary as linked (no drop)"}
	if fromDisk.caps > 0 {
		memRow.Value, memRow.Number, memRow.Unit = FormatMB(fromDisk.caps), MB(fromDisk.caps), "MB"
		memRow.Pass = verdict(MB(fromDisk.caps) <= firstStartMemMB)
		memRow.Note = "largest maximum resident set of 5 processes (" + fromDisk.by + "), the binary read back from disk after dropCached, as after a reboot or an install; the baseline is `wrasse --help`, which opens nothing: most of either is the executable's own pages mapped from the file (RssFile), not memory the start allocates"
		if fromDisk.help > 0 {
			memRow.Baseline = "`wrasse --help` " + FormatMB(fromDisk.help)
		}
		if probeErr != nil {
			memRow.Note += "; the RSS probe could not be built (" + probeErr.Error() + "), so the figure cannot fall below the measuring process's own peak"
		}
	} else {
		memRow.Value, memRow.Pass = "unknown", Broken
		memRow.Note = "the peak resident set could not be told apart from this program's own (see runWall) and no measuring child is available"
	}
	if linked.caps > 0 {
		linkedRow.Value, linkedRow.Number, linkedRow.Unit = FormatMB(linked.caps), MB(linked.caps), "MB"
		linkedRow.Note = "the same, 3 processes, before the drop: the binary's pages as the page cache held them (when this run built it, as the linker wrote them: large folios, so each fault maps more of the file); what a binary started right after it was linked (`make run`, `go install`) shows until its file leaves the page cache"
		if linked.help > 0 {
			linkedRow.Baseline = "`wrasse --help` " + FormatMB(linked.help)
		}
	} else {
		linkedRow.Value = "unknown"
		linkedRow.Note = memRow.Note
	}
	return append(rows, memRow, linkedRow)
}

// rssProbeSource is a program that runs its arguments and prints that
// process's peak resident set in KiB (wait4 rusage). At exec Linux records
// the high-water mark of the memory the process leaves, and under Go's
// vfork that is the parent's own (a fork would carry the parent's size at
// the fork), so a child's ru_maxrss is never below its parent's peak:
// measured from this program or from a measuring child of it (a large
// binary), a 40 MB process read 53–55 MB, the parent's floor. This probe
// is a few MB, far under what it measures.
const rssProbeSource = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
}
`

// buildRSSProbe builds rssProbeSource into dir.
func buildRSSProbe(ctx context.Context, dir string) (string, error) {
	goBin, err := goTool()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(rssProbeSource), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module rssprobe\n\ngo 1.22\n"), 0o644); err != nil {
		return "", err
	}
	out := filepath.Join(dir, "rssprobe")
	cmd := exec.CommandContext(ctx, goBin, "build", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build the RSS probe: %w: %s", err, strings.TrimSpace(msg.String()))
	}
	return out, nil
}

// probeRSS runs bin with args under the probe and returns its peak
// resident set in KiB.
func probeRSS(ctx context.Context, probe, bin string, args ...string) (int, error) {
	cmd := exec.CommandContext(ctx, probe, append([]string{bin}, args...)...)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w: %s", filepath.Base(bin), strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	var kB int
	if _, err := fmt.Sscan(string(out), &kB); err != nil {
		return 0, fmt.Errorf("the RSS probe printed %q: %w", out, err)
	}
	return kB, nil
}

// startPeaks are the peak resident sets of a first `caps list` and of
// `--help`, in KiB (0 if unknown), and how they were measured.
type startPeaks struct {
	caps, help int
	by         string
}

// firstStartPeaks runs `wrasse caps list` on a new workspace folder and
// `wrasse --help` n times each and keeps the largest peak of each: from
// this process when its own high-water mark is lower (see runWall), else
// from a small measuring child.
func (r *runner) firstStartPeaks(ctx context.Context, probe, bin, tag string, n int) (startPeaks, error) {
	var p startPeaks
	if probe != "" {
		p.by = "wait4 rusage taken by a small probe program that started the process, rssProbeSource"
		for i := 0; i < n; i++ {
			ws := filepath.Join(r.tmp, fmt.Sprintf("first-start-rss-%s-%d", tag, i))
			kB, err := probeRSS(ctx, probe, bin, "caps", "list", "--workspace", ws)
			os.RemoveAll(ws)
			if err != nil {
				return p, err
			}
			helpKB, err := probeRSS(ctx, probe, bin, "--help")
			if err != nil {
				return p, err
			}
			p.caps, p.help = max(p.caps, kB), max(p.help, helpKB)
		}
		return p, nil
	}
	for i := 0; i < n; i++ {
		ws := filepath.Join(r.tmp, fmt.Sprintf("first-start-rss-%s-%d", tag, i))
		_, _, kB, err := runTimed(ctx, bin, "caps", "list", "--workspace", ws)
		os.RemoveAll(ws)
		if err != nil {
			return p, err
		}
		_, helpKB, err := runWall(ctx, bin, "--help")
		if err != nil {
			return p, err
		}
		if kB == 0 || helpKB == 0 {
			p.caps, p.help = 0, 0
			break
		}
		p.caps, p.help = max(p.caps, kB), max(p.help, helpKB)
		p.by = "wait4 rusage of the process this program started"
	}
	if (p.caps > 0 && p.help > 0) || r.cfg.Child == nil {
		return p, nil
	}
	// This process is larger than the child: measure from a small one.
	p = startPeaks{by: "wait4 rusage of the process, started from a small measuring child of this program"}
	for i := 0; i < n; i++ {
		ws := filepath.Join(r.tmp, fmt.Sprintf("first-start-rss-%s-child-%d", tag, i))
		rep, err := runChild(ctx, r.cfg.Child, ChildExecRSS, bin, "caps", "list", "--workspace", ws)
		os.RemoveAll(ws)
		if err != nil {
			return p, err
		}
		p.caps = max(p.caps, rep.VmHWMKB)
		if rep, err = runChild(ctx, r.cfg.Child, ChildExecRSS, bin, "--help"); err == nil {
			p.help = max(p.help, rep.VmHWMKB)
		}
	}
	return p, nil
}

// registryWorkspace writes n generated capabilities (one in 20 with a
// working plugin) under root.
func registryWorkspace(root string, n int, seed int64) (string, []captest.Capability, error) {
	caps := captest.Generate(n, max(n/20, 1), seed)
	ws, err := agedWorkspace(root, caps)
	return ws, caps, err
}

// agedWorkspace writes caps under root as writeWorkspace does, with every
// file and folder dated an hour back: a workspace as it stands between
// edits. (Files modified within the last seconds are read again on every
// scan, however their stat looks, as git does with racily clean files.)
func agedWorkspace(root string, caps []captest.Capability) (string, error) {
	ws, err := writeWorkspace(root, caps)
	if err != nil {
		return "", err
	}
	then := time.Now().Add(-time.Hour)
	err = filepath.WalkDir(cerebellum.CapabilitiesDir(ws), func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, then, then)
	})
	if err != nil {
		return "", fmt.Errorf("date the workspace %s back: %w", ws, err)
	}
	return ws, nil
}

// warmList times `wrasse caps list` on ws after two untimed runs (the
// first creates the database and caches; the second settles entries the
// first found too recently modified to trust by their stat).
func warmList(ctx context.Context, bin, ws string, runs int) (walls, cpus []time.Duration, err error) {
	for i := -2; i < runs; i++ {
		d, cpu, _, err := runTimed(ctx, bin, "caps", "list", "--workspace", ws)
		if err != nil {
			return nil, nil, err
		}
		if i >= 0 {
			walls, cpus = append(walls, d), append(cpus, cpu)
		}
	}
	return walls, cpus, nil
}

// registryCurves measures, at each size, warm `caps list` (the real
// binary), and in this process a Resync with nothing changed and a Resync
// after one capability's SKILL.md was edited.
func (r *runner) registryCurves(ctx context.Context, bin string) []Row {
	list := curve{Measure: "warm `wrasse caps list`", Unit: "ms"}
	same := curve{Measure: "Resync, nothing changed", Unit: "ms"}
	edit := curve{Measure: "Resync, one capability edited", Unit: "ms"}
	var judged []Row
	var cpuNotes []string
	largest := 0
	for _, n := range r.scaleSizes() {
		if ctx.Err() != nil || n > registryMaxSize {
			break
		}
		r.progress("registry: generating %s capabilities…", FormatInt(n))
		ws, caps, err := registryWorkspace(filepath.Join(r.tmp, fmt.Sprintf("scale-registry-%d", n)), n, r.cfg.Seed)
		if err != nil {
			return []Row{errorRow(sectionScale, list.Measure, err)}
		}
		runs := r.registryRuns(n)
		walls, listCPU, err := warmList(ctx, bin, ws, runs)
		if err != nil {
			os.RemoveAll(ws)
			return []Row{errorRow(sectionScale, list.Measure, err)}
		}
		unchanged, edited, cpu, err := resyncCosts(ctx, ws, caps, runs)
		os.RemoveAll(ws)
		if err != nil {
			return []Row{errorRow(sectionScale, same.Measure, err)}
		}
		list.Points = append(list.Points, curvePoint{N: n, Value: ms(Median(walls))})
		same.Points = append(same.Points, curvePoint{N: n, Value: ms(Median(unchanged))})
		edit.Points = append(edit.Points, curvePoint{N: n, Value: ms(Median(edited))})
		largest = n
		cpuNotes = append(cpuNotes, fmt.Sprintf("%s: list %s, Resync %s, edit %s", FormatInt(n), FormatDuration(Median(listCPU)), FormatDuration(Median(cpu[0])), FormatDuration(Median(cpu[1]))))
		if n == registryJudgedSize {
			judged = append(judged, Row{
				Section: sectionScale, Measure: fmt.Sprintf("warm `wrasse caps list`, %s capabilities", FormatInt(n)),
				Value: withCPU(Median(walls), Median(listCPU)), Number: ms(Median(walls)), Unit: "ms",
				Target: "≤ " + FormatDuration(warmListTarget), Pass: verdict(Median(walls) <= warmListTarget),
			}, Row{
				Section: sectionScale, Measure: fmt.Sprintf("Resync with nothing changed, %s capabilities", FormatInt(n)),
				Value: withCPU(Median(unchanged), Median(cpu[0])), Number: ms(Median(unchanged)), Unit: "ms",
				Baseline: "one capability edited " + FormatDuration(Median(edited)),
				Target:   "≤ " + FormatDuration(resyncTarget), Pass: verdict(Median(unchanged) <= resyncTarget),
			})
		}
	}
	stop := fmt.Sprintf("; the curve stops at %s: writing 100,000 capability folders and their first parse (every SKILL.md) take many minutes on 2 cores", FormatInt(registryMaxSize))
	if largest < registryJudgedSize {
		stop = fmt.Sprintf("; --short stops at %s, so the targets at 10,000 are not judged", FormatInt(largest))
	}
	list.Note = "median wall time of new `wrasse caps list` processes on a generated workspace (one capability in 20 with a working plugin), after two untimed runs; plugins are checked as `caps list` does, from remembered verdicts" + stop +
		"; median CPU time (user + system; in process for Resync) by size: " + strings.Join(cpuNotes, "; ")
	same.Note = "in this process: Registry.Resync on the same workspace with nothing changed since the last one; every file is recognised by its stat"
	edit.Note = "in this process: one capability's SKILL.md rewritten (its description changes), then the watcher's Registry.ResyncFolders with that folder"
	rows := curveRows(list)
	rows = append(rows, curveRows(same)...)
	rows = append(rows, curveRows(edit)...)
	return append(rows, judged...)
}

// resyncCosts opens ws in this process and times Resync with nothing
// changed, then a folder Resync after editing one capability, runs times
// each.
func resyncCosts(ctx context.Context, ws string, caps []captest.Capability, runs int) (unchanged, edited []time.Duration, cpu [2][]time.Duration, err error) {
	reg, err := openRegistry(ws, newHost())
	if err != nil {
		return nil, nil, cpu, err
	}
	defer reg.Close()
	if _, err := manage.New(reg, manage.Options{}).Resync(ctx); err != nil {
		return nil, nil, cpu, err
	}
	for i := 0; i < runs; i++ {
		c0, _ := cpuTime()
		t0 := time.Now()
		d, err := manage.New(reg, manage.Options{}).Resync(ctx)
		unchanged = append(unchanged, time.Since(t0))
		c1, _ := cpuTime()
		cpu[0] = append(cpu[0], c1-c0)
		if err != nil {
			return nil, nil, cpu, err
		}
		if !d.Empty() {
			return nil, nil, cpu, fmt.Errorf("%w: Resync with nothing changed reported %d added, %d changed, %d removed", ErrChild, len(d.Added), len(d.Changed), len(d.Removed))
		}
	}
	target := caps[len(caps)/2]
	file := filepath.Join(cerebellum.CapabilitiesDir(ws), target.Name, "SKILL.md")
	for i := 0; i < runs; i++ {
		text := strings.Replace(target.SkillMD, "description: ", fmt.Sprintf("description: edit %d ", i), 1)
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			return nil, nil, cpu, err
		}
		c0, _ := cpuTime()
		t0 := time.Now()
		d, err := manage.New(reg, manage.Options{}).ResyncFolders(ctx, []string{target.Name})
		edited = append(edited, time.Since(t0))
		c1, _ := cpuTime()
		cpu[1] = append(cpu[1], c1-c0)
		if err != nil {
			return nil, nil, cpu, err
		}
		if len(d.Changed) != 1 || d.Changed[0] != target.Name {
			return nil, nil, cpu, fmt.Errorf("%w: editing %s, Resync reported changed %v", ErrChild, target.Name, d.Changed)
		}
	}
	return unchanged, edited, cpu, nil
}

// brokenPlugins times warm `caps list` on 1,000 capabilities with 400
// broken plugins against the same workspace without them, alternating, and
// counts the log lines a warm start writes.
func (r *runner) brokenPlugins(ctx context.Context, bin string) []Row {
	measure := fmt.Sprintf("start-up (`caps list`), %d broken plugins among %s capabilities", brokenPlugins, FormatInt(brokenCaps))
	caps := captest.Generate(brokenCaps, 50, r.cfg.Seed)
	clean, err := agedWorkspace(filepath.Join(r.tmp, "broken-none"), caps)
	if err != nil {
		return []Row{errorRow(sectionScale, measure, err)}
	}
	defer os.RemoveAll(clean)
	// The same capabilities, 400 of those declaring tools without a plugin
	// given a plugin that does not compile.
	var broken []captest.Capability
	nb := 0
	for _, c := range caps {
		if c.Plugin == "" && c.Tools > 0 && nb < brokenPlugins {
			c.Plugin = fmt.Sprintf("package %s\n\nfunc Init( {\n", strings.ReplaceAll(c.Name, "-", "_"))
			nb++
		}
		broken = append(broken, c)
	}
	bad, err := agedWorkspace(filepath.Join(r.tmp, "broken-400"), broken)
	if err != nil {
		return []Row{errorRow(sectionScale, measure, err)}
	}
	defer os.RemoveAll(bad)
	runs := r.registryRuns(brokenCaps)
	if !r.cfg.Short {
		runs = 11
	}
	var with, without, withCPUs, withoutCPUs []time.Duration
	var linesFirst, linesWarm int
	logFile := workspace.Workspace{Root: bad}.Log()
	for i := -2; i < runs; i++ {
		before := countLines(logFile)
		d, c, _, err := runTimed(ctx, bin, "caps", "list", "--workspace", bad)
		if err != nil {
			return []Row{errorRow(sectionScale, measure, err)}
		}
		lines := countLines(logFile) - before
		d2, c2, _, err := runTimed(ctx, bin, "caps", "list", "--workspace", clean)
		if err != nil {
			return []Row{errorRow(sectionScale, measure, err)}
		}
		switch {
		case i == -2:
			linesFirst = lines
		case i >= 0:
			linesWarm = max(linesWarm, lines)
			with, without = append(with, d), append(without, d2)
			withCPUs, withoutCPUs = append(withCPUs, c), append(withoutCPUs, c2)
		}
	}
	ratio := float64(Median(with)) / float64(Median(without))
	return []Row{{
		Section: sectionScale, Measure: measure,
		Value: fmt.Sprintf("%s (×%.2f; CPU %s, ×%.2f)", FormatDuration(Median(with)), ratio, FormatDuration(Median(withCPUs)), float64(Median(withCPUs))/float64(max(Median(withoutCPUs), 1))), Number: ratio, Unit: "×",
		Baseline: "same workspace without them " + withCPU(Median(without), Median(withoutCPUs)),
		Target:   fmt.Sprintf("≤ ×%.1f", brokenRatioTarget), Pass: verdict(ratio <= brokenRatioTarget),
		Note: fmt.Sprintf("median wall time of %d warm new processes each, alternating; the broken workspace is the other with a plugin that does not compile added to %d capabilities; log lines: %d on the first start, at most %d on a later one",
			runs, nb, linesFirst, linesWarm),
	}}
}

// countLines counts the lines of a file (0 if it does not exist).
func countLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		n++
	}
	return n
}
