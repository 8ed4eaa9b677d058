package bench

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func sampleReport() Report {
	return Report{
		Machine: Machine{Date: "2026-01-02 03:04 UTC", OS: "linux/amd64", CPU: "Test CPU", Cores: 2, Memory: "8.0 GB", Go: "go1.26.0"},
		Short:   true,
		Rows: []Row{
			{Section: "prompt economy", Measure: "index, 40 capabilities", Value: "595 tokens", Baseline: "all listed: 1,349", Target: "≤ 800", Pass: Pass, Number: 595, Unit: "tokens",
				Note: "counted with o200k_base"},
			{Section: "prompt economy", Measure: "request | schemas", Value: "1.25%", Target: "≤ 1%", Pass: Fail, Number: 1.25},
			{Section: "search quality", Measure: "recall@1", Value: "0.447", Baseline: "BM25 0.378"},
			errorRow("start-up", "`wrasse caps list`", os.ErrNotExist),
		},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestWriters(t *testing.T) {
	rep := sampleReport()
	for _, c := range []struct {
		file  string
		write func(*bytes.Buffer, Report) error
	}{
		{"report.txt.golden", func(b *bytes.Buffer, r Report) error { return WriteText(b, r) }},
		{"report.md.golden", func(b *bytes.Buffer, r Report) error { return WriteMarkdown(b, r) }},
		{"report.json.golden", func(b *bytes.Buffer, r Report) error { return WriteJSON(b, r) }},
	} {
		t.Run(c.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.write(&b, rep); err != nil {
				t.Fatal(err)
			}
			golden(t, c.file, b.Bytes())
		})
	}
	var back Report
	var b bytes.Buffer
	if err := WriteJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || len(back.Rows) != len(rep.Rows) || back.Rows[1].Pass != Fail {
		t.Errorf("JSON round trip: %v, %+v", err, back)
	}
}

func TestMissedAndBroken(t *testing.T) {
	rep := sampleReport()
	if m := rep.Missed(); len(m) != 2 || m[0].Measure != "request | schemas" || m[1].Pass != Broken {
		t.Errorf("Missed = %+v", m)
	}
	if b := rep.Broken(); len(b) != 1 || b[0].Section != "start-up" {
		t.Errorf("Broken = %+v", b)
	}
}
