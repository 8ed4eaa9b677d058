package assistant

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// installMCP installs (or replaces) a capability named remote from a
// folder elsewhere, as `wrasse caps install` does.
func installMCP(t *testing.T, a *App, url string, replace bool) *manage.InstallResult {
	t.Helper()
	src := filepath.Join(t.TempDir(), "remote")
	if err := os.MkdirAll(src, 0o700); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: remote\ndescription: A server at " + url + ".\nmcp:\n  url: " + url +
		"\n  headers: {Authorization: 'Bearer ${secret:gh_token}'}\n---\n# remote\n"
	if err := os.WriteFile(filepath.Join(src, "SKILL.md"), []byte(md), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := a.Install(context.Background(), src, replace)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func gotSecret(seen func() []http.Header, secret string) bool {
	for _, h := range seen() {
		if strings.Contains(h.Get("Authorization"), secret) {
			return true
		}
	}
	return false
}

// A secret is assigned to a capability as it sends then. Replacing it
// with a version that connects to the same server keeps the assignment;
// a version that connects elsewhere loses it (the report says so, and the
// server there gets nothing); assigned again, it goes there. A hand edit
// of the address is refused when the secret is used, saying what to do,
// and putting the address back restores it without assigning again.
func TestSecretAssignmentFollowsWhereItGoes(t *testing.T) {
	const gh = "ghp-secret-0123456789"
	ctx := context.Background()
	a := openTest(t)
	if err := a.SetSecret("gh_token", gh); err != nil {
		t.Fatal(err)
	}
	good, seenGood := headerServer(t)
	installMCP(t, a, good, false)
	if err := a.AssignSecret("gh_token", "remote", false); err != nil {
		t.Fatal(err)
	}
	if _, err := a.TestMCP(ctx, "remote"); err != nil || !gotSecret(seenGood, gh) {
		t.Fatalf("assigned: %v", err)
	}

	// Replaced by a version at the same address: kept.
	if res := installMCP(t, a, good, true); !res.Replaced || len(res.Report.Warnings) != 0 {
		t.Fatalf("replaced at the same address: %+v", res.Report)
	}
	if _, err := a.TestMCP(ctx, "remote"); err != nil {
		t.Fatalf("after a replacement at the same address: %v", err)
	}

	// Replaced by a version elsewhere: withdrawn, and said so.
	evil, seenEvil := headerServer(t)
	res := installMCP(t, a, evil, true)
	if len(res.Report.Warnings) != 1 || !strings.Contains(res.Report.Warnings[0], "remote is no longer assigned gh_token") ||
		!strings.Contains(res.Report.Warnings[0], "it now connects to "+evil) {
		t.Errorf("report of the replacement elsewhere: %q", res.Report.Warnings)
	}
	if _, err := a.TestMCP(ctx, "remote"); !errors.Is(err, ErrSecretNotAssigned) || gotSecret(seenEvil, gh) {
		t.Fatalf("after a replacement elsewhere: %v", err)
	}
	if p, _ := a.SecretPlaces("gh_token"); p.Allows("remote") {
		t.Errorf("still listed as assigned: %+v", p)
	}
	// The person assigns it there.
	if err := a.AssignSecret("gh_token", "remote", false); err != nil {
		t.Fatal(err)
	}
	if _, err := a.TestMCP(ctx, "remote"); err != nil || !gotSecret(seenEvil, gh) {
		t.Fatalf("assigned again: %v", err)
	}

	// A hand edit to a third address: refused where it is used.
	third, seenThird := headerServer(t)
	writeMCPFolder(t, a, "remote", "  url: "+third+"\n  headers: {Authorization: 'Bearer ${secret:gh_token}'}\n")
	_, err := a.TestMCP(ctx, "remote")
	h, _ := hint.Of(err)
	if !errors.Is(err, ErrSecretNotAssigned) || !strings.Contains(err.Error(), "you assigned it to remote when it sent elsewhere, and it now connects to "+third) ||
		h.CommandLine() != "wrasse secrets assign gh_token remote" || gotSecret(seenThird, gh) {
		t.Fatalf("after a hand edit: %v, hint %+v", err, h)
	}
	uses, err := a.SecretsOf("remote")
	if err != nil || len(uses) != 1 || uses[0].Assigned || !uses[0].Lapsed {
		t.Errorf("SecretsOf after a hand edit = %+v, %v", uses, err)
	}
	// Back to where it was assigned: it goes there again.
	writeMCPFolder(t, a, "remote", "  url: "+evil+"\n  headers: {Authorization: 'Bearer ${secret:gh_token}'}\n")
	if _, err := a.TestMCP(ctx, "remote"); err != nil {
		t.Fatalf("back at the assigned address: %v", err)
	}

	// Removed: withdrawn at once.
	if err := a.Remove(ctx, "remote"); err != nil {
		t.Fatal(err)
	}
	if p, _ := a.SecretPlaces("gh_token"); p.Allows("remote") || len(p.Destinations) != 0 {
		t.Errorf("after removal: %+v", p)
	}
}

// Where a capability sends a secret: what changes it and what does not.
func TestDestinationOf(t *testing.T) {
	mcp := func(s skillmd.MCPServer) *cerebellum.Capability {
		return &cerebellum.Capability{Kind: cerebellum.KindMCP, Manifest: &skillmd.Manifest{Description: "x", MCP: &s}}
	}
	plugin := func(desc string, hosts ...string) *cerebellum.Capability {
		return &cerebellum.Capability{Kind: cerebellum.KindPlugin, Manifest: &skillmd.Manifest{Description: desc,
			Permissions: skillmd.Permissions{skillmd.PermNetwork: hosts, skillmd.PermEnv: []string{"gh_token"}}}}
	}
	base := skillmd.MCPServer{Command: "npx", Args: []string{"-y", "@good/server"}, Env: map[string]string{"TOKEN": "${secret:gh_token}"}}
	with := func(f func(*skillmd.MCPServer)) *cerebellum.Capability {
		s := base
		s.Args = append([]string(nil), base.Args...)
		s.Env = map[string]string{"TOKEN": "${secret:gh_token}"}
		f(&s)
		return mcp(s)
	}
	tests := []struct {
		name string
		a, b *cerebellum.Capability
		same bool
	}{
		{"same URL", mcp(skillmd.MCPServer{URL: "https://a.example/mcp"}), mcp(skillmd.MCPServer{URL: "https://a.example/mcp", CallTimeout: 5}), true},
		{"another URL", mcp(skillmd.MCPServer{URL: "https://a.example/mcp"}), mcp(skillmd.MCPServer{URL: "https://b.example/mcp"}), false},
		{"another path", mcp(skillmd.MCPServer{URL: "https://a.example/mcp"}), mcp(skillmd.MCPServer{URL: "https://a.example/proxy?to=b"}), false},
		{"same command", mcp(base), with(func(*skillmd.MCPServer) {}), true},
		{"another package", mcp(base), with(func(s *skillmd.MCPServer) { s.Args[1] = "@evil/server" }), false},
		{"another API base in env", mcp(base), with(func(s *skillmd.MCPServer) { s.Env["API_URL"] = "https://evil.example" }), false},
		{"another folder", mcp(base), with(func(s *skillmd.MCPServer) { s.Cwd = "/tmp" }), false},
		{"command to URL", mcp(base), mcp(skillmd.MCPServer{URL: "https://a.example/mcp"}), false},
		{"plugin, same hosts in another order", plugin("x", "a.example", "b.example"), plugin("y", "b.example", "a.example"), true},
		{"plugin, another host", plugin("x", "a.example"), plugin("x", "a.example", "evil.example"), false},
		{"plugin to MCP server", plugin("x"), mcp(skillmd.MCPServer{URL: "https://a.example/mcp"}), false},
	}
	for _, tc := range tests {
		if got := destinationOf(tc.a) == destinationOf(tc.b); got != tc.same {
			t.Errorf("%s: same destination = %v, want %v", tc.name, got, tc.same)
		}
	}
}
