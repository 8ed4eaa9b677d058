package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Machine describes where a run happened.
type Machine struct {
	Date   string `json:"date"`
	OS     string `json:"os"`
	CPU    string `json:"cpu"`
	Cores  int    `json:"cores"`
	Memory string `json:"memory"`
	Go     string `json:"go"`
	// Load is the 1, 5 and 15 minute load averages when the run began: a
	// figure above the core count means other work shared the cores.
	Load string `json:"load,omitempty"`
}

// Line is a one-line summary for the top of a table.
func (m Machine) Line(short bool) string {
	mode := ""
	if short {
		mode = " (short mode)"
	}
	load := ""
	if m.Load != "" {
		load = ", load average " + m.Load
	}
	return fmt.Sprintf("wrasse-bench%s — %s — %s, %d cores, %s memory, %s, %s%s", mode, m.Date, m.CPU, m.Cores, m.Memory, m.OS, m.Go, load)
}

// ThisMachine reads the facts of the running machine; what the OS does not
// say is "unknown".
func ThisMachine(now time.Time) Machine {
	m := Machine{
		Date:   now.Format("2006-01-02 15:04 MST"),
		OS:     runtime.GOOS + "/" + runtime.GOARCH,
		CPU:    "unknown CPU",
		Cores:  runtime.NumCPU(),
		Memory: "unknown",
		Go:     runtime.Version(),
	}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		if s := cpuModel(f); s != "" {
			m.CPU = s
		}
		f.Close()
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		if kB, ok := procField(f, "MemTotal"); ok {
			m.Memory = fmt.Sprintf("%.1f GB", float64(kB)*1024/1e9)
		}
		f.Close()
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			m.Load = strings.Join(f[:3], " ")
		}
	}
	return m
}

// cpuModel returns the first "model name" of a /proc/cpuinfo.
func cpuModel(r io.Reader) string {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return ""
}

// procField reads a "Name:   1234 kB" line of /proc/self/status or
// /proc/meminfo and returns the number (in kB).
func procField(r io.Reader, name string) (int, bool) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != name {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			return 0, false
		}
		n, err := strconv.Atoi(f[0])
		return n, err == nil
	}
	return 0, false
}
