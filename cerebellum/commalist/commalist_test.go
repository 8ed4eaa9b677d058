package commalist_test

import (
	"slices"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/commalist"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{" , ,", nil},
		{"a", []string{"a"}},
		{"a,b", []string{"a", "b"}},
		{" a , b ,, c ", []string{"a", "b", "c"}},
		{"*.example.com,localhost:8080", []string{"*.example.com", "localhost:8080"}},
	}
	for _, tc := range cases {
		if got := commalist.Split(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Split(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestJoinSplitRoundTrip(t *testing.T) {
	items := []string{"exec", "network", "fs.read"}
	if got := commalist.Split(commalist.Join(items)); !slices.Equal(got, items) {
		t.Errorf("round trip = %q; want %q", got, items)
	}
}

func TestProse(t *testing.T) {
	cases := []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"exec"}, "exec"},
		{[]string{"exec", "network"}, "exec and network"},
		{[]string{"exec", "files", "network"}, "exec, files and network"},
	}
	for _, tc := range cases {
		if got := commalist.Prose(tc.in); got != tc.want {
			t.Errorf("Prose(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}
