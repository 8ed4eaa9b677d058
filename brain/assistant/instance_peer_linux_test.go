package assistant

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// A process this one started, and one that process started, descend from
// it; this process's parent and this process itself do not.
func TestStartedBy(t *testing.T) {
	// sh starts sleep and waits: sleep is a grandchild.
	cmd := exec.Command("/bin/sh", "-c", "sleep 30 & echo $!; wait")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	buf := make([]byte, 32)
	n, err := out.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	grandchild, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p, err := os.FindProcess(grandchild); err == nil {
			p.Kill()
		}
	})
	self := os.Getpid()
	cases := []struct {
		name  string
		pid   int
		want  bool
		chain string
	}{
		{"a child", cmd.Process.Pid, true, "sh (pid " + strconv.Itoa(cmd.Process.Pid) + ")"},
		// Its name is sh or sleep, depending on whether it ran exec yet.
		{"a grandchild", grandchild, true, "(pid " + strconv.Itoa(grandchild) + "), sh (pid " + strconv.Itoa(cmd.Process.Pid) + ")"},
		{"this process", self, false, ""},
		{"its parent", os.Getppid(), false, ""},
		{"init", 1, false, ""},
		{"no such process", 1 << 30, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			chain, ok := startedBy(self, c.pid)
			if got := strings.Join(chain, ", "); ok != c.want || !strings.HasSuffix(got, c.chain) || (c.chain == "") != (got == "") {
				t.Errorf("startedBy = %q, %v; want %q, %v", chain, ok, c.chain, c.want)
			}
		})
	}
	p := describeProcess(cmd.Process.Pid)
	if p.Name != "sh" || p.Exe == "" || len(p.Args) != 3 || p.Args[2] != "sleep 30 & echo $!; wait" || p.Parent == nil || p.Parent.PID != self {
		t.Errorf("describeProcess = %+v", p)
	}
	if s := p.String(); !strings.Contains(s, "/bin/sh -c 'sleep 30 & echo $!; wait'") || !strings.Contains(s, "pid "+strconv.Itoa(cmd.Process.Pid)) {
		t.Errorf("String = %q", s)
	}
}

func TestParseStat(t *testing.T) {
	cases := []struct {
		in   string
		name string
		ppid int
		ok   bool
	}{
		{"12 (bash) S 7 12 12 34816", "bash", 7, true},
		{"12 (a (b) c) R 99 1 1", "a (b) c", 99, true},
		{"12 (x) y) S 3 1", "x) y", 3, true},
		{"12 (no end S 3", "", 0, false},
		{"12 (short) S", "", 0, false},
		{"12 (n) S notanumber", "", 0, false},
		{"", "", 0, false},
	}
	for _, c := range cases {
		name, ppid, ok := parseStat(c.in)
		if name != c.name || ppid != c.ppid || ok != c.ok {
			t.Errorf("parseStat(%q) = %q, %d, %v", c.in, name, ppid, ok)
		}
	}
}

// A process names itself, so /proc/PID/stat is untrusted input.
func FuzzParseStat(f *testing.F) {
	f.Add("12 (bash) S 7 12 12 34816")
	f.Add("1 ()) ) S 0")
	f.Fuzz(func(t *testing.T, s string) {
		name, ppid, ok := parseStat(s)
		if !ok && (name != "" || ppid != 0) {
			t.Fatalf("not ok but %q %d", name, ppid)
		}
		if ok && !strings.Contains(s, "("+name+")") {
			t.Fatalf("name %q is not in %q", name, s)
		}
	})
}
