package bench

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestParseResident(t *testing.T) {
	status, err := os.ReadFile("testdata/window/status")
	if err != nil {
		t.Fatal(err)
	}
	smaps, err := os.ReadFile("testdata/window/smaps")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		exe  string
		want residentSet
	}{
		{name: "the binary and libLLVM", exe: "/opt/wrasse/bin/wrasse",
			want: residentSet{total: 251984, anon: 121216, file: 127528, exe: 20 + 25964, llvm: 50000 + 4000}},
		{name: "the executable unknown", exe: "",
			want: residentSet{total: 251984, anon: 121216, file: 127528, llvm: 54000}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := parseResident(string(status), string(smaps), tc.exe); got != tc.want {
				t.Errorf("parseResident = %+v, want %+v", got, tc.want)
			}
		})
	}
	if got := parseResident("", "", "/x"); got != (residentSet{}) {
		t.Errorf("empty /proc files gave %+v, want zeros", got)
	}
}

// TestDropCached runs the drop on a file the test wrote; what it does to the
// page cache is the bench's to measure (fincore), not a test's.
func TestDropCached(t *testing.T) {
	bin := t.TempDir() + "/wrasse"
	if err := os.WriteFile(bin, make([]byte, 1<<20), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := dropCached(bin); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(bin)
	if err != nil || len(got) != 1<<20 {
		t.Fatalf("the file after dropCached: %d bytes, %v", len(got), err)
	}
	if err := dropCached(bin + ".missing"); err == nil && runtime.GOOS == "linux" {
		t.Error("dropCached of a missing file succeeded")
	}
}

func TestWindowIdleBareBaseline(t *testing.T) {
	idle := Row{Section: sectionWindow, Measure: idleMeasure, Value: "183.0 MB", Note: "VmRSS of the wrasse process"}
	bare := residentSet{total: 142504, anon: 53732, file: 85532, exe: 18555, llvm: 53711}
	cases := []struct {
		name         string
		bare         residentSet
		err          error
		baseline     string
		noteContains []string
	}{
		{name: "measured", bare: bare, baseline: "bare Fyne window 145.9 MB",
			noteContains: []string{"VmRSS of the wrasse process. Baseline: a bare Fyne window",
				"55.0 MB anonymous", "87.6 MB file-backed (of which its binary 19.0 MB, libLLVM 55.0 MB)"}},
		{name: "failed", err: ErrNoRepo, baseline: "bare Fyne window n/a",
			noteContains: []string{"VmRSS of the wrasse process; no bare-window baseline: " + ErrNoRepo.Error()}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := withBareBaseline(idle, tc.bare, tc.err)
			if got.Baseline != tc.baseline {
				t.Errorf("Baseline = %q, want %q", got.Baseline, tc.baseline)
			}
			for _, s := range tc.noteContains {
				if !strings.Contains(got.Note, s) {
					t.Errorf("Note = %q, want it to contain %q", got.Note, s)
				}
			}
			if got.Value != idle.Value || got.Pass != idle.Pass || got.Measure != idle.Measure {
				t.Errorf("the row's figure changed: %+v", got)
			}
		})
	}
}
