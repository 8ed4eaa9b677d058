package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
	wmcp "github.com/wrasse-app/wrasse/plugins/mcp"
)

// SecMCP is the MCP section.
const SecMCP = "mcp"

const sectionMCP = "MCP servers"

// mcpRatioTarget bounds Wrasse's connect and list against the bare SDK's.
const mcpRatioTarget = 1.2

// mcpCaps is how many capabilities the caps list comparison installs.
const mcpCaps = 20

// mcpSection measures connect + list through Wrasse against the bare SDK
// on the same server (an in-process Go server, and server-everything over
// stdio when it is installed), Wrasse against itself on a streamable-HTTP
// server with a stored OAuth token and without auth, and `wrasse caps list` with 20 MCP
// capabilities against 20 guides.
func (r *runner) mcpSection(ctx context.Context) []Row {
	runs := 200
	if r.cfg.Short {
		runs = 20
	}
	rows := []Row{mcpInProcess(ctx, runs), mcpOAuth(ctx, runs)}
	if entry := everythingEntry(); entry != "" {
		n := 10
		if r.cfg.Short {
			n = 3
		}
		rows = append(rows, mcpStdio(ctx, entry, n))
	}
	bin := r.cfg.Wrasse
	if bin == "" {
		var err error
		if bin, err = buildWrasse(ctx, r.cfg.Repo, r.tmp); err != nil {
			return append(rows, errorRow(sectionMCP, "`wrasse caps list`, 20 MCP vs 20 guides", err))
		}
	}
	return append(rows, mcpCapsList(ctx, bin, r.tmp, r.plan.startupRuns))
}

// everythingEntry is server-everything's entry point in the test cache
// (see plugins/mcp's npm tests), or "".
func everythingEntry() string {
	dir := os.Getenv("WRASSE_TEST_NPM_CACHE")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".cache", "wrasse-test-npm")
	}
	p := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	if _, err := exec.LookPath("node"); err != nil {
		return ""
	}
	return p
}

// benchServer is the in-process server both sides connect to.
func benchServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	for i := range 20 {
		s.AddTool(&sdk.Tool{Name: fmt.Sprintf("tool_%02d", i), Description: "A benchmark tool.", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{}, nil
			})
	}
	return s
}

// mcpWorkspace writes one MCP capability and returns it loaded.
func mcpCapability(dir, name, block string) (*cerebellum.Capability, *cerebellum.Registry, error) {
	capDir := filepath.Join(cerebellum.CapabilitiesDir(dir), name)
	if err := os.MkdirAll(capDir, 0o755); err != nil {
		return nil, nil, err
	}
	skill := "---\nname: " + name + "\ndescription: Benchmark server.\nmcp:\n" + block + "---\n"
	if err := os.WriteFile(filepath.Join(capDir, "SKILL.md"), []byte(skill), 0o644); err != nil {
		return nil, nil, err
	}
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: dir, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: wmcp.NewLoader(wmcp.Options{})}})
	if err != nil {
		return nil, nil, err
	}
	c, err := reg.Get(name)
	return c, reg, err
}

// bareConnectList is the SDK alone: connect and list every tool (timed),
// then close (not timed, as Report.Elapsed does not count it either).
func bareConnectList(ctx context.Context, t sdk.Transport) (time.Duration, error) {
	t0 := time.Now()
	c := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := c.Connect(ctx, t, nil)
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	for _, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return 0, err
		}
	}
	return time.Since(t0), nil
}

// wrasseConnectList is Wrasse's Probe: connect, list, close; Elapsed
// counts connect and list.
func wrasseConnectList(ctx context.Context, l *wmcp.Loader, c *cerebellum.Capability, dir string) (time.Duration, error) {
	rep, err := l.Probe(ctx, cerebellum.LoadRequest{Capability: c, Workspace: dir})
	return rep.Elapsed, err
}

func mcpInProcess(ctx context.Context, runs int) Row {
	const measure = "connect + list tools, in-process server (Wrasse / bare SDK)"
	srv := benchServer()
	dial := func(ctx context.Context, _ string) (sdk.Transport, error) {
		st, ct := sdk.NewInMemoryTransports()
		if _, err := srv.Connect(ctx, st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}
	dir, err := os.MkdirTemp("", "wrasse-bench-mcp-")
	if err != nil {
		return errorRow(sectionMCP, measure, err)
	}
	defer os.RemoveAll(dir)
	c, reg, err := mcpCapability(dir, "bench", "  command: unused\n")
	if err != nil {
		return errorRow(sectionMCP, measure, err)
	}
	defer reg.Close()
	loader := wmcp.NewLoader(wmcp.Options{Dial: dial})
	wrasse := func() (time.Duration, error) { return wrasseConnectList(ctx, loader, c, dir) }
	bare := func() (time.Duration, error) {
		// Wrasse's timer includes its dial, and so the in-process server's
		// session start: time the bare client's dial the same way.
		t0 := time.Now()
		t, err := dial(ctx, "")
		if err != nil {
			return 0, err
		}
		dialed := time.Since(t0)
		d, err := bareConnectList(ctx, t)
		return dialed + d, err
	}
	return ratioRow(measure, runs, wrasse, bare)
}

func mcpStdio(ctx context.Context, entry string, runs int) Row {
	const measure = "connect + list tools, server-everything over stdio (Wrasse / bare SDK)"
	dir, err := os.MkdirTemp("", "wrasse-bench-mcp-")
	if err != nil {
		return errorRow(sectionMCP, measure, err)
	}
	defer os.RemoveAll(dir)
	c, reg, err := mcpCapability(dir, "everything", "  command: node\n  args: ["+entry+"]\n")
	if err != nil {
		return errorRow(sectionMCP, measure, err)
	}
	defer reg.Close()
	loader := wmcp.NewLoader(wmcp.Options{})
	wrasse := func() (time.Duration, error) { return wrasseConnectList(ctx, loader, c, dir) }
	bare := func() (time.Duration, error) {
		cmd := exec.Command("node", entry)
		return bareConnectList(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: wmcp.DefaultTerminate})
	}
	return ratioRow(measure, runs, wrasse, bare)
}

