package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// git's settings in the home folder are code the person's git runs too
// (core.hooksPath, core.fsmonitor, a filter driver): with the home folder
// granted, a command can neither write nor make them, whether or not the
// person has one yet.
func TestHomeGitSettingsStayThePersons(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, existing := range []bool{true, false} {
		name := map[bool]string{true: "existing", false: "missing"}[existing]
		t.Run(name, func(t *testing.T) {
			home, _ := credentialHome(t)
			f := newFixture(t)
			if existing {
				if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = p\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Join(home, ".config", "git"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(home, ".config", "git", "config"), []byte("[user]\n\tname = p\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp})
			for _, line := range []string{
				"HOME=" + home + " git config --global core.hooksPath " + f.temp,
				"printf '[core]\\n\\tfsmonitor = sh x\\n' >> " + filepath.Join(home, ".gitconfig"),
				"mkdir -p " + filepath.Join(home, ".config", "git") + " && printf '[core]\\n\\tfsmonitor = sh x\\n' >> " + filepath.Join(home, ".config", "git", "config"),
				"printf '[core]\\n\\tfsmonitor = sh x\\n' > x && mv x " + filepath.Join(home, ".gitconfig"),
			} {
				if out, ok := runIn(t, p, home, line, nil); ok {
					t.Errorf("`%s` succeeded: %s", line, out)
				}
			}
		})
	}
}
