package bench

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wrasse-app/wrasse/plugins/codemode"
)

const usage = `usage:
  wrasse-bench [all] [flags]                 measure every section, print one table
  wrasse-bench search --tools FILE --queries FILE [--k 5] [--json]
                                             score tool_search, BM25 and substring
                                             on a data set in the MetaTool format
flags of all:
`

// Main is the command line: it returns the exit status (0 ran, 1 a
// measurement failed or, with --strict, a target was missed, 2 usage).
func Main(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if getenv(ChildEnv) != "" {
		if err := RunChild(ctx, args, stdout); err != nil {
			fmt.Fprintln(stderr, "wrasse-bench:", err)
			return 1
		}
		return 0
	}
	var err error
	switch {
	case len(args) > 0 && args[0] == codemode.ChildCommand:
		// run_go's program process, as the app's own subcommand.
		err = codemode.ServeChild(ctx, codemode.ChildPipes(stderr))
	case len(args) > 0 && args[0] == "search":
		err = searchMain(ctx, args[1:], stdout, stderr)
	case len(args) > 0 && strings.HasPrefix(args[0], "mem-"):
		err = RunChild(ctx, args, stdout)
	case len(args) > 0 && args[0] == "all":
		err = allMain(ctx, args[1:], stdout, stderr)
	default:
		err = allMain(ctx, args, stdout, stderr)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		fmt.Fprintln(stderr, "wrasse-bench:", err)
		return 2
	}
	fmt.Fprintln(stderr, "wrasse-bench:", err)
	return 1
}

func allMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wrasse-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	short := fs.Bool("short", false, "small sizes and few repetitions (what CI runs)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	asMD := fs.Bool("markdown", false, "print the table as Markdown (for docs/performance.md)")
	only := fs.String("only", "", "comma-separated sections to run: "+strings.Join(Sections, ","))
	repo := fs.String("repo", "", "repository root (default: found above the working folder)")
	metatool := fs.String("metatool", "", "MetaTool data folder (default: ../shared/data/metatool beside the repository, then the eval testdata copy)")
	wrasse := fs.String("wrasse", "", "a built wrasse binary (default: build ./cmd/wrasse)")
	strict := fs.Bool("strict", false, "exit 1 when a figure misses its target")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected %q (see wrasse-bench -h)", ErrUsage, strings.Join(fs.Args(), " "))
	}
	if *asJSON && *asMD {
		return fmt.Errorf("%w: choose --json or --markdown", ErrUsage)
	}
	cfg := Config{Short: *short, Repo: *repo, MetaTool: *metatool, Wrasse: *wrasse}
	if *only != "" {
		cfg.Only = strings.Split(*only, ",")
	}
	if !*quiet {
		cfg.Progress = stderr
	}
	if cfg.Repo == "" {
		if wd, err := os.Getwd(); err == nil {
			// Without the repository, start-up needs --wrasse and quality
			// --metatool; their rows say so.
			cfg.Repo, _ = FindRepo(wd)
		}
	}
	if self, err := os.Executable(); err == nil {
		// The measuring children are this program re-run, from a copy read
		// back from disk (see coldCopy) so their memory figures do not
		// depend on how this binary entered the page cache.
		if dir, err := os.MkdirTemp("", "wrasse-bench-self-"); err == nil {
			defer os.RemoveAll(dir)
			if cold, err := coldCopy(self, dir); err == nil {
				self = cold
			}
		}
		cfg.Child = SelfChild(self)
	}
	rep, err := Run(ctx, cfg)
	if err != nil {
		return err
	}
	switch {
	case *asJSON:
		err = WriteJSON(stdout, rep)
	case *asMD:
		err = WriteMarkdown(stdout, rep)
	default:
		err = WriteText(stdout, rep)
	}
	if err != nil {
		return err
	}
	if b := rep.Broken(); len(b) > 0 {
		return fmt.Errorf("%d measurement(s) failed: %s", len(b), measures(b))
	}
	if m := rep.Missed(); *strict && len(m) > 0 {
		return fmt.Errorf("%w: %s", ErrMissed, measures(m))
	}
	return nil
}

func measures(rows []Row) string {
	var s []string
	for _, r := range rows {
		s = append(s, r.Measure)
	}
	return strings.Join(s, "; ")
}

func searchMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wrasse-bench search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	tools := fs.String("tools", "", "JSON object of tool name → description")
	queries := fs.String("queries", "", "CSV with a Query,Tool header")
	k := fs.Int("k", 5, "recall@k to report beside recall@1")
	asJSON := fs.Bool("json", false, "print scores as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if *tools == "" || *queries == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: search needs --tools FILE and --queries FILE", ErrUsage)
	}
	if *k < 1 {
		return fmt.Errorf("%w: --k must be at least 1", ErrUsage)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "wrasse-bench-search-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	scores, err := SearchCommand(tmp, *tools, *queries, *k)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(scores)
	}
	return WriteScores(stdout, scores)
}
