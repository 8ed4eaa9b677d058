package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 21 (attack a11): dotfile managers (GNU Stow, dotbot, rcm with a non-dot source,
// home-manager-like setups) keep the real files in a non-dot folder of
// the home folder (~/dotfiles) and link them from inside the dot entries:
// ~/.config/nvim -> ~/dotfiles/nvim/.config/nvim. The home folder rule
// makes ~/.config read-only, but Landlock grants by the path a file is
// reached through, and ~/dotfiles is an ordinary writable entry: a
// sandboxed command writes ~/dotfiles/nvim/.config/nvim/init.lua (or
// follows the link itself: `echo … >> ~/.config/nvim/init.lua` resolves
// to the writable folder), and the person's next `nvim` runs it.
// Top-level links (~/.bashrc -> ~/dotfiles/bashrc) are resolved by Clean
// and held; links one level down are not.
//
// Reproduction: mkdir ~/dotfiles/nvim; ln -s ~/dotfiles/nvim ~/.config/nvim;
// grant ~; in shell_exec: echo 'os.execute("id>/tmp/pwn")' >> ~/.config/nvim/init.lua
func TestHomeLinkInsideDotEntryToWritableFolder(t *testing.T) {
	requireLandlock(t)
	home := homeWith(t, map[string]string{
		"dotfiles/nvim/init.lua":       "vim.o.number = true\n",
		"dotfiles/systemd/.keep":       "",
		"dotfiles/bash/bashrc.d/a.sh":  "PATH=$PATH\n",
		".config/other/o.toml":         "b = 2\n",
		".local/share/applications/.k": "",
	})
	in := func(rel string) string { return filepath.Join(home, rel) }
	for link, target := range map[string]string{
		".config/nvim":                  "dotfiles/nvim",
		".config/systemd":               "dotfiles/systemd",
		".local/share/applications/f.d": "dotfiles/bash/bashrc.d",
	} {
		if err := os.Symlink(in(target), in(link)); err != nil {
			t.Fatal(err)
		}
	}
	for who, p := range homeGrantedPolicies(t, home) {
		for _, tc := range []struct{ name, line string }{
			{"neovim's init.lua through ~/.config/nvim", "echo 'os.execute(\"/tmp/pwn\")' >> " + in(".config/nvim/init.lua")},
			{"a systemd --user unit through ~/.config/systemd", "mkdir -p " + in(".config/systemd/user") + " && printf '[Service]\\nExecStart=/tmp/pwn\\n' > " + in(".config/systemd/user/a11.service")},
		} {
			t.Run(who+" "+tc.name, func(t *testing.T) {
				if out, ok := run(t, p, tc.line); ok {
					t.Errorf("a sandboxed %s with the home folder granted wrote %s (a link inside a dot entry to ~/dotfiles): succeeded (%s); want what the dot entries name read-only wherever it lies", who, tc.name, out)
				}
			})
		}
	}
}
