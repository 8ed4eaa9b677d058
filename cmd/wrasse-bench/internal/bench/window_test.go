package bench

import (
	"os"
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
