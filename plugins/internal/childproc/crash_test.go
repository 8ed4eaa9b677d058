package childproc

import "testing"

// Summary picks the Go runtime's reason out of a crash report.
func TestCrashSummary(t *testing.T) {
	cases := []struct {
		lines []string
		want  string
	}{
		{[]string{"fatal error: sync: unlock of unlocked mutex", "", "goroutine 1 [running]:"}, "fatal error: sync: unlock of unlocked mutex"},
		{[]string{"runtime: goroutine stack exceeds 67108864-byte limit", "runtime: sp=0x1 stack=[0x1, 0x2]", "fatal error: stack overflow"},
			"fatal error: stack overflow (goroutine stack exceeds 67108864-byte limit)"},
		{[]string{"panic: boom [recovered, repanicked]", "", "goroutine 7 [running]:"}, "panic: boom"},
		{[]string{"runtime: out of memory: cannot allocate 1099511627776-byte block (7962624 in use)", "fatal error: out of memory"},
			"fatal error: out of memory: cannot allocate 1099511627776-byte block (7962624 in use)"},
		{[]string{"runtime: something odd"}, "runtime: something odd"},
		{[]string{"hello"}, ""},
	}
	for _, tc := range cases {
		if got := Summary(tc.lines); got != tc.want {
			t.Errorf("%q: %q; want %q", tc.lines, got, tc.want)
		}
	}
}
