package sandbox_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// setxattrNr is setxattr(2)'s number on the architectures the filter
// supports.
func setxattrNr(t *testing.T) int {
	switch runtime.GOARCH {
	case "amd64":
		return 188
	case "arm64":
		return 5
	}
	t.Skipf("no seccomp filter on %s", runtime.GOARCH)
	return 0
}

// aclOpenToOthers is a Perl program that sets, with setxattr(2), the
// POSIX access ACL user::rw- group::r-- other::rw- on its second
// argument (the xattr's binary form: version 2, then tag, permissions,
// id). A minimal ACL is stored as the mode: the kernel turns it into
// chmod 0646 (posix_acl_update_mode) without calling chmod.
const aclOpenToOthers = `my ($nr, $path) = @ARGV; my $name = "system.posix_acl_access";
my $acl = pack("V", 2) . pack("vvV", 1, 6, 0xffffffff) . pack("vvV", 4, 4, 0xffffffff) . pack("vvV", 0x20, 6, 0xffffffff);
syscall($nr, $path, $name, $acl, length($acl), 0) == 0 or die "setxattr: $!\n";`

// The f9 filter refuses chmod, fchmod, fchmodat and fchmodat2 with write
// for others, but a file's access ACL is its mode too: setxattr(2) of
// system.posix_acl_access (what `setfacl -m o::rw` does; also lsetxattr,
// fsetxattr and setxattrat) changes the mode bits of any file the
// process's user owns. Landlock governs no xattr call, so the path may
// lie outside every grant (as root: /etc/passwd, /etc/shadow, a shell).
// An ACL with named users (u:nobody:rw) opens it to one other user
// without touching the mode's others bits at all.
func TestACLCannotOpenFilesToOthers(t *testing.T) {
	requireLandlock(t)
	nr := setxattrNr(t)
	f := newFixture(t)
	script := filepath.Join(f.granted, "acl.pl")
	if err := os.WriteFile(script, []byte(aclOpenToOthers), 0o644); err != nil {
		t.Fatal(err)
	}
	policies := map[string]sandbox.Policy{
		"shell command":              sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp, Network: true}),
		"MCP server":                 sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{f.granted}, Protected: f.protected(), Program: "/bin/sh", Temp: f.temp, Network: true}),
		"plugin with files and exec": sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{f.granted}, Protected: f.protected(), Files: true, Exec: true}),
	}
	for who, p := range policies {
		t.Run(who, func(t *testing.T) {
			secret := filepath.Join(f.outside, strings.ReplaceAll(who, " ", "-")+"-id_ed25519")
			if err := os.WriteFile(secret, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			line := "perl " + script + " " + strconv.Itoa(nr) + " " + secret
			out, _ := run(t, p, line)
			st, err := os.Stat(secret)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm()&0o002 != 0 {
				t.Errorf("a sandboxed %s set the access ACL other::rw- (setxattr system.posix_acl_access) on a private key outside its grants: mode now %v (%s); want setxattr of POSIX ACLs refused as chmod o+w is", who, st.Mode(), out)
			}
		})
	}
}
