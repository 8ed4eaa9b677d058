package sandbox_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a11: the kernel's keyrings are outside Landlock, and the seccomp filter
// lets add_key, request_key and keyctl through. Every sandboxed process
// inherits the person's session keyring, which links their user keyring,
// so it possesses and reads every key kept there: Kerberos tickets on
// Fedora and RHEL (default ccache KEYRING:persistent:UID: the person's
// login to every service of their network), keys cached by
// systemd-ask-password, sssd, podman's and other tools' credentials kept
// with keyctl. A key can also be linked or replaced for the person's
// next use (keyctl update).
//
// Reproduction: keyctl add user api SECRET @u (the person, once);
// shell_exec: keyctl print %user:api
func TestA11UserKeyringReadable(t *testing.T) {
	requireLandlock(t)
	const secret = "A11SECRET-krb5-tgt"
	desc := fmt.Sprintf("a11-probe-%d", os.Getpid())
	id, err := unix.AddKey("user", desc, []byte(secret), unix.KEY_SPEC_USER_KEYRING)
	if err != nil {
		t.Fatalf("add a key to the user keyring: %v", err)
	}
	t.Cleanup(func() { unix.KeyctlInt(unix.KEYCTL_INVALIDATE, id, 0, 0, 0) })
	f := newFixture(t)
	home := homeWith(t, map[string]string{"Documents/n": ""})
	t.Setenv("HOME", home)
	// A Python program (amd64 syscall numbers: keyctl is 250), since no
	// keyctl(1) is assumed: search the user keyring and read the key, as
	// `keyctl print %user:NAME` does.
	py := `import ctypes,sys
l=ctypes.CDLL(None,use_errno=True)
k=l.syscall(250,10,ctypes.c_int(-4),b"user",sys.argv[1].encode(),0)
b=ctypes.create_string_buffer(256)
n=l.syscall(250,11,k,b,256)
print(k,n,b.raw[:max(n,0)].decode())`
	line := "/usr/bin/python3 -c '" + py + "' " + desc
	policies := map[string]sandbox.Policy{
		"shell command":    sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Temp: f.temp}),
		"MCP server":       sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Program: "/usr/bin/python3", Temp: f.temp}),
		"plugin with exec": sandbox.ForPlugin(sandbox.PluginOptions{Protected: f.protected(), Exec: true}),
	}
	for who, p := range policies {
		t.Run(who, func(t *testing.T) {
			if out, _ := run(t, p, line); strings.Contains(out, secret) {
				t.Errorf("a sandboxed %s read a key from the person's user keyring: %q; want keyctl, add_key and request_key refused by the seccomp filter (or the session keyring replaced by an empty one before the sandbox starts)", who, out)
			}
		})
	}
}
