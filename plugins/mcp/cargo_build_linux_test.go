package mcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// rustServer is a minimal MCP server over stdio in Rust, standard library
// only (it builds offline): it answers initialize, lists one tool and
// answers every other request empty.
const rustServer = `use std::io::{BufRead, Write};

fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("\"{}\":", name);
    let rest = line[line.find(&key)? + key.len()..].trim_start();
    let end = if rest.starts_with('"') { rest[1..].find('"')? + 2 } else { rest.find(|c| c == ',' || c == '}')? };
    Some(&rest[..end])
}

fn main() {
    let mut out = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let line = match line { Ok(l) => l, Err(_) => break };
        let id = match field(&line, "id") { Some(id) => id.to_string(), None => continue };
        let result = match field(&line, "method") {
            Some("\"initialize\"") => format!(
                "{{\"protocolVersion\":{},\"capabilities\":{{\"tools\":{{}}}},\"serverInfo\":{{\"name\":\"srv\",\"version\":\"0.1.0\"}}}}",
                field(&line, "protocolVersion").unwrap_or("\"2025-06-18\"")),
            Some("\"tools/list\"") => "{\"tools\":[{\"name\":\"hello\",\"description\":\"Says hello.\",\"inputSchema\":{\"type\":\"object\"}}]}".to_string(),
            _ => "{}".to_string(),
        };
        let _ = writeln!(out, "{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{}}}", id, result);
        let _ = out.flush();
    }
}
`

// a38: a `cargo run` server started the way Wrasse starts it (sandboxed,
// through the loader) builds into its own cache, not into the project the
// approval covers: its first start leaves no target/ in the project, and
// its next start is not refused as "changed code".
func TestCargoRunBuildsOutsideItsApprovedProject(t *testing.T) {
	cargo, err := exec.LookPath("cargo")
	if err != nil {
		t.Skip("no cargo")
	}
	requireLandlock(t)
	base := t.TempDir()
	ws, granted, cacheDir := filepath.Join(base, "ws"), filepath.Join(base, "granted"), filepath.Join(base, "cache")
	srv := filepath.Join(granted, "srv")
	for p, data := range map[string]string{
		"Cargo.toml":  "[package]\nname = \"srv\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/main.rs": rustServer,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(srv, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(srv, p), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A cloned server ships its Cargo.lock; without one, cargo writes it
	// at the first build (a real change of what runs: the versions it
	// picked), and the next start asks again (cerebellum
	// TestA38CargoRunKeepsItsApproval).
	lock := exec.Command(cargo, "generate-lockfile", "--offline", "--manifest-path", filepath.Join(srv, "Cargo.toml"))
	if out, err := lock.CombinedOutput(); err != nil {
		t.Fatalf("cargo generate-lockfile: %v\n%s", err, out)
	}
	writeCap(t, ws, "rusty", fmt.Sprintf("---\nname: rusty\ndescription: Says hello.\nmcp:\n  command: cargo\n  args: [run, --quiet, --offline, --manifest-path, %s]\n  cwd: %s\n  timeouts: {connect: 3m}\n---\n",
		filepath.Join(srv, "Cargo.toml"), srv))
	loader := NewLoader(Options{Sandbox: testLauncher(t), Folders: func() []string { return []string{granted} }, CacheDir: cacheDir})
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reg.Close() })
	approveAll(t, reg)
	c, err := reg.Get("rusty")
	if err != nil {
		t.Fatal(err)
	}
	approved := c.ApprovalKey()

	if err := reg.Start(context.Background(), "rusty"); err != nil {
		t.Fatalf("first start (builds): %v", err)
	}
	if _, err := os.Stat(filepath.Join(srv, "target")); !os.IsNotExist(err) {
		t.Errorf("the first start built into the project's target/ (%v): the approval covers it", err)
	}
	built, _ := filepath.Glob(filepath.Join(cacheOf(t, cacheDir, "rusty"), buildDirName, "debug", "srv"))
	if len(built) != 1 {
		t.Errorf("no server binary in its own cache's %s folder", buildDirName)
	}
	if now := c.ApprovalKey(); now != approved {
		t.Errorf("the first start changed the approval key: %s, was %s (files: %q)", now, approved, cerebellum.LaunchFiles(c.Manifest.MCP, c.Dir))
	}
	reg.ReloadRuntimes() // the running server stops; the next use starts it again
	if err := reg.Start(context.Background(), "rusty"); err != nil {
		t.Fatalf("second start: %v", err)
	}
}
