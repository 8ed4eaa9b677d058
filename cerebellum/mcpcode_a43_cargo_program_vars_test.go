package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a43: codePathVars holds RUSTC_WRAPPER, but cargo takes the programs
// it runs from other variables too, each the environment form of a
// .cargo/config.toml key: CARGO_BUILD_RUSTC_WRAPPER (build.rustc-wrapper),
// RUSTC_WORKSPACE_WRAPPER, RUSTC, and CARGO_TARGET_<TRIPLE>_RUNNER
// (target.<triple>.runner: `cargo run` starts the built program through
// it). Checked with cargo 1.95: CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=
// /path/run.sh cargo run prints run.sh's output; CARGO_BUILD_RUSTC_WRAPPER
// runs the wrapper at the build. The program in GRANTED/tools is not
// hashed: a sandboxed command rewrites it and the next start runs it
// with the server's secrets.
func TestA43CargoProgramVariables(t *testing.T) {
	files := map[string]string{
		"app/Cargo.toml":  "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"app/src/main.rs": "fn main() {}\n",
		"tools/prog.sh":   "#!/bin/sh\nexec \"$@\"\n",
	}
	var cases []a35Case
	for _, v := range []string{"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", "CARGO_TARGET_AARCH64_APPLE_DARWIN_LINKER",
		"CARGO_BUILD_RUSTC_WRAPPER", "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTC", "CARGO_BUILD_RUSTC"} {
		cases = append(cases, a35Case{
			name:  "cargo run, env " + v + "=GRANTED/tools/prog.sh",
			files: files,
			block: func(g string) skillmd.MCPServer {
				return skillmd.MCPServer{Command: "cargo", Args: []string{"run"}, Cwd: filepath.Join(g, "app"),
					Env: map[string]string{v: filepath.Join(g, "tools", "prog.sh"), "TOKEN": "t"}}
			},
			change: map[string]string{"tools/prog.sh": "#!/bin/sh\nid; exec \"$@\"\n"},
		})
	}
	a35Run(t, cases)
}
