package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Issue 21 (attack a11): without any grant of the home folder, every shell command reads
// the whole of ~/.cache (homeReadable, for build caches) and every stdio
// MCP server reads and runs it (runtimeHome, for npx and uvx). ~/.cache
// is not only build caches: Evolution keeps the person's mail there
// (bodies: password-reset links, one-time codes), Firefox and Chrome
// their HTTP caches (pages fetched with the person's cookies), GNOME its
// thumbnails of private pictures and Tracker its index of every file in
// the home folder, JetBrains its indexes of every project. The only carve
// out is Hugging Face's token.
//
// Reproduction: grant ~/projects/app only; shell_exec:
// grep -r 'reset your password' ~/.cache/evolution
func TestHomeCacheOnlyBuildCachesWithoutGrant(t *testing.T) {
	requireLandlock(t)
	const secret = "A11SECRET-reset-code-829114"
	files := map[string]string{
		".cache/evolution/mail/1234@imap/folders/INBOX/cur/00/1": "Subject: your code\n\n" + secret + "\n",
		".cache/mozilla/firefox/abcd.default/cache2/entries/0A1": "Set-Cookie: session=" + secret + "\n",
		".cache/google-chrome/Default/Cache/Cache_Data/f_00001":  secret,
		".cache/tracker3/files/meta.db":                          "/home/p/Private/" + secret,
		".cache/thumbnails/large/0a1b.png":                       secret,
		"projects/app/main.go":                                   "package main\n",
	}
	home := homeWith(t, files)
	t.Setenv("HOME", home)
	f := newFixture(t)
	project := filepath.Join(home, "projects/app")
	policies := map[string]sandbox.Policy{
		"shell command": sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{project}, Protected: f.protected(), Home: home, Temp: f.temp}),
		"MCP server":    sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{project}, Protected: f.protected(), Home: home, Program: "/bin/sh", Temp: f.temp}),
	}
	for who, p := range policies {
		for rel := range files {
			if !strings.HasPrefix(rel, ".cache/") {
				continue
			}
			t.Run(who+" ~/"+rel, func(t *testing.T) {
				if out, _ := run(t, p, "cat "+filepath.Join(home, rel)); strings.Contains(out, secret) {
					t.Errorf("a sandboxed %s granted only %s read ~/%s; want the person's mail, browser caches and indexes out of reach (grant the build caches by name: go-build, pip, pypoetry, pre-commit…)", who, project, rel)
				}
			})
		}
	}
}
