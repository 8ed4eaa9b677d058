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
		{"stdio", "  command: node\n  args: [dist/index.js, '${secret:tok}']\n  env: {API_KEY: '${secret:key}', MODE: fast}\n  cwd: work\n  idle: 5m\n  timeouts: {connect: 10s, call: 3m}\n",
			&MCPServer{Command: "node", Args: []string{"dist/index.js", "${secret:tok}"}, Env: map[string]string{"API_KEY": "${secret:key}", "MODE": "fast"},
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
