package assistant

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// A file holding a stored secret in the encodings a command would use to
// slip it past exact-text redaction is read by a tool in a real turn: the
// tool result stored in the history, what the model is sent next, and the
// log file hold none of them.
func TestEncodedSecretsRedactedInHistoryAndLog(t *testing.T) {
	const secret = "gh-token-0123456789abcdef"
	a := openTest(t)
	if err := a.SetSecret("gh_token", secret); err != nil {
		t.Fatal(err)
	}
	enc := map[string]string{
		"reversed":       reverse(secret),
		"base64":         base64.StdEncoding.EncodeToString([]byte(secret)),
		"base64url":      base64.RawURLEncoding.EncodeToString([]byte(secret)),
		"base64 in blob": base64.StdEncoding.EncodeToString([]byte("TOKEN=" + secret + "\n")),
		"hex":            hex.EncodeToString([]byte(secret)),
		"HEX":            strings.ToUpper(hex.EncodeToString([]byte(secret))),
		"url":            url.QueryEscape(secret + "&"),
	}
	dir := t.TempDir()
	var file strings.Builder
	for name, v := range enc {
		file.WriteString(name + ": " + v + "\n")
	}
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte(file.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := a.UpdateConfig(func(c *workspace.Config) error { c.Folders = []string{dir}; return nil }); err != nil {
		t.Fatal(err)
	}
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "m")
	args, _ := json.Marshal(map[string]string{"path": path})
	m.Reply(providertest.ToolCall("fs_read", string(args)))
	m.Reply(providertest.Text("read it"))
	id, err := a.Turn(context.Background(), 0, "read out.txt", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := a.db.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	var result string
	for _, e := range evs {
		if e.Type == store.EventToolResult {
			result = e.Text
		}
	}
	if n := strings.Count(result, "[redacted:gh_token]"); n != len(enc) {
		t.Errorf("%d of %d encodings redacted in the stored result:\n%s", n, len(enc), result)
	}
	sent := m.Requests()[1]
	for name, v := range enc {
		if strings.Contains(result, v) {
			t.Errorf("%s survives in the history", name)
		}
		if strings.Contains(string(sent.Body), v) {
			t.Errorf("%s reached the model", name)
		}
	}
	// Whatever is logged is redacted too: here the tool's output as a
	// plugin or an MCP server's stderr would log it.
	a.Logger().Warn("tool output", "output", file.String(), "err", os.ErrNotExist)
	a.Logger().Warn("failed: " + enc["base64"])
	log, err := os.ReadFile(a.Workspace().Log())
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range enc {
		if strings.Contains(string(log), v) {
			t.Errorf("%s in the log file", name)
		}
	}
	if !strings.Contains(string(log), "[redacted:gh_token]") {
		t.Errorf("log:\n%s", log)
	}
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