// ratioRow runs a and b alternately (each timing itself) and compares
// their medians.
func ratioRow(measure string, runs int, a, b func() (time.Duration, error)) Row {
	var da, db []time.Duration
	for range runs {
		for _, side := range []struct {
			f  func() (time.Duration, error)
			ds *[]time.Duration
		}{{a, &da}, {b, &db}} {
			d, err := side.f()
			if err != nil {
				return errorRow(sectionMCP, measure, err)
			}
			*side.ds = append(*side.ds, d)
		}
	}
	ma, mb := Median(da), Median(db)
	ratio := float64(ma) / float64(mb)
	return Row{Section: sectionMCP, Measure: measure, Value: fmt.Sprintf("%s (%.2f×)", FormatDuration(ma), ratio),
		Baseline: "bare SDK " + FormatDuration(mb), Target: fmt.Sprintf("≤ %.1f×", mcpRatioTarget), Pass: verdict(ratio <= mcpRatioTarget),
		Number: ratio, Unit: "ratio", Note: fmt.Sprintf("median of %d runs each, alternating", runs)}
}

// mcpCapsList times `wrasse caps list` on 20 MCP capabilities whose
// command would leave a mark if it ran, and on 20 guides.
func mcpCapsList(ctx context.Context, bin, tmp string, runs int) Row {
	const measure = "`wrasse caps list`, 20 MCP capabilities (20 guides)"
	mcpWS, guideWS := filepath.Join(tmp, "mcp-caps"), filepath.Join(tmp, "guide-caps")
	marks := filepath.Join(tmp, "mcp-marks")
	if err := os.MkdirAll(marks, 0o755); err != nil {
		return errorRow(sectionMCP, measure, err)
	}
	for i := range mcpCaps {
		name := fmt.Sprintf("server-%02d", i)
		mcpSkill := fmt.Sprintf("---\nname: %s\ndescription: MCP server number %d.\nmcp:\n  command: sh\n  args: [-c, 'touch %s']\n---\n", name, i, filepath.Join(marks, name))
		guideSkill := fmt.Sprintf("---\nname: %s\ndescription: Guide number %d.\n---\n# Guide\n\nDo the thing.\n", name, i)
		for ws, skill := range map[string]string{mcpWS: mcpSkill, guideWS: guideSkill} {
			d := filepath.Join(cerebellum.CapabilitiesDir(ws), name)
			if err := os.MkdirAll(d, 0o755); err != nil {
				return errorRow(sectionMCP, measure, err)
			}
			if err := os.WriteFile(filepath.Join(d, "SKILL.md"), []byte(skill), 0o644); err != nil {
				return errorRow(sectionMCP, measure, err)
			}
		}
	}
	var dm, dg []time.Duration
	for range max(runs, 3) {
		for _, side := range []struct {
			ws string
			ds *[]time.Duration
		}{{mcpWS, &dm}, {guideWS, &dg}} {
			d, _, err := runWall(ctx, bin, "caps", "list", "--workspace", side.ws)
			if err != nil {
				return errorRow(sectionMCP, measure, err)
			}
			*side.ds = append(*side.ds, d)
		}
	}
	started, _ := os.ReadDir(marks)
	mm, mg := Median(dm), Median(dg)
	// "No more than with guides", within the noise of process start.
	ok := len(started) == 0 && float64(mm) <= float64(mg)*1.1
	note := fmt.Sprintf("median of %d runs each; servers started: %d", len(dm), len(started))
	if len(started) > 0 {
		names := make([]string, 0, len(started))
		for _, e := range started {
			names = append(names, e.Name())
		}
		note += " (" + strings.Join(names, ", ") + ")"
	}
	return Row{Section: sectionMCP, Measure: measure, Value: FormatDuration(mm), Baseline: "20 guides " + FormatDuration(mg),
		Target: "no server started, ≤ guides (+10% noise)", Pass: verdict(ok), Number: float64(mm) / float64(mg), Unit: "ratio", Note: note}
}
