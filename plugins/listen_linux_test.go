package plugins

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// A plugin process held to a list of hosts cannot listen even through a
// program it runs (the kernel refuses listen(2)), and nothing it runs can
// push input into a terminal; one declaring any host may listen.
func TestPluginProcessKernelRefusals(t *testing.T) {
	if sandbox.ABI() < 4 {
		t.Fatalf("Landlock ABI %d: plugin processes must be sandboxed", sandbox.ABI())
	}
	if _, err := os.Stat("/usr/bin/perl"); err != nil {
		t.Skip("no /usr/bin/perl to listen with")
	}
	const script = `use IO::Socket::INET; open(my $t, "+<", "/dev/tty") or print "tty: $!\n";` +
		` my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 1) or die "listen: $!\n"; print "listening\n";`
	src := wrap(`"os/exec"`, "out, err := exec.Command(\"/usr/bin/perl\", \"-e\", "+"`"+script+"`"+").CombinedOutput()\n\t_ = err\n\treturn sdk.Text(string(out)), nil")
	for _, tc := range []struct {
		hosts, want string
	}{
		{"[api.example.com]", "listen: Permission denied"},
		{`["*"]`, "listening"},
	} {
		skill := strings.Replace(oneTool, "tools:", "permissions:\n  exec: true\n  network: "+tc.hosts+"\ntools:", 1)
		rt, err := childTestHost(&recorder{}, childArg).Load(t.Context(), request(inline(t, skill, map[string]string{"main.go": src}), false, "exec", "network"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := rt.Call(t.Context(), "run", json.RawMessage(`{}`))
		rt.Close()
		if !strings.Contains(res.Content, tc.want) || !strings.Contains(res.Content, "tty: ") {
			t.Errorf("network %s: %q, %v; want %q and no terminal", tc.hosts, res.Content, err, tc.want)
		}
	}
}
