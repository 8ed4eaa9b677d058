//go:build unix

package assistant

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// 02bff84 refuses a file that is itself a symbolic link, because no list
// of where secrets live is complete and a link is what a program can
// plant without reading anything. A link on a folder on the way is the
// same plant one level up: `ln -s ~/.purple chat-logs` (a sandboxed tool
// run in a granted folder may do it: making a link reads nothing), or a
// folder link in a downloaded archive, and the person attaches
// chat-logs/accounts.xml from the file dialog. The file is no link, so
// only holdsCredentials' list was asked: stores it does not name (Pidgin,
// a browser's beta channel, a password manager's export), the core's own
// /proc/self and the system's secrets in /etc were read into the message.
// A folder link to an ordinary folder (~/Dropbox on another disk) and the
// home folder reached through a link (/home → /var/home) still attach.
func TestAttachThroughAFolderLinkIntoHiddenPlaces(t *testing.T) {
	a, m, home := attackHome(t)
	tests := []struct {
		name   string
		target string // the folder the planted link leads to
		file   string // the file attached in it, through the link
		make   bool   // write the file (in the home folder) first
		secret string // what must not come back; "" for any content
	}{
		{"pidgin's accounts", filepath.Join(home, ".purple"), "accounts.xml", true, "TOPSECRET"},
		{"a browser's beta profile", filepath.Join(home, ".config", "google-chrome-beta", "Default"), "Login Data.txt", true, "TOPSECRET"},
		{"a password manager's export", filepath.Join(home, ".local", "share", "keepassxc"), "export.csv", true, "TOPSECRET"},
		{"the core's own process", "/proc/self", "status", false, ""},
		{"the system's password hashes", "/etc", "shadow", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.make {
				write(t, filepath.Join(tt.target, tt.file), "user=alice\npassword=TOPSECRET\n")
			} else if f, err := os.Open(filepath.Join(tt.target, tt.file)); err != nil {
				t.Skipf("%s cannot be read here: %v", filepath.Join(tt.target, tt.file), err)
			} else {
				f.Close()
			}
			link := mkLink(t, tt.target, filepath.Join(home, "projects", "repo-"+filepath.Base(tt.target), "docs"))
			path := filepath.Join(link, tt.file)
			f, err := a.ReadAttachment(path)
			if err == nil && (tt.secret == "" || strings.Contains(f.Text, tt.secret)) {
				t.Errorf("ReadAttachment(%s), through a folder link to %s, read it into the message: %.80q", path, tt.target, f.Text)
			} else if err != nil && !strings.Contains(err.Error(), filepath.Join(tt.target, tt.file)) && !strings.Contains(err.Error(), "/proc/") {
				t.Errorf("ReadAttachment(%s): %v; want the refusal to name the real file to attach instead", path, err)
			}
			m.Reply(providertest.Text("Seen."))
			if _, err := a.Turn(context.Background(), 0, "see", TurnOptions{Files: []string{path}}); err == nil {
				t.Errorf("a turn attaching %s (through a folder link to %s) ran", path, tt.target)
			}
		})
	}

	// A folder link to an ordinary folder still attaches.
	sync := write(t, filepath.Join(t.TempDir(), "disk", "Dropbox", "plan.txt"), "the plan")
	dropbox := mkLink(t, filepath.Dir(sync), filepath.Join(home, "Dropbox"))
	if f, err := a.ReadAttachment(filepath.Join(dropbox, "plan.txt")); err != nil || f.Text != "the plan" {
		t.Errorf("a file in ~/Dropbox, a link to another disk: %q, %v; want it attached", f.Text, err)
	}
}

// The home folder reached through a link (Fedora Silverblue's /home →
// /var/home) is no planted link: its files, hidden ones included, attach
// as they did.
func TestAttachThroughTheHomeFolderLink(t *testing.T) {
	a, _, home := attackHome(t)
	alias := mkLink(t, home, filepath.Join(t.TempDir(), "home-link"))
	a.opts.Home = alias
	t.Setenv("HOME", alias)
	write(t, filepath.Join(home, "Documents", "minutes.txt"), "the minutes")
	write(t, filepath.Join(home, ".config", "app", "settings.toml"), "theme = dark")
	for _, p := range []string{
		filepath.Join(alias, "Documents", "minutes.txt"),
		filepath.Join(alias, ".config", "app", "settings.toml"),
	} {
		if f, err := a.ReadAttachment(p); err != nil {
			t.Errorf("ReadAttachment(%s), in the home folder reached through a link: %v", p, err)
		} else if f.Text != "the minutes" && f.Text != "theme = dark" {
			t.Errorf("ReadAttachment(%s) = %q", p, f.Text)
		}
	}
}

