package tasks

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

func mustLoc(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return loc
}

// at is a wall-clock time in loc.
func at(loc *time.Location, y int, m time.Month, d, h, mi int) time.Time {
	return time.Date(y, m, d, h, mi, 0, 0, loc)
}

func TestParseForms(t *testing.T) {
	loc := mustLoc(t, "Europe/Berlin")
	now := at(loc, 2025, 6, 2, 10, 7) // a Monday
	cases := []struct {
		in, want string
	}{
		{"once 2025-06-03 14:30", "once 2025-06-03 14:30"},
		{"at 2025-06-03 2:30pm", "once 2025-06-03 14:30"},
		{"once 14:30", "once 2025-06-02 14:30"},
		{"once 9am", "once 2025-06-03 09:00"},
		{"in 90m", "once 2025-06-02 11:37"},
		{"in 2 hours", "once 2025-06-02 12:07"},
		{"in 1d", "once 2025-06-03 10:07"},
		{"every 15m", "every 15m"},
		{"every 2 hours", "every 2h"},
		{"every 30 minutes", "every 30m"},
		{"every 1h30m", "every 90m"},
		{"Daily 08:00", "daily 08:00"},
		{"every day at 8am", "daily 08:00"},
		{"every day at noon", "daily 12:00"},
		{"weekdays 8:30", "weekdays 08:30"},
		{"every weekday at 18:00", "weekdays 18:00"},
		{"every mon-fri at 7", "weekdays 07:00"},
		{"weekly thu,mon 09:30", "weekly mon,thu 09:30"},
		{"every monday at 9", "weekly mon 09:00"},
		{"every sat,sun at 10:15", "weekly sat,sun 10:15"},
		{"cron 0 8 * * 1-5", "cron 0 8 * * 1-5"},
		{"0  8 * * MON-FRI", "cron 0 8 * * MON-FRI"},
		{"@daily", "cron @daily"},
		{"*/20 9-17 * * *", "cron */20 9-17 * * *"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			s, err := Parse(c.in, now, loc)
			if err != nil {
				t.Fatalf("Parse(%q): %v", c.in, err)
			}
			if got := s.String(); got != c.want {
				t.Fatalf("Parse(%q) = %q, want %q", c.in, got, c.want)
			}
			// The canonical text reads back to itself.
			back, err := Parse(s.String(), now, loc)
			if err != nil || back.String() != s.String() {
				t.Fatalf("round trip of %q: %q, %v", s.String(), back.String(), err)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	now := time.Date(2025, 6, 2, 10, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want error
	}{
		{"", ErrSchedule},
		{"sometimes", ErrSchedule},
		{"every", ErrSchedule},
		{"every 30s", ErrSchedule},
		{"every 0m", ErrSchedule},
		{"every 90s", ErrSchedule},
		{"every 8 days", ErrSchedule},
		{"daily", ErrSchedule},
		{"daily 25:00", ErrSchedule},
		{"daily 8:60", ErrSchedule},
		{"daily 13pm", ErrSchedule},
		{"weekly funday 09:00", ErrSchedule},
		{"once 2025-13-01 10:00", ErrSchedule},
		{"once 2025-06-01", ErrSchedule},
		{"in 30s", ErrSchedule},
		{"cron 61 * * * *", ErrSchedule},
		{"cron * * *", ErrSchedule},
		{"@every 5m", ErrSchedule},
		{"cron CRON_TZ=UTC 0 8 * * *", ErrSchedule},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if _, err := Parse(c.in, now, time.UTC); !errors.Is(err, c.want) {
				t.Fatalf("Parse(%q) = %v, want %v", c.in, err, c.want)
			}
		})
	}
}

func TestCheckNeverFires(t *testing.T) {
	now := time.Date(2025, 6, 2, 10, 0, 0, 0, time.UTC)
	for _, in := range []string{"once 2025-06-01 09:00", "cron 0 0 30 2 *", "cron 0 0 31 4 *"} {
		if _, err := Check(in, now, time.UTC); !errors.Is(err, ErrNeverFires) {
			t.Errorf("Check(%q) = %v, want ErrNeverFires", in, err)
		}
	}
	if _, err := Check("cron 0 0 29 2 *", now, time.UTC); err != nil {
		t.Errorf("29 February fires in leap years: %v", err)
	}
}

func TestNext(t *testing.T) {
	ny := mustLoc(t, "America/New_York")
	berlin := mustLoc(t, "Europe/Berlin")
	// Anchor of the every cases, in New York: Sat 8 March 2025 23:00 EST.
	anchor := at(ny, 2025, 3, 8, 23, 0)
	cases := []struct {
		name  string
		spec  string
		loc   *time.Location
		after time.Time
		want  []time.Time // successive Next times
	}{
		{"daily across midnight", "daily 00:05", berlin, at(berlin, 2025, 6, 2, 23, 59),
			[]time.Time{at(berlin, 2025, 6, 3, 0, 5), at(berlin, 2025, 6, 4, 0, 5)}},
		{"daily later today", "daily 08:00", berlin, at(berlin, 2025, 6, 2, 7, 59),
			[]time.Time{at(berlin, 2025, 6, 2, 8, 0), at(berlin, 2025, 6, 3, 8, 0)}},
		{"daily keeps its wall time across spring forward", "daily 08:00", ny, at(ny, 2025, 3, 8, 9, 0),
			[]time.Time{at(ny, 2025, 3, 9, 8, 0), at(ny, 2025, 3, 10, 8, 0)}},
		{"a skipped time runs when the clocks jump", "daily 02:30", ny, at(ny, 2025, 3, 8, 3, 0),
			[]time.Time{at(ny, 2025, 3, 9, 3, 0), at(ny, 2025, 3, 10, 2, 30)}},
		{"a repeated time runs once", "daily 01:30", ny, at(ny, 2025, 11, 1, 12, 0),
			[]time.Time{time.Date(2025, 11, 2, 5, 30, 0, 0, time.UTC), at(ny, 2025, 11, 3, 1, 30)}},
		{"weekdays skip the weekend", "weekdays 08:00", berlin, at(berlin, 2025, 6, 6, 9, 0), // Friday
			[]time.Time{at(berlin, 2025, 6, 9, 8, 0), at(berlin, 2025, 6, 10, 8, 0)}},
		{"weekly on its days", "weekly mon,thu 09:30", berlin, at(berlin, 2025, 6, 2, 9, 30),
			[]time.Time{at(berlin, 2025, 6, 5, 9, 30), at(berlin, 2025, 6, 9, 9, 30)}},
		{"cron weekdays", "cron 0 8 * * 1-5", berlin, at(berlin, 2025, 6, 6, 8, 0),
			[]time.Time{at(berlin, 2025, 6, 9, 8, 0)}},
		{"cron day-of-month or day-of-week", "cron 0 12 1 * sun", berlin, at(berlin, 2025, 6, 1, 12, 0),
			[]time.Time{at(berlin, 2025, 6, 8, 12, 0), at(berlin, 2025, 6, 15, 12, 0)}},
		{"cron skipped hour runs at the jump", "cron 30 2 * * *", ny, at(ny, 2025, 3, 8, 3, 0),
			[]time.Time{at(ny, 2025, 3, 9, 3, 0), at(ny, 2025, 3, 10, 2, 30)}},
		{"cron repeated hour runs once", "cron 30 1 * * *", ny, at(ny, 2025, 11, 1, 12, 0),
			[]time.Time{time.Date(2025, 11, 2, 5, 30, 0, 0, time.UTC), at(ny, 2025, 11, 3, 1, 30)}},
		{"cron every 20 min across midnight", "cron */20 * * * *", berlin, at(berlin, 2025, 6, 2, 23, 45),
			[]time.Time{at(berlin, 2025, 6, 3, 0, 0), at(berlin, 2025, 6, 3, 0, 20)}},
		{"cron leap day", "cron 0 9 29 2 *", berlin, at(berlin, 2025, 3, 1, 0, 0),
			[]time.Time{at(berlin, 2028, 2, 29, 9, 0)}},
		{"once", "once 2025-06-03 14:30", berlin, at(berlin, 2025, 6, 2, 10, 0),
			[]time.Time{at(berlin, 2025, 6, 3, 14, 30), {}}},
		{"every hour counts real hours across spring forward", "every 1h", ny, anchor.Add(2 * time.Hour),
			[]time.Time{anchor.Add(3 * time.Hour), anchor.Add(4 * time.Hour)}},
		{"every before its anchor", "every 15m", ny, anchor.Add(-time.Hour),
			[]time.Time{anchor, anchor.Add(15 * time.Minute)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse(c.spec, anchor, c.loc)
			if err != nil {
				t.Fatal(err)
			}
			if s.Kind == Every {
				s.Anchor = anchor
			}
			after := c.after
			for i, want := range c.want {
				got := s.Next(after, c.loc)
				if !got.Equal(want) {
					t.Fatalf("Next #%d after %s = %s, want %s", i+1, after.In(c.loc), got.In(c.loc), want.In(c.loc))
				}
				after = got
			}
		})
	}
}

func TestPeriod(t *testing.T) {
	berlin := mustLoc(t, "Europe/Berlin")
	now := at(berlin, 2025, 6, 2, 10, 0)
	cases := []struct {
		spec string
		due  time.Time
		want time.Duration
	}{
		{"daily 08:00", at(berlin, 2025, 6, 2, 8, 0), 24 * time.Hour},
		{"weekdays 08:00", at(berlin, 2025, 6, 6, 8, 0), 72 * time.Hour},
		{"every 15m", now, 15 * time.Minute},
		{"daily 08:00", at(berlin, 2025, 3, 29, 8, 0), 23 * time.Hour}, // the clocks go forward that night
		{"once 2025-06-03 10:00", at(berlin, 2025, 6, 3, 10, 0), 0},
	}
	for _, c := range cases {
		s, err := Parse(c.spec, now, berlin)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Period(c.due, berlin); got != c.want {
			t.Errorf("%s: Period after %s = %s, want %s", c.spec, c.due, got, c.want)
		}
	}
}

func TestScheduleJSON(t *testing.T) {
	now := time.Date(2025, 6, 2, 10, 7, 0, 0, time.UTC)
	for _, in := range []string{"every 15m", "weekly mon,thu 09:30", "cron 0 8 * * 1-5", "once 2025-06-03 14:30"} {
		s, err := Parse(in, now, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back Schedule
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if back.String() != s.String() || !back.Anchor.Equal(s.Anchor) {
			t.Fatalf("%s read back as %q anchor %s", b, back.String(), back.Anchor)
		}
		if got, want := back.Next(now, time.UTC), s.Next(now, time.UTC); !got.Equal(want) {
			t.Fatalf("%s: Next %s, want %s", b, got, want)
		}
	}
}

func TestDescribe(t *testing.T) {
	now := time.Date(2025, 6, 2, 10, 7, 0, 0, time.UTC)
	cases := map[string]string{
		"every 1h":             "every hour",
		"every 90m":            "every 90 minutes",
		"weekdays 08:00":       "every weekday at 08:00",
		"weekly mon,thu 09:30": "every Monday and Thursday at 09:30",
		"daily 07:05":          "every day at 07:05",
	}
	for in, want := range cases {
		s, err := Parse(in, now, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Describe(); got != want {
			t.Errorf("Describe(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParse: whatever the text, Parse returns a schedule or an error
// (never panics), a schedule's text reads back to the same schedule, and
// Next moves forward.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"every 15m", "daily 08:00", "weekly mon,thu 09:30", "cron 0 8 * * 1-5", "@daily",
		"once 2025-06-03 14:30", "in 2 hours", "every mon-fri at 7pm", "*/5 * * * *", "0 0 30 2 *", "every 1h30m", "weekly sun-sat 0:00"} {
		f.Add(s)
	}
	loc := time.FixedZone("X", 3600)
	now := time.Date(2025, 6, 2, 10, 7, 0, 0, loc)
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in, now, loc)
		if err != nil {
			if !errors.Is(err, ErrSchedule) {
				t.Fatalf("Parse(%q): error %v does not match ErrSchedule", in, err)
			}
			return
		}
		back, err := Parse(s.String(), now, loc)
		if err != nil || back.String() != s.String() {
			t.Fatalf("Parse(%q) = %q, which reads back as %q, %v", in, s.String(), back.String(), err)
		}
		if n := s.Next(now, loc); !n.IsZero() && !n.After(now) {
			t.Fatalf("%q: Next(%s) = %s, not after", s.String(), now, n)
		}
	})
}

// TestNextSkippedTimeEveryZone: in zones whose clocks jump forward, a
// daily time inside the gap runs once, at the jump, that day.
func TestNextSkippedTimeEveryZone(t *testing.T) {
	cases := []struct {
		zone       string
		y          int
		m          time.Month
		d, h, mi   int
		jumpH      int
		jumpMinute int
	}{
		{"Europe/Berlin", 2025, 3, 30, 2, 30, 3, 0},
		{"America/New_York", 2025, 3, 9, 2, 15, 3, 0},
		{"Australia/Lord_Howe", 2025, 10, 5, 2, 10, 2, 30}, // a half-hour change
	}
	for _, c := range cases {
		loc := mustLoc(t, c.zone)
		s, err := Parse(fmtDaily(c.h, c.mi), time.Now(), loc)
		if err != nil {
			t.Fatal(err)
		}
		got := s.Next(at(loc, c.y, c.m, c.d-1, 12, 0), loc)
		want := at(loc, c.y, c.m, c.d, c.jumpH, c.jumpMinute)
		if !got.Equal(want) {
			t.Errorf("%s: daily %02d:%02d on %d-%02d-%02d ran at %s, want %s", c.zone, c.h, c.mi, c.y, c.m, c.d, got.In(loc), want)
		}
	}
}

func fmtDaily(h, m int) string {
	return "daily " + time.Date(0, 1, 1, h, m, 0, 0, time.UTC).Format("15:04")
}
