package cerebellum_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a43: a42 made sure no build folder the block names is kept
// (BuildOutputOf: CARGO_TARGET_DIR in env is replaced, --target-dir and
// --artifacts-path on the command line refuse the start), because cargo
// runs whatever program it finds built there when the fingerprints
// beside it say fresh, and the approval hashes none of it. Other
// spellings of the same setting beat the variable the MCP client sets
// and are neither replaced nor refused:
//
//   - cargo's aliases: `cargo serve` with CARGO_ALIAS_SERVE="run
//     --target-dir GRANTED/shared" in the block's env, or with [alias]
//     serve = "run --target-dir ../shared" in the project's own
//     .cargo/config.toml (hashed, but not what it names). An alias's
//     --target-dir is a command-line flag to cargo, which beats
//     CARGO_TARGET_DIR (checked with cargo 1.95: CARGO_TARGET_DIR=own
//     cargo serve runs GRANTED/shared/debug/app, and a program written
//     there afterwards runs as is);
//   - MSBuild's properties, which beat the environment's ArtifactsPath
//     (MSBuild's precedence; not run here: no dotnet): on the command
//     line (`dotnet run --property:ArtifactsPath=GRANTED/shared`, or
//     -p:), or set by the project (a Directory.Build.props above it,
//     .NET 8's own artifacts recipe).
//
// A sandboxed command that rewrites the built program in GRANTED/shared
// after the approval chooses what the next start runs, with the
// server's secrets: the approval stays the same and the start is not
// refused.
func TestA43BuildFolderNamedOtherwise(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		block func(g string) skillmd.MCPServer
		built string // the program the runner runs, in g
	}{{
		name: "cargo serve, env CARGO_ALIAS_SERVE=run --target-dir GRANTED/shared",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"serve"}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"CARGO_ALIAS_SERVE": "run --target-dir " + filepath.Join(g, "shared"), "TOKEN": "t"}}
		},
		built: "shared/debug/app",
	}, {
		name:  "cargo serve, [alias] serve in the project's .cargo/config.toml",
		files: map[string]string{"app/.cargo/config.toml": "[alias]\nserve = \"run --target-dir ../shared\"\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"serve"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		built: "shared/debug/app",
	}, {
		name: "dotnet run --property:ArtifactsPath=GRANTED/shared",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "dotnet", Args: []string{"run", "--property:ArtifactsPath=" + filepath.Join(g, "shared")}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		built: "shared/bin/app/debug/app.dll",
	}, {
		// .NET 8's own recipe (dotnet new buildprops --use-artifacts) in
		// the folder above the project: a property the project sets beats
		// the environment's (MSBuild's precedence), so the ArtifactsPath
		// the MCP client sets is ignored and the build lands in
		// GRANTED/shared, outside the code the approval covers.
		name:  "dotnet run, ArtifactsPath in the Directory.Build.props above the project",
		files: map[string]string{"Directory.Build.props": "<Project><PropertyGroup><ArtifactsPath>$(MSBuildThisFileDirectory)shared</ArtifactsPath></PropertyGroup></Project>\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "dotnet", Args: []string{"run"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		built: "shared/bin/app/debug/app.dll",
	}, {
		name: "dotnet run -p:ArtifactsPath=GRANTED/shared",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "dotnet", Args: []string{"run", "-p:ArtifactsPath=" + filepath.Join(g, "shared")}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		built: "shared/bin/app/debug/app.dll",
	}, {
		name: "cargo --config alias.serve=… serve",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"--config", "alias.serve=\"run --target-dir ../shared\"", "serve"}, Cwd: filepath.Join(g, "app")}
		},
		built: "shared/debug/app",
	}, {
		name: "cargo --config build.target-dir=GRANTED/shared run",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"--config=build.target-dir=\"" + filepath.Join(g, "shared") + "\"", "run"}, Cwd: filepath.Join(g, "app")}
		},
		built: "shared/debug/app",
	}, {
		name:  "cargo r (a built-in alias redefined) in a granted parent's .cargo/config.toml",
		files: map[string]string{".cargo/config.toml": "[alias]\nr = \"run --target-dir shared\"\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"r"}, Cwd: filepath.Join(g, "app")}
		},
		built: "shared/debug/app",
	}, {
		name: "dotnet build /p:OutputPath=GRANTED/shared;Configuration=Debug",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "dotnet", Args: []string{"run", "/p:Configuration=Debug;OutputPath=" + filepath.Join(g, "shared")}, Cwd: filepath.Join(g, "app")}
		},
		built: "shared/bin/app/debug/app.dll",
	}, {
		name:  "dotnet run, BaseOutputPath in the project file",
		files: map[string]string{"app/app.csproj": "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><BaseOutputPath>../shared/bin</BaseOutputPath></PropertyGroup></Project>\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "dotnet", Args: []string{"run"}, Cwd: filepath.Join(g, "app")}
		},
		built: "shared/bin/app/debug/app.dll",
	}, {
		name:  "dotnet run, -p:ArtifactsPath in a Directory.Build.rsp above",
		files: map[string]string{"Directory.Build.rsp": "-p:ArtifactsPath=shared\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "dotnet", Args: []string{"run"}, Cwd: filepath.Join(g, "app")}
		},
		built: "shared/bin/app/debug/app.dll",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := filepath.Join(t.TempDir(), "granted")
			files := map[string]string{
				"app/Cargo.toml":               "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
				"app/src/main.rs":              "fn main() {}\n",
				"app/app.csproj":               "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>\n",
				"app/Program.cs":               "System.Console.WriteLine(1);\n",
				"shared/CACHEDIR.TAG":          "Signature: 8a477f597d28d172789f06886806bc55\n",
				"shared/debug/app":             "\x7fELF v1\n",
				"shared/debug/app.d":           "app: src/main.rs\n",
				"shared/bin/app/debug/app.dll": "MZ v1\n",
			}
			for k, v := range c.files {
				files[k] = v
			}
			a35Write(t, g, files)
			s := c.block(g)
			capDir := t.TempDir()
			b := cerebellum.BuildOutputOf(&s, capDir)
			before := cerebellum.ApprovalKey(&s, capDir)
			a35Write(t, g, map[string]string{c.built: "#!/bin/sh\necho EVIL\n"})
			after := cerebellum.ApprovalKey(&s, capDir)
			refused := b.Refused()
			for _, f := range cerebellum.LaunchFiles(&s, capDir) {
				refused = refused || strings.HasPrefix(f, cerebellum.RefusedPrefix)
			}
			if !refused && after == before {
				t.Errorf("%s %q (env %v): the runner builds into and runs from %s, which the block names otherwise than BuildOutputOf reads (%+v: not refused, not replaced), and %s changed there after the approval without changing it: the next start runs it with the server's secrets\nLaunchFiles: %q",
					s.Command, s.Args, s.Env, filepath.Join(g, "shared"), b, filepath.Join(g, c.built), cerebellum.LaunchFiles(&s, capDir))
			}
		})
	}
}

