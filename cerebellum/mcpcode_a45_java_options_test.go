package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a45: JAVA_TOOL_OPTIONS, _JAVA_OPTIONS and JDK_JAVA_OPTIONS are code
// variables (codePathVars), read as words (codeVarWords) whose paths are
// the word, what follows '=', or what follows a short switch
// (optionValues). Two forms java takes escape that:
//
//   - an agent with options: -javaagent:/path/agent.jar=OPTIONS (the
//     documented form, java.lang.instrument: "-javaagent:<jarpath>[=
//     <options>]"; -agentpath:<lib>=<options> alike). Split at ':' the
//     word is "/path/agent.jar=OPTIONS", which names no file, and what
//     follows '=' is the options: the agent jar, whose premain runs
//     before main with the server's environment, is never hashed;
//   - an argument file: java @FILE reads more options from FILE (JEP
//     293), on the command line and in JDK_JAVA_OPTIONS. "@/path/args"
//     is no path; FILE, outside the project, is not hashed, and a
//     sandboxed command adds -javaagent:… to it.
//
// The file in GRANTED/shared (or GRANTED/cfg), outside the server's
// project, changes and the approval stays the same.
func TestA45JavaOptionForms(t *testing.T) {
	files := func(more map[string]string) map[string]string {
		out := map[string]string{"app/server.jar": "PK jar v1\n"}
		for k, v := range more {
			out[k] = v
		}
		return out
	}
	javaBlock := func(g string, env map[string]string, pre ...string) skillmd.MCPServer {
		args := append(pre, "-jar", filepath.Join(g, "app", "server.jar"))
		return skillmd.MCPServer{Command: "java", Args: args, Cwd: filepath.Join(g, "app"), Env: env}
	}
	a35Run(t, []a35Case{{
		name:  "java -jar server.jar, JAVA_TOOL_OPTIONS=-javaagent:GRANTED/shared/agent.jar=debug",
		files: files(map[string]string{"shared/agent.jar": "PK agent v1\n"}),
		block: func(g string) skillmd.MCPServer {
			return javaBlock(g, map[string]string{"JAVA_TOOL_OPTIONS": "-javaagent:" + filepath.Join(g, "shared", "agent.jar") + "=debug", "TOKEN": "t"})
		},
		change: map[string]string{"shared/agent.jar": "PK agent v2 (premain runs id)\n"},
	}, {
		name:  "java -jar server.jar, JDK_JAVA_OPTIONS=@GRANTED/cfg/jvm.args",
		files: files(map[string]string{"cfg/jvm.args": "-Xmx256m\n"}),
		block: func(g string) skillmd.MCPServer {
			return javaBlock(g, map[string]string{"JDK_JAVA_OPTIONS": "@" + filepath.Join(g, "cfg", "jvm.args"), "TOKEN": "t"})
		},
		change: map[string]string{"cfg/jvm.args": "-Xmx256m\n-javaagent:/tmp/evil.jar\n"},
	}, {
		name:  "java @GRANTED/cfg/jvm.args -jar server.jar",
		files: files(map[string]string{"cfg/jvm.args": "-Xmx256m\n"}),
		block: func(g string) skillmd.MCPServer {
			return javaBlock(g, map[string]string{"TOKEN": "t"}, "@"+filepath.Join(g, "cfg", "jvm.args"))
		},
		change: map[string]string{"cfg/jvm.args": "-Xmx256m\n-javaagent:/tmp/evil.jar\n"},
	}})
}
