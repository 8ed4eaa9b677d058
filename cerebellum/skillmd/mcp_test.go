package skillmd

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseMCPBlock(t *testing.T) {
	head := "---\nname: srv\ndescription: A server.\nmcp:\n"
	for _, tc := range []struct {
		name  string
		block string
		want  *MCPServer
		err   string // part of the error, "" for none
	}{
		{"stdio", "  command: node\n  args: [dist/index.js, --fast]\n  env: {API_KEY: '${secret:key}', MODE: fast}\n  cwd: work\n  idle: 5m\n  timeouts: {connect: 10s, call: 3m}\n",
			&MCPServer{Command: "node", Args: []string{"dist/index.js", "--fast"}, Env: map[string]string{"API_KEY": "${secret:key}", "MODE": "fast"},
				Cwd: "work", Idle: 5 * time.Minute, ConnectTimeout: 10 * time.Second, CallTimeout: 3 * time.Minute}, ""},
		{"http", "  url: https://h.example/mcp\n  headers: {Authorization: 'Bearer ${secret:gh}'}\n",
			&MCPServer{URL: "https://h.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${secret:gh}"}}, ""},
		{"old secrets map", "  command: srv\n  secrets: {TOKEN: my_token}\n", &MCPServer{Command: "srv", Secrets: map[string]string{"TOKEN": "my_token"}}, ""},
		{"both", "  command: a\n  url: https://h.example\n", nil, "exactly one of command"},
		{"neither", "  args: [x]\n", nil, "exactly one of command"},
		{"not http", "  url: ftp://h.example\n", nil, "http:// or https://"},
		{"headers with command", "  command: a\n  headers: {A: b}\n", nil, "headers are for a url server"},
		{"env with url", "  url: https://h.example\n  env: {A: b}\n", nil, "for a local server"},
		{"bad timeout", "  command: a\n  timeouts: {call: soon}\n", nil, "mcp.timeouts.call"},
		// Process arguments are readable by every process (/proc/PID/cmdline).
		{"secret in args", "  command: node\n  args: [dist/index.js, '${secret:tok}']\n", nil, "SKILL.md:6:25: mcp.args[1]: a ${secret:…} cannot go in the command line"},
		{"secret inside an arg", "  command: node\n  args:\n    - --token=${secret:tok}\n", nil, "mcp.args[0]: a ${secret:…} cannot go in the command line"},
		{"secret in args points to env", "  command: node\n  args: ['${secret:tok}']\n", nil, "put it in env instead"},
		{"malformed secret in args", "  command: node\n  args: ['${secret:not valid}']\n", nil, "mcp.args[0]"},
		{"secret in command", "  command: '${secret:tok}'\n", nil, "mcp.command: a ${secret:…} cannot go in the command line"},
		{"secret in cwd", "  command: a\n  cwd: '/x/${secret:tok}'\n", nil, "mcp.cwd"},
		{"secret in url host", "  url: 'https://${secret:tok}.evil.example/mcp'\n", nil, "mcp.url: a ${secret:…} cannot go in the URL's host"},
		{"secret in url port", "  url: 'https://h.example:${secret:tok}/mcp'\n", nil, "mcp.url"},
		{"oauth pre-registered", "  url: https://h.example/mcp\n  oauth: {client_id: wrasse, client_secret: '${secret:cs}'}\n",
			&MCPServer{URL: "https://h.example/mcp", OAuth: &MCPOAuth{ClientID: "wrasse", ClientSecret: "${secret:cs}"}}, ""},
		{"oauth client metadata", "  url: https://h.example/mcp\n  oauth: {client_metadata_url: 'https://app.example/client.json'}\n",
			&MCPServer{URL: "https://h.example/mcp", OAuth: &MCPOAuth{ClientMetadataURL: "https://app.example/client.json"}}, ""},
		{"oauth secret value", "  url: https://h.example/mcp\n  oauth: {client_id: w, client_secret: hunter2}\n", nil, "mcp.oauth.client_secret: must reference a stored secret"},
		{"oauth secret without id", "  url: https://h.example/mcp\n  oauth: {client_secret: '${secret:cs}'}\n", nil, "client_secret needs the client_id"},
		{"oauth metadata over http", "  url: https://h.example/mcp\n  oauth: {client_metadata_url: 'http://app.example/c.json'}\n", nil, "must be an https:// address with a path"},
		{"oauth with command", "  command: a\n  oauth: {client_id: w}\n", nil, "oauth is for a url server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse([]byte(head+tc.block+"---\n"), Options{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v; want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m.MCP, tc.want) {
				t.Errorf("MCP = %+v\nwant  %+v", m.MCP, tc.want)
			}
		})
	}
}

func TestOAuthClientSecretIsASecretRef(t *testing.T) {
	s := &MCPServer{URL: "https://h.example/mcp", OAuth: &MCPOAuth{ClientID: "w", ClientSecret: "${secret:cs}"}}
	if got := strings.Join(s.SecretRefs(), ","); got != "cs" {
		t.Errorf("SecretRefs = %s; want cs", got)
	}
}

func TestSecretInURLPath(t *testing.T) {
	// A secret in the path or query goes to the written-out origin.
	m, err := Parse([]byte("---\nname: srv\ndescription: A server.\nmcp:\n  url: 'https://h.example/s/${secret:tok}/mcp?k=${secret:k}'\n---\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(m.MCP.SecretRefs(), ","); got != "k,tok" {
		t.Errorf("SecretRefs = %s", got)
	}
}

func TestSecretRefsAndExpand(t *testing.T) {
	s := &MCPServer{Command: "x", Args: []string{"--token=${secret:a}"}, Env: map[string]string{"K": "${secret:b}${secret:a}"}, Secrets: map[string]string{"T": "c"}}
	if got := strings.Join(s.SecretRefs(), ","); got != "a,b,c" {
		t.Errorf("SecretRefs = %s; want a,b,c", got)
	}
	out, err := ExpandSecrets("pre ${secret:a} ${secret:b} post", func(n string) (string, error) {
		if n == "b" {
			return "", errors.New("missing")
		}
		return "A", nil
	})
	if out != "pre A  post" || err == nil {
		t.Errorf("ExpandSecrets = %q, %v; want the found one expanded and an error for the missing one", out, err)
	}
}