// What builds into the server's own cache as before is not refused: a
// built-in command with an alias defined, a third-party subcommand
// without one, a property that says nothing of where it builds.
func TestBuildFolderNamedOtherwiseAllowed(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		s     func(g string) skillmd.MCPServer
	}{
		{"cargo run with an [alias]", map[string]string{"app/.cargo/config.toml": "[alias]\nserve = \"run --target-dir ../shared\"\n"}, func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"run", "--release"}, Cwd: filepath.Join(g, "app")}
		}},
		{"cargo shuttle run, no alias", nil, func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"+stable", "-q", "shuttle", "run"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"CARGO_HOME": filepath.Join(g, "cargohome")}}
		}},
		{"cargo --config net.offline=true run", nil, func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"--config", "net.offline=true", "run"}, Cwd: filepath.Join(g, "app")}
		}},
		{"dotnet run -p:Configuration=Release", nil, func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "dotnet", Args: []string{"run", "-p:Configuration=Release"}, Cwd: filepath.Join(g, "app")}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := filepath.Join(t.TempDir(), "granted")
			files := map[string]string{
				"app/Cargo.toml":  "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
				"app/src/main.rs": "fn main() {}\n",
				"app/app.csproj":  "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><OutputType>Exe</OutputType></PropertyGroup></Project>\n",
			}
			for k, v := range c.files {
				files[k] = v
			}
			a35Write(t, g, files)
			s := c.s(g)
			for _, f := range cerebellum.LaunchFiles(&s, t.TempDir()) {
				if strings.HasPrefix(f, cerebellum.RefusedPrefix) {
					t.Errorf("%s %q is refused: %s", s.Command, s.Args, f)
				}
			}
		})
	}
}
