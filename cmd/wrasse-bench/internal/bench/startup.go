package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
)

const sectionStartup = "start-up"

// startupTarget bounds a cold `wrasse caps list` on the 1,000-capability
// workspace.
const startupTarget = 200 * time.Millisecond

// Size of the start-up (and registry memory) workspace.
const (
	startupCaps    = 1000
	startupPlugins = 50
)

// goTool finds the go command: on PATH, else in the GOROOT this program was
// built with.
func goTool() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	//lint:ignore SA1019 the bench runs where it was built, so the build's GOROOT is the one to try
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if isFile(p) {
		return p, nil
	}
	return "", fmt.Errorf("the go command is not on PATH: install Go or pass --wrasse BINARY")
}

// buildWrasse builds ./cmd/wrasse from repo into dir and returns the binary.
func buildWrasse(ctx context.Context, repo, dir string) (string, error) {
	if repo == "" {
		return "", fmt.Errorf("%w: cannot build cmd/wrasse; pass --repo or --wrasse", ErrNoRepo)
	}
	goBin, err := goTool()
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "wrasse")
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	cmd := exec.CommandContext(ctx, goBin, "build", "-o", out, "./cmd/wrasse")
	cmd.Dir = repo
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/wrasse: %w: %s", err, strings.TrimSpace(msg.String()))
	}
	return out, nil
}

// startupWorkspace writes the 1,000-capability workspace (50 with plugins)
// under root.
func startupWorkspace(root string, seed int64) (string, error) {
	return writeWorkspace(root, captest.Generate(startupCaps, startupPlugins, seed))
}

// runWall runs bin with args to completion and returns its wall time and
// peak resident set in KiB (0 when unknown).
//
// Go starts children with vfork, so until exec the child shares this
// process's memory, and Linux carries that memory's high-water mark across
// exec into the child's ru_maxrss. The child's figure is its own only when
// it exceeds this process's peak; otherwise it is reported as unknown.
func runWall(ctx context.Context, bin string, args ...string) (time.Duration, int, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	var errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &errOut
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	if err != nil {
		return 0, 0, fmt.Errorf("%s %s: %w: %s", filepath.Base(bin), strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	rss, ok := maxRSSKB(cmd.ProcessState)
	if self, selfOK, _ := readVmHWM(); !ok || !selfOK || rss <= self {
		rss = 0
	}
	return d, rss, nil
}

// capsListRSS is the peak resident memory of `wrasse caps list` processes.
type capsListRSS struct {
	Full, Empty int // KiB, the largest seen; 0 if unknown
}

// startupMeasure names the start-up row.
var startupMeasure = fmt.Sprintf("`wrasse caps list`, %s capabilities (%d plugins)", FormatInt(startupCaps), startupPlugins)

// startup times new `wrasse caps list` processes on ws and on an empty
// workspace, alternating, after one untimed run of each (which creates the
// database, config, log and manifest cache, and warms the page cache). A
// third series removes the manifest cache before each run: the first start
// after every SKILL.md changed.
func startup(ctx context.Context, bin, ws, empty string, runs int) ([]Row, capsListRSS) {
	cache := workspace.Workspace{Root: ws}.ManifestCache()
	var full, base, nocache []time.Duration
	var rss capsListRSS
	for i := -1; i < runs; i++ {
		for _, w := range []string{ws, empty, ws + "#nocache"} {
			dir, cold := strings.CutSuffix(w, "#nocache")
			if cold {
				if err := os.Remove(cache); err != nil && !os.IsNotExist(err) {
					return []Row{errorRow(sectionStartup, startupMeasure, err)}, capsListRSS{}
				}
			}
			d, kB, err := runWall(ctx, bin, "caps", "list", "--workspace", dir)
			if err != nil {
				return []Row{errorRow(sectionStartup, startupMeasure, err)}, capsListRSS{}
			}
			if i < 0 {
				continue
			}
			switch {
			case cold:
				nocache = append(nocache, d)
			case w == ws:
				full = append(full, d)
				rss.Full = max(rss.Full, kB)
			default:
				base = append(base, d)
				rss.Empty = max(rss.Empty, kB)
			}
		}
	}
	baseline := fmt.Sprintf("empty workspace %s (min %s)", FormatDuration(Median(base)), FormatDuration(Min(base)))
	med, coldMed := Median(full), Median(nocache)
	return []Row{{
		Section: sectionStartup, Measure: startupMeasure,
		Value: fmt.Sprintf("%s (min %s)", FormatDuration(med), FormatDuration(Min(full))), Number: ms(med), Unit: "ms",
		Baseline: baseline, Target: "≤ " + FormatDuration(startupTarget), Pass: verdict(med <= startupTarget),
		Note: fmt.Sprintf("start-up: median and minimum wall time of %d new processes each (page cache warm), from exec to exit, output discarded; the manifest cache (<workspace>/.cache/manifests.json) is as the previous run left it, as on every start but the first", runs),
	}, {
		Section: sectionStartup, Measure: "same, first start (no manifest cache)",
		Value: fmt.Sprintf("%s (min %s)", FormatDuration(coldMed), FormatDuration(Min(nocache))), Number: ms(coldMed), Unit: "ms",
		Baseline: baseline,
		Note:     "first start: the manifest cache removed before each run, so every SKILL.md is parsed (YAML) and the cache written again",
	}}, rss
}

// inProcessOpen times opening the registry on ws inside this process, to
// separate scanning from process start and the rest of `caps list`: with
// the manifest cache as the start-up runs left it, and without.
func inProcessOpen(ws string, runs int) Row {
	measure := "registry open in-process, same workspace"
	cache := workspace.Workspace{Root: ws}.ManifestCache()
	var warm, cold []time.Duration
	var reg *cerebellum.Registry
	for i := -1; i < max(runs, 1); i++ {
		for _, noCache := range []bool{true, false} {
			if noCache {
				if err := os.Remove(cache); err != nil && !os.IsNotExist(err) {
					return errorRow(sectionStartup, measure, err)
				}
			}
			t0 := time.Now()
			r, err := openRegistry(ws, newHost())
			d := time.Since(t0)
			if err != nil {
				return errorRow(sectionStartup, measure, err)
			}
			if reg != nil {
				reg.Close()
			}
			reg = r
			switch {
			case i < 0: // warm-up
			case noCache:
				cold = append(cold, d)
			default:
				warm = append(warm, d)
			}
		}
	}
	defer reg.Close()
	ok, failed := 0, 0
	for _, c := range reg.List() {
		if c.Usable() {
			ok++
		} else {
			failed++
		}
	}
	med := Median(warm)
	return Row{
		Section: sectionStartup, Measure: measure,
		Value: fmt.Sprintf("%s (min %s)", FormatDuration(med), FormatDuration(Min(warm))), Number: ms(med), Unit: "ms",
		Baseline: fmt.Sprintf("no manifest cache %s (min %s)", FormatDuration(Median(cold)), FormatDuration(Min(cold))),
		Note: fmt.Sprintf("in-process: cerebellum.Open wired as the app wires it, %d times each with the manifest cache and without; the start-up workspace holds %d capabilities with the built-ins: %d usable, %d failed (the generator gives tools to capabilities without a plugin, which the registry marks failed); scanning parses on %d cores",
			max(runs, 1), ok+failed, ok, failed, runtime.GOMAXPROCS(0)),
	}
}

// ms converts d to milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
