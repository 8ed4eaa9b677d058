package calc

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// dateLayouts are the accepted input forms, tried in order.
const dateLayouts = "2006-01-02T15:04:05Z07:00|2006-01-02T15:04:05.999999999Z07:00|2006-01-02T15:04:05|2006-01-02T15:04|2006-01-02 15:04:05|2006-01-02 15:04|2006-01-02|2006-01|20060102"

// parseDate reads an ISO 8601 date or date-time; "today" and "now" use
// the clock. hasTime reports whether a time of day was given.
func parseDate(s string, now time.Time) (time.Time, bool, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "now":
		return now, true, nil
	case "today", "":
		y, m, d := now.Date()
		return time.Date(y, m, d, 0, 0, 0, 0, now.Location()), false, nil
	case "tomorrow":
		y, m, d := now.Date()
		return time.Date(y, m, d+1, 0, 0, 0, 0, now.Location()), false, nil
	case "yesterday":
		y, m, d := now.Date()
		return time.Date(y, m, d-1, 0, 0, 0, 0, now.Location()), false, nil
	}
	for _, layout := range strings.Split(dateLayouts, "|") {
		loc := now.Location()
		t, err := time.ParseInLocation(layout, s, loc)
		if err == nil {
			return t, strings.Contains(layout, "15"), nil
		}
	}
	return time.Time{}, false, fmt.Errorf("%q is not an ISO 8601 date; write e.g. 2025-03-09 or 2025-03-09T14:30", s)
}

// addMonths adds months, clamping to the end of shorter months
// (2024-01-31 + 1 month = 2024-02-29) instead of spilling over.
func addMonths(t time.Time, months int) time.Time {
	y, m, d := t.Date()
	total := int(m) - 1 + months
	ny := y + total/12
	nm := total % 12
	if nm < 0 {
		nm += 12
		ny--
	}
	last := time.Date(ny, time.Month(nm+1)+1, 0, 0, 0, 0, 0, t.Location()).Day()
	if d > last {
		d = last
	}
	return time.Date(ny, time.Month(nm+1), d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
}

func formatDate(t time.Time, hasTime bool) string {
	if hasTime {
		return t.Format("2006-01-02T15:04:05Z07:00") + " (" + t.Format("Monday") + ")"
	}
	return t.Format("2006-01-02") + " (" + t.Format("Monday") + ")"
}

// dateOp runs one calc_date operation.
func dateOp(op, date, other string, amount int, unitName string, now time.Time) (string, error) {
	t, hasTime, err := parseDate(date, now)
	if err != nil {
		return "", err
	}
	switch strings.ToLower(op) {
	case "diff":
		o, oTime, err := parseDate(other, now)
		if err != nil {
			return "", fmt.Errorf("other: %v", err)
		}
		return diff(t, o, hasTime || oTime), nil
	case "add", "subtract":
		if strings.ToLower(op) == "subtract" {
			amount = -amount
		}
		var r time.Time
		switch strings.TrimSuffix(strings.ToLower(unitName), "s") {
		case "day", "d":
			r = t.AddDate(0, 0, amount)
		case "week", "w":
			r = t.AddDate(0, 0, 7*amount)
		case "month", "m":
			r = addMonths(t, amount)
		case "year", "y":
			r = addMonths(t, 12*amount)
		case "hour", "h":
			r = t.Add(time.Duration(amount) * time.Hour)
			hasTime = true
		case "minute", "min":
			r = t.Add(time.Duration(amount) * time.Minute)
			hasTime = true
		case "business day", "workday", "weekday":
			r = addBusinessDays(t, amount)
		default:
			return "", fmt.Errorf("unit %q is not supported; use days, weeks, months, years, hours, minutes or business days", unitName)
		}
		return fmt.Sprintf("%s %+d %s = %s", formatDate(t, hasTime), amount, strings.ToLower(unitName), formatDate(r, hasTime)), nil
	case "weekday", "info":
		_, week := t.ISOWeek()
		q := (int(t.Month())-1)/3 + 1
		leap := t.Year()%4 == 0 && (t.Year()%100 != 0 || t.Year()%400 == 0)
		days := 365
		if leap {
			days = 366
		}
		leapNote := ""
		if leap {
			leapNote = ", leap year"
		}
		return fmt.Sprintf("%s is a %s; ISO week %d, day %d of %d, quarter %d%s",
			t.Format("2006-01-02"), t.Format("Monday"), week, t.YearDay(), days, q, leapNote), nil
	case "format":
		var b strings.Builder
		b.WriteString("ISO 8601: " + t.Format("2006-01-02") + "\n")
		if hasTime {
			b.WriteString("ISO 8601 with time: " + t.Format(time.RFC3339) + "\n")
		}
		b.WriteString("long: " + t.Format("Monday, 2 January 2006") + "\n")
		b.WriteString("US: " + t.Format("01/02/2006") + "\n")
		b.WriteString("European: " + t.Format("02.01.2006") + "\n")
		b.WriteString("RFC 1123: " + t.Format(time.RFC1123) + "\n")
		b.WriteString("Unix time: " + strconv.FormatInt(t.Unix(), 10))
		return b.String(), nil
	}
	return "", fmt.Errorf("op %q is not supported; use diff, add, subtract, weekday or format", op)
}

// addBusinessDays moves over Monday-Friday only (no holidays).
func addBusinessDays(t time.Time, n int) time.Time {
	step := 1
	if n < 0 {
		step = -1
		n = -n
	}
	for n > 0 {
		t = t.AddDate(0, 0, step)
		if wd := t.Weekday(); wd != time.Saturday && wd != time.Sunday {
			n--
		}
	}
	return t
}

// diff describes the span from start to end (negative when end is earlier).
func diff(start, end time.Time, withTime bool) string {
	sign := ""
	from, to := start, end
	if end.Before(start) {
		sign = "-"
		from, to = end, start
	}
	// Calendar days count dates, not 24-hour periods, so DST shifts do
	// not lose a day.
	fy, fm, fd := from.Date()
	ty, tm, td := to.Date()
	toDay := time.Date(ty, tm, td, 0, 0, 0, 0, time.UTC)
	days := int(toDay.Sub(time.Date(fy, fm, fd, 0, 0, 0, 0, time.UTC)).Hours() / 24)
	months := (ty-fy)*12 + int(tm) - int(fm)
	if td < fd {
		months--
	}
	ry, rm, rd := addMonths(from, months).Date()
	restDays := int(toDay.Sub(time.Date(ry, rm, rd, 0, 0, 0, 0, time.UTC)).Hours() / 24)
	var sb strings.Builder
	fmt.Fprintf(&sb, "from %s to %s: %s%d days", formatDate(start, withTime), formatDate(end, withTime), sign, days)
	fmt.Fprintf(&sb, " = %s%d weeks %d days", sign, days/7, days%7)
	if months > 0 {
		fmt.Fprintf(&sb, " = %s%d years %d months %d days", sign, months/12, months%12, restDays)
	}
	if withTime {
		d := to.Sub(from)
		fmt.Fprintf(&sb, "; exactly %s%s (%s%.2f hours)", sign, d.String(), sign, d.Hours())
	}
	return sb.String()
}
