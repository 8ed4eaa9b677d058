package bench

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestProcParsing(t *testing.T) {
	f, err := os.ReadFile("testdata/cpuinfo")
	if err != nil {
		t.Fatal(err)
	}
	if got := cpuModel(strings.NewReader(string(f))); got != "Intel(R) Xeon(R) Processor @ 2.10GHz" {
		t.Errorf("cpuModel = %q", got)
	}
	if got := cpuModel(strings.NewReader("processor: 0\n")); got != "" {
		t.Errorf("cpuModel without a model = %q", got)
	}
	st, err := os.ReadFile("testdata/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		field string
		want  int
		ok    bool
	}{{"VmHWM", 53352, true}, {"VmRSS", 51200, true}, {"Threads", 7, true}, {"VmSwap", 0, false}, {"Name", 0, false}} {
		got, ok := procField(strings.NewReader(string(st)), c.field)
		if got != c.want || ok != c.ok {
			t.Errorf("procField(%s) = %d, %v; want %d, %v", c.field, got, ok, c.want, c.ok)
		}
	}
}

func TestThisMachine(t *testing.T) {
	m := ThisMachine(time.Date(2026, 3, 4, 5, 6, 0, 0, time.UTC))
	if m.Date != "2026-03-04 05:06 UTC" || m.Cores < 1 || m.Go == "" || m.CPU == "" {
		t.Errorf("ThisMachine = %+v", m)
	}
	if l := m.Line(true); !strings.Contains(l, "short mode") || !strings.Contains(l, m.Go) {
		t.Errorf("Line = %q", l)
	}
}
