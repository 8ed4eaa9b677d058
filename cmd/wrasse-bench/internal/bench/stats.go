package bench

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Percentile returns the nearest-rank p-th percentile (0 < p <= 100) of ds,
// which it does not modify; 0 for none.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(i, 1), len(s))-1]
}

// Median is the 50th percentile (nearest rank, so always a measured value).
func Median(ds []time.Duration) time.Duration { return Percentile(ds, 50) }

// Min returns the smallest of ds, 0 for none.
func Min(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return slices.Min(ds)
}

// FormatDuration prints d with three significant digits in a unit that
// suits it: "850 ns", "12.3 µs", "4.56 ms", "1.23 s".
func FormatDuration(d time.Duration) string {
	f := float64(d)
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%d ns", d.Nanoseconds())
	case d < time.Millisecond:
		return sig3(f/1e3) + " µs"
	case d < time.Second:
		return sig3(f/1e6) + " ms"
	}
	return sig3(f/1e9) + " s"
}

// sig3 prints v (>= 1) with three significant digits.
func sig3(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// FormatInt prints n with thin grouping commas: 1234567 → "1,234,567".
func FormatInt(n int) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := fmt.Sprint(n)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// FormatMB prints a size in KiB (as /proc reports it) in megabytes of
// 10^6 bytes, the unit the targets use.
func FormatMB(kB int) string { return fmt.Sprintf("%.1f MB", MB(kB)) }

// MB converts KiB to megabytes of 10^6 bytes.
func MB(kB int) float64 { return float64(kB) * 1024 / 1e6 }
