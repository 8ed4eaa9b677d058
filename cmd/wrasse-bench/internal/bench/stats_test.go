package bench

import (
	"testing"
	"time"
)

func ms_(n ...int) []time.Duration {
	out := make([]time.Duration, len(n))
	for i, x := range n {
		out[i] = time.Duration(x) * time.Millisecond
	}
	return out
}

func TestPercentile(t *testing.T) {
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // reversed: Percentile must sort a copy
	}
	cases := []struct {
		name string
		ds   []time.Duration
		p    float64
		want time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one", ms_(7), 99, 7 * time.Millisecond},
		{"median odd", ms_(3, 1, 2), 50, 2 * time.Millisecond},
		{"median even takes lower rank", ms_(4, 1, 3, 2), 50, 2 * time.Millisecond},
		{"p99 of 100", ms_(hundred...), 99, 99 * time.Millisecond},
		{"p50 of 100", ms_(hundred...), 50, 50 * time.Millisecond},
		{"p100", ms_(5, 9, 1), 100, 9 * time.Millisecond},
		{"tiny p rounds up to first", ms_(5, 9, 1), 0.1, 1 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := append([]time.Duration(nil), c.ds...)
			if got := Percentile(c.ds, c.p); got != c.want {
				t.Errorf("Percentile(%v, %v) = %v, want %v", c.ds, c.p, got, c.want)
			}
			for i := range before {
				if before[i] != c.ds[i] {
					t.Fatalf("input modified: %v", c.ds)
				}
			}
		})
	}
	if got := Median(ms_(9, 8, 1)); got != 8*time.Millisecond {
		t.Errorf("Median = %v", got)
	}
	if got := Min(ms_(9, 8, 1)); got != time.Millisecond {
		t.Errorf("Min = %v", got)
	}
	if got := Min(nil); got != 0 {
		t.Errorf("Min(nil) = %v", got)
	}
}

func TestFormat(t *testing.T) {
	durations := []struct {
		d    time.Duration
		want string
	}{
		{850 * time.Nanosecond, "850 ns"},
		{1500 * time.Nanosecond, "1.50 µs"},
		{12345 * time.Nanosecond, "12.3 µs"},
		{200 * time.Microsecond, "200 µs"},
		{4560 * time.Microsecond, "4.56 ms"},
		{1234 * time.Millisecond, "1.23 s"},
		{0, "0 ns"},
	}
	for _, c := range durations {
		if got := FormatDuration(c.d); got != c.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
	ints := []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {1234567, "1,234,567"}, {-10000, "-10,000"}}
	for _, c := range ints {
		if got := FormatInt(c.n); got != c.want {
			t.Errorf("FormatInt(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := FormatMB(58594); got != "60.0 MB" { // 58,594 KiB = 60.0e6 bytes
		t.Errorf("FormatMB = %q", got)
	}
}
