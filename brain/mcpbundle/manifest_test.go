package mcpbundle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const minimal = `{"manifest_version":"0.3","name":"demo","version":"1.0.0","description":"d","author":{"name":"a"},
 "server":{"type":"node","entry_point":"server/index.js","mcp_config":{"command":"node","args":["${__dirname}/server/index.js"]}}%s}`

func TestParseManifest(t *testing.T) {
	files := map[string]bool{"server/index.js": true, "manifest.json": true}
	cases := []struct {
		name string
		json string
		goos string
		err  error
		says []string
	}{
		{name: "minimal", json: strings.Replace(minimal, "%s", "", 1)},
		{name: "dxt_version", json: strings.Replace(strings.Replace(minimal, "%s", "", 1), `"manifest_version"`, `"dxt_version"`, 1)},
		{name: "all types", json: strings.Replace(minimal, "%s", `,"user_config":{
			"k":{"type":"string","title":"K","sensitive":true,"required":true},
			"n":{"type":"number","title":"N","default":5,"min":1,"max":9},
			"b":{"type":"boolean","title":"B","default":true},
			"d":{"type":"directory","title":"D","multiple":true,"default":["${HOME}/x"]},
			"f":{"type":"file","title":"F"}}`, 1)},
		{name: "nothing", json: `{}`, err: ErrManifest,
			says: []string{"manifest_version: missing", "name: missing", "version: missing", "description: missing", "author.name: missing", "server.type: missing", "server.entry_point: missing", "server.mcp_config.command: missing"}},
		{name: "not JSON", json: `{"name":`, err: ErrManifest, says: []string{"not valid JSON"}},
		{name: "unknown version", json: strings.Replace(strings.Replace(minimal, "%s", "", 1), `"0.3"`, `"9.9"`, 1), err: ErrManifest, says: []string{`"9.9" is not a version`}},
		{name: "bad server type", json: strings.Replace(strings.Replace(minimal, "%s", "", 1), `"type":"node"`, `"type":"ruby"`, 1), err: ErrManifest, says: []string{`"ruby" is not node, python or binary`}},
		{name: "uv", json: strings.Replace(strings.Replace(minimal, "%s", "", 1), `"type":"node"`, `"type":"uv"`, 1), err: ErrUnsupported},
		{name: "entry point missing from the archive", json: strings.Replace(strings.Replace(minimal, "%s", "", 1), `"server/index.js","mcp`, `"server/main.js","mcp`, 1), err: ErrManifest, says: []string{`"server/main.js" is not in the bundle`}},
		{name: "entry point escapes", json: strings.Replace(strings.Replace(minimal, "%s", "", 1), `"server/index.js","mcp`, `"../index.js","mcp`, 1), err: ErrManifest, says: []string{"not a relative path inside the bundle"}},
		{name: "undeclared user_config", json: strings.Replace(strings.Replace(minimal, "%s", "", 1), `"args":[`, `"args":["${user_config.token}",`, 1), err: ErrManifest, says: []string{"user_config does not declare token"}},
		{name: "option type", json: strings.Replace(minimal, "%s", `,"user_config":{"k":{"type":"secret","title":"K"}}`, 1), err: ErrManifest, says: []string{`user_config.k.type: "secret" is not`}},
		{name: "option without title", json: strings.Replace(minimal, "%s", `,"user_config":{"k":{"type":"string"}}`, 1), err: ErrManifest, says: []string{"user_config.k.title: missing"}},
		{name: "default of the wrong type", json: strings.Replace(minimal, "%s", `,"user_config":{"n":{"type":"number","title":"N","default":"ten"}}`, 1), err: ErrManifest, says: []string{`user_config.n.default: "ten" is not a number`}},
		{name: "default out of range", json: strings.Replace(minimal, "%s", `,"user_config":{"n":{"type":"number","title":"N","default":50,"max":10}}`, 1), err: ErrManifest, says: []string{"over the maximum 10"}},
		{name: "min over max", json: strings.Replace(minimal, "%s", `,"user_config":{"n":{"type":"number","title":"N","min":5,"max":1}}`, 1), err: ErrManifest, says: []string{"min 5 is over max 1"}},
		{name: "sensitive number", json: strings.Replace(minimal, "%s", `,"user_config":{"n":{"type":"number","title":"N","sensitive":true}}`, 1), err: ErrManifest, says: []string{"only a string can be sensitive"}},
		{name: "multiple string", json: strings.Replace(minimal, "%s", `,"user_config":{"s":{"type":"string","title":"S","multiple":true}}`, 1), err: ErrManifest, says: []string{"only directory and file"}},
		{name: "another platform", json: strings.Replace(minimal, "%s", `,"compatibility":{"platforms":["darwin"]}`, 1), goos: "linux", err: ErrUnsupported, says: []string{"darwin only"}},
		{name: "this platform", json: strings.Replace(minimal, "%s", `,"compatibility":{"platforms":["win32"]}`, 1), goos: "windows"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseManifest([]byte(tc.json), files, tc.goos)
			if tc.err == nil {
				if err != nil || m == nil {
					t.Fatalf("ParseManifest: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.err) {
				t.Fatalf("err %v; want %v", err, tc.err)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
		})
	}
}

func TestCapabilityName(t *testing.T) {
	for in, want := range map[string]string{
		"demo": "demo", "My MCP Extension": "my-mcp-extension", "  --a__b--  ": "a-b", "日本": "", strings.Repeat("ab-", 40): strings.TrimRight(strings.Repeat("ab-", 40)[:64], "-"),
	} {
		if got := CapabilityName(in); got != want {
			t.Errorf("CapabilityName(%q) = %q; want %q", in, got, want)
		}
	}
}

func planOf(t *testing.T, userConfig, mcpConfig string) *Bundle {
	t.Helper()
	js := `{"manifest_version":"0.3","name":"demo","version":"1","description":"d","author":{"name":"a"},
	  "server":{"type":"node","entry_point":"server/index.js","mcp_config":` + mcpConfig + `},"user_config":` + userConfig + `}`
	m, err := ParseManifest([]byte(js), nil, "linux")
	if err != nil {
		t.Fatal(err)
	}
	return &Bundle{Manifest: m, Name: "demo"}
}

func TestPlan(t *testing.T) {
	home := t.TempDir()
	docs := filepath.Join(home, "Documents")
	if err := os.Mkdir(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	dirs := Folders{Home: home, Documents: docs}
	const uc = `{"key":{"type":"string","title":"Key","sensitive":true},"n":{"type":"number","title":"N","default":3,"min":1,"max":5},
	  "on":{"type":"boolean","title":"On","default":false},"dirs":{"type":"directory","title":"Dirs","multiple":true,"default":["${DOCUMENTS}"]}}`
	const cfg = `{"command":"node","args":["${__dirname}/server/index.js","${user_config.dirs}","--n=${user_config.n}"],
	  "env":{"TOKEN":"Bearer ${user_config.key}","ON":"${user_config.on}","DATA":"${__dirname}/data"}}`
	cases := []struct {
		name    string
		answers Answers
		args    string
		env     string
		secrets string
		err     error
		says    string
	}{
		{name: "defaults", args: "server/index.js " + docs + " --n=3", env: "DATA=data ON=false"},
		{name: "answers", answers: Answers{"key": {"s3cret"}, "n": {"5"}, "on": {"true"}, "dirs": {home, docs}},
			args: "server/index.js " + home + " " + docs + " --n=5", env: "DATA=data ON=true TOKEN=Bearer ${secret:mcp.demo.key}", secrets: "mcp.demo.key=s3cret"},
		{name: "number out of range", answers: Answers{"n": {"7"}}, err: ErrAnswer, says: "N (n): 7 is over the maximum 5"},
		{name: "not a number", answers: Answers{"n": {"x"}}, err: ErrAnswer, says: `"x" is not a number`},
		{name: "not a boolean", answers: Answers{"on": {"yes"}}, err: ErrAnswer, says: `"yes" is not true or false`},
		{name: "missing folder", answers: Answers{"dirs": {filepath.Join(home, "nope")}}, err: ErrAnswer, says: "no such file"},
		{name: "relative folder", answers: Answers{"dirs": {"docs"}}, err: ErrAnswer, says: "not an absolute path"},
		{name: "unknown key", answers: Answers{"other": {"1"}}, err: ErrAnswer, says: "other is not a setting"},
		{name: "two values for one", answers: Answers{"n": {"1", "2"}}, err: ErrAnswer, says: "takes one value"},
	}
	b := planOf(t, uc, cfg)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := b.Plan(tc.answers, dirs)
			if tc.err != nil {
				if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.says) {
					t.Fatalf("err %v; want %v saying %q", err, tc.err, tc.says)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if l.Command != "node" || strings.Join(l.Args, " ") != tc.args {
				t.Errorf("command %s %q; want node %q", l.Command, l.Args, tc.args)
			}
			if got := joinMap(l.Env); got != tc.env {
				t.Errorf("env %q; want %q", got, tc.env)
			}
			if got := joinMap(l.Secrets); got != tc.secrets {
				t.Errorf("secrets %q; want %q", got, tc.secrets)
			}
			if _, err := b.SkillMD(l); err != nil {
				t.Errorf("SkillMD: %v", err)
			}
		})
	}
	// A sensitive value on the command line is refused, never written.
	bad := planOf(t, `{"key":{"type":"string","title":"Key","sensitive":true}}`, `{"command":"node","args":["--key","${user_config.key}"]}`)
	if _, err := bad.Plan(Answers{"key": {"s3cret"}}, dirs); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("sensitive in args: %v; want ErrUnsupported", err)
	}
	// A binary runs from the folder, not from PATH.
	bin := planOf(t, `{}`, `{"command":"${__dirname}/server/tool","args":[]}`)
	bin.Manifest.Server.Type = "binary"
	if l, err := bin.Plan(nil, dirs); err != nil || l.Command != "./server/tool" {
		t.Fatalf("binary: %+v, %v; want ./server/tool", l, err)
	}
}

func joinMap(m map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, " ")
}