// When the core runs as root (a container), another user's home is no
// home it knows: a folder link to /home/bob/.purple is refused as leading
// into a hidden folder all the same, and so is a hidden file reached
// through a folder link (docs -> ~, then docs/.bash_history).
func TestAttachThroughAFolderLinkIntoAnotherHome(t *testing.T) {
	a, _, home := attackHome(t)
	bob := filepath.Join(t.TempDir(), "bob")
	for _, tt := range []struct{ target, file string }{
		{filepath.Join(bob, ".purple"), "accounts.xml"},
		{home, ".bash_history"},
	} {
		write(t, filepath.Join(tt.target, tt.file), "mysql -pTOPSECRET\n")
		link := mkLink(t, tt.target, filepath.Join(home, "projects", "r-"+filepath.Base(tt.target)+tt.file, "docs"))
		if f, err := a.ReadAttachment(filepath.Join(link, tt.file)); err == nil {
			t.Errorf("ReadAttachment(%s), through a folder link to %s, read %q", filepath.Join(link, tt.file), tt.target, f.Text)
		}
	}
}

// On macOS and Windows programs keep their settings and secrets in no
// hidden folder but in ~/Library and ~/AppData (Signal's database key in
// ~/Library/Application Support/Signal/config.json, a chat client's
// tokens in ~/AppData/Roaming): a folder link planted into either leads a
// file there as surely as one into ~/.purple. (Shown with the same layout
// on this system.)
func TestAttachThroughAFolderLinkIntoAppData(t *testing.T) {
	a, _, home := attackHome(t)
	for _, rel := range []string{
		filepath.Join("Library", "Application Support", "Signal"),
		filepath.Join("AppData", "Roaming", "discord"),
	} {
		target := filepath.Join(home, rel)
		write(t, filepath.Join(target, "config.json"), `{"key":"TOPSECRET"}`)
		link := mkLink(t, target, filepath.Join(home, "projects", "r-"+filepath.Base(target), "docs"))
		if f, err := a.ReadAttachment(filepath.Join(link, "config.json")); err == nil {
			t.Errorf("ReadAttachment(%s), through a folder link to ~/%s, read %q", filepath.Join(link, "config.json"), rel, f.Text)
		}
	}
}

// A home folder that itself lies in a dot-named folder (/home/.users/
// alice) is no hidden place: a folder link within it to an ordinary
// folder attaches.
func TestAttachThroughAFolderLinkInAHomeUnderADotFolder(t *testing.T) {
	a, _, _ := attackHome(t)
	home := filepath.Join(t.TempDir(), ".users", "alice")
	a.opts.Home = home
	t.Setenv("HOME", home)
	doc := write(t, filepath.Join(home, "Sync", "Documents", "plan.txt"), "the plan")
	link := mkLink(t, filepath.Dir(doc), filepath.Join(home, "Documents"))
	if f, err := a.ReadAttachment(filepath.Join(link, "plan.txt")); err != nil || f.Text != "the plan" {
		t.Errorf("a file in ~/Documents, a link to ~/Sync/Documents, with the home folder in /home/.users: %q, %v; want it attached", f.Text, err)
	}
}

// A folder link into Wrasse's workspace is refused saying it is Wrasse's
// own data, for its settings and for what the tools may read there alike.
func TestAttachThroughAFolderLinkIntoTheWorkspace(t *testing.T) {
	a, _, home := attackHome(t)
	write(t, filepath.Join(a.ws.Root, "config.json"), `{"model":"m"}`)
	link := mkLink(t, a.ws.Root, filepath.Join(home, "projects", "ws", "docs"))
	for _, rel := range []string{"config.json", filepath.Join("brain", "identity.md")} {
		if _, err := os.Stat(filepath.Join(a.ws.Root, rel)); err != nil {
			continue
		}
		if f, err := a.ReadAttachment(filepath.Join(link, rel)); err == nil || !strings.Contains(err.Error(), "Wrasse's own data") {
			t.Errorf("ReadAttachment(%s), through a folder link to the workspace: %.60q, %v; want it refused as Wrasse's own data", filepath.Join(link, rel), f.Text, err)
		}
	}
}
