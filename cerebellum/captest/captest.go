package captest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

var (
	verbs = []string{"read", "write", "list", "create", "delete", "update", "search", "convert", "send", "fetch",
		"resize", "merge", "split", "translate", "summarize", "schedule", "analyze", "export", "import", "sync",
		"compress", "encrypt", "render", "transcribe", "index", "monitor", "backup", "restore", "deploy", "validate"}
	objects = []string{"files", "images", "videos", "emails", "calendar events", "spreadsheets", "pdf documents",
		"invoices", "contacts", "tasks", "notes", "issues", "pull requests", "playlists", "photos", "recipes",
		"flights", "hotels", "weather forecasts", "stock quotes", "news articles", "podcasts", "tweets", "messages",
		"databases", "containers", "servers", "logs", "metrics", "tickets", "orders", "products", "maps", "routes"}
	domains = []string{"cloud", "local", "team", "personal", "project", "shared", "remote", "secure", "quick",
		"smart", "batch", "live", "daily", "open", "media", "office", "travel", "finance", "health", "dev"}
	nouns = []string{"drive", "mail", "chat", "vault", "board", "tracker", "studio", "hub", "desk", "lab", "kit",
		"box", "flow", "sync", "cast", "pad", "notes", "docs", "sheets", "shop", "bank", "map", "feed", "pilot"}
	fillers = []string{"with filters and sorting", "in bulk", "from the command line", "using the official API",
		"with preview before changes", "for the current user", "across accounts", "with progress reporting",
		"and keep a history", "safely with confirmation", "with retries on failure", "in the background"}
)

// Capability is one generated capability folder.
type Capability struct {
	Name  string
	Tools int
	// SkillMD is the SKILL.md text.
	SkillMD string
	// Plugin is plugin/main.go source ("" for none).
	Plugin string
}

// Generate returns n capabilities. The first `plugins` of those with tools
// get a plugin whose tools return a constant, so they load and run.
func Generate(n, plugins int, seed int64) []Capability {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	out := make([]Capability, 0, n)
	used := map[string]bool{}
	withPlugin := 0
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s-%s", pick(rng, domains), pick(rng, nouns))
		for used[name] {
			name = fmt.Sprintf("%s-%s-%d", pick(rng, domains), pick(rng, nouns), i)
		}
		used[name] = true
		tools := rng.IntN(21)
		if withPlugin < plugins && tools == 0 {
			tools = 1 + rng.IntN(5)
		}
		c := Capability{Name: name, Tools: tools}
		c.SkillMD = skill(rng, name, tools)
		if tools > 0 && withPlugin < plugins {
			c.Plugin = plugin(name, tools)
			withPlugin++
		}
		out = append(out, c)
	}
	return out
}

func pick(rng *rand.Rand, list []string) string { return list[rng.IntN(len(list))] }

func toolName(capName string, i int) string {
	return strings.ReplaceAll(capName, "-", "_") + fmt.Sprintf("_t%d", i)
}

func sentence(rng *rand.Rand) string {
	return fmt.Sprintf("%s %s %s", pick(rng, verbs), pick(rng, objects), pick(rng, fillers))
}

func skill(rng *rand.Rand, name string, tools int) string {
	var b strings.Builder
	desc := fmt.Sprintf("%s and %s. Use when the user wants to %s or %s.",
		cap1(sentence(rng)), sentence(rng), pick(rng, verbs)+" "+pick(rng, objects), pick(rng, verbs)+" "+pick(rng, objects))
	fmt.Fprintf(&b, "---\nname: %s\ndescription: %q\nversion: 1.0.0\n", name, desc)
	fmt.Fprintf(&b, "keywords: [%s, %s, %s]\n", pick(rng, verbs), strings.Fields(pick(rng, objects))[0], pick(rng, domains))
	if tools > 0 {
		b.WriteString("tools:\n")
		for i := 0; i < tools; i++ {
			fmt.Fprintf(&b, "  - name: %s\n    description: %q\n", toolName(name, i), cap1(sentence(rng))+".")
			b.WriteString("    parameters:\n      type: object\n      properties:\n")
			fmt.Fprintf(&b, "        target:\n          type: string\n          description: %q\n", "Which "+pick(rng, objects)+" to use.")
			b.WriteString("        limit:\n          type: integer\n          description: Maximum number of results.\n")
			b.WriteString("      required: [target]\n")
		}
	}
	fmt.Fprintf(&b, "---\n# %s\n\n%s.\n\n## Steps\n\n1. %s.\n2. %s.\n", name, cap1(sentence(rng)), cap1(sentence(rng)), cap1(sentence(rng)))
	return b.String()
}

func plugin(name string, tools int) string {
	var b strings.Builder
	pkg := strings.ReplaceAll(name, "-", "_")
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"context\"\n\n\t\"github.com/wrasse-app/wrasse/plugins/sdk\"\n)\n\n", pkg)
	b.WriteString("// Init registers every tool.\nfunc Init(env *sdk.Env) (*sdk.Plugin, error) {\n\tp := sdk.NewPlugin()\n")
	for i := 0; i < tools; i++ {
		fmt.Fprintf(&b, "\tp.Handle(%q, handle)\n", toolName(name, i))
	}
	b.WriteString("\treturn p, nil\n}\n\nfunc handle(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {\n\treturn sdk.Text(\"ok \" + req.String(\"target\", \"\")), nil\n}\n")
	return b.String()
}

func cap1(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Write writes capabilities as folders under dir (a workspace's brain/cerebellum).
func Write(dir string, caps []Capability) error {
	for _, c := range caps {
		d := filepath.Join(dir, c.Name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "SKILL.md"), []byte(c.SkillMD), 0o644); err != nil {
			return err
		}
		if c.Plugin != "" {
			if err := os.MkdirAll(filepath.Join(d, "plugin"), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(d, "plugin", "main.go"), []byte(c.Plugin), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
