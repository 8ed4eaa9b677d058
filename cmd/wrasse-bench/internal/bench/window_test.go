package bench

import (
	"os"
	"runtime"
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
