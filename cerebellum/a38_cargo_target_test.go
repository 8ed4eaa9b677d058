//go:build attack

package cerebellum_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a38 (usability): Wrasse documents `cargo run` from the working folder
// (and --manifest-path) as a supported server command line, and hashes
// every file of the project, target/ included. The person clones an rmcp
// server into a granted folder and enables it; its first start builds,
// writing thousands of files into PROJECT/target; the next start is
// refused (ErrNotApproved, listing target/release/.fingerprint/…,
// deps/*.d, build/…), for a change nobody but the approved runner made.
// Enabling again is the only way out, and the list shown is a wall of
// build artefacts: people learn to approve blindly. The same holds for
// dotnet run (bin/, obj/), mvn/gradle (target/, build/, .gradle/) and
// `go build`-style runners that write into the project.
func TestA38CargoRunBreaksItsOwnApproval(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("no cargo")
	}
	g := filepath.Join(t.TempDir(), "granted")
	a35Write(t, g, map[string]string{
		"srv/Cargo.toml":  "[package]\nname='srv'\nversion='0.1.0'\nedition='2021'\n",
		"srv/src/main.rs": "fn main() { println!(\"v1\"); }\n",
	})
	srv := filepath.Join(g, "srv")
	s := skillmd.MCPServer{Command: "cargo", Args: []string{"run", "--release", "--manifest-path", filepath.Join(srv, "Cargo.toml")}, Cwd: srv}
	capDir := t.TempDir()
	start := func() {
		t.Helper()
		cmd := exec.Command(s.Command, append(s.Args, "--offline", "-q")...)
		cmd.Dir = srv
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "CARGO_TARGET_DIR=") { // the project's own target/
				cmd.Env = append(cmd.Env, kv)
			}
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("cargo run: %v\n%s", err, out)
		}
	}
	approved := cerebellum.ApprovalKey(&s, capDir) // enabled right after the clone
	start()                                        // first start: builds into srv/target
	if now := cerebellum.ApprovalKey(&s, capDir); now != approved {
		var added []string
		for _, f := range cerebellum.LaunchFiles(&s, capDir) {
			if rel, _ := filepath.Rel(srv, f); strings.HasPrefix(rel, "target/") {
				added = append(added, rel)
			}
		}
		t.Errorf("the approved `cargo run` server's first start wrote %d files into its own target/ (%q…), and its second start is refused as not approved: a fresh approval is needed for the runner's own build output", len(added), added[:min(5, len(added))])
	}
}
