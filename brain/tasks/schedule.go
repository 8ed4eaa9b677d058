package tasks

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/robfig/cron/v3"
)

// Kind is the shape of a schedule.
type Kind string

// The kinds of schedule.
const (
	// Once runs at one wall-clock time.
	Once Kind = "once"
	// Every runs every Interval, counted from the schedule's anchor.
	Every Kind = "every"
	// Daily runs every day at a time of day.
	Daily Kind = "daily"
	// Weekdays runs Monday to Friday at a time of day.
	Weekdays Kind = "weekdays"
	// Weekly runs on the listed days at a time of day.
	Weekly Kind = "weekly"
	// Cron runs when a five-field cron expression matches.
	Cron Kind = "cron"
)

// Bounds of an interval schedule.
const (
	MinInterval = time.Minute
	MaxInterval = 7 * 24 * time.Hour
)

// MaxSpecLength bounds a schedule's text.
const MaxSpecLength = 200

// searchYears bounds how far Next looks for a matching day.
const searchYears = 5

// Schedule says when a task runs. The zero Schedule never fires. Times of
// day and dates are wall-clock times in the location Next is given (the
// person's time zone): a daily 08:00 stays at 08:00 across daylight-saving
// changes, a time the clocks skip runs when they jump past it, and a time
// they repeat runs once.
type Schedule struct {
	Kind Kind
	// At is a once schedule's date and time of day (its own location is
	// ignored: the wall clock counts).
	At time.Time
	// Interval and Anchor are an every schedule's period and the instant
	// its runs are counted from.
	Interval time.Duration
	Anchor   time.Time
	// Hour and Minute are the time of day of daily, weekdays and weekly.
	Hour, Minute int
	// Days are weekly's days.
	Days []time.Weekday
	// Expr is a cron schedule's expression as written.
	Expr string

	// spec is Expr parsed.
	spec *cron.SpecSchedule
}

// cronParser reads the standard five fields and the descriptors (@daily).
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// starBit marks a cron field written as * or ? (robfig/cron's own value).
const starBit = 1 << 63

// Parse reads a schedule as people write it; now and loc resolve relative
// and partial times ("in 2h", "once 14:30") and anchor interval
// schedules. Accepted forms (case does not matter):
//
//	once 2025-06-01 14:30    at 2025-06-01 14:30    once 14:30 (the next 14:30)
//	in 90m                   in 2 hours             in 1d
//	every 15m                every 2 hours          every 30 minutes
//	daily 08:00              every day at 8am
//	weekdays 08:00           every weekday at 8:30
//	weekly mon,thu 09:30     every monday at 9      every mon-fri at 18:00
//	cron 0 8 * * 1-5         0 8 * * 1-5            @daily
//
// Parse checks the form only; Check also says whether it ever fires.
func Parse(text string, now time.Time, loc *time.Location) (Schedule, error) {
	if loc == nil {
		loc = time.Local
	}
	if utf8.RuneCountInString(text) > MaxSpecLength {
		return Schedule{}, fmt.Errorf("%w: longer than %d characters", ErrSchedule, MaxSpecLength)
	}
	raw := strings.TrimSpace(text)
	if raw == "" {
		return Schedule{}, fmt.Errorf("%w: empty; write one such as \"every weekday at 08:00\" or \"every 2h\"", ErrSchedule)
	}
	words := strings.Fields(strings.ToLower(raw))
	switch w := words[0]; {
	case w == "cron":
		return parseCron(strings.TrimSpace(raw[len("cron"):]))
	case strings.HasPrefix(w, "@"):
		return parseCron(raw)
	case w == "once" || w == "at" || w == "on":
		return parseOnce(words[1:], now, loc)
	case w == "in":
		return parseIn(words[1:], now, loc)
	case w == "daily":
		return parseAtTime(Daily, nil, words[1:])
	case w == "weekdays":
		return parseAtTime(Weekdays, nil, words[1:])
	case w == "weekly":
		if len(words) < 2 {
			return Schedule{}, fmt.Errorf("%w: weekly needs days and a time, as in \"weekly mon,thu 09:30\"", ErrSchedule)
		}
		days, err := parseDays(words[1])
		if err != nil {
			return Schedule{}, err
		}
		return parseAtTime(Weekly, days, words[2:])
	case w == "every":
		return parseEvery(words[1:], now, loc)
	case looksLikeCron(words):
		return parseCron(raw)
	}
	return Schedule{}, fmt.Errorf("%w: %q; write one such as \"every weekday at 08:00\", \"every 2h\", \"once 2025-06-01 14:30\", \"in 30m\" or \"cron 0 8 * * 1-5\"",
		ErrSchedule, raw)
}

// looksLikeCron reports whether words are five cron fields.
func looksLikeCron(words []string) bool {
	if len(words) != 5 {
		return false
	}
	for _, w := range words {
		if strings.Trim(w, "0123456789*/,-?") != "" && !strings.ContainsAny(w, "0123456789*") {
			// Month and day names are allowed beside digits only in the
			// last two fields; plain words are not cron.
			if !isNameField(w) {
				return false
			}
		}
	}
	return true
}

func isNameField(w string) bool {
	for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == ',' || r == '-' || r == '/' }) {
		if _, ok := dayNames[part]; ok {
			continue
		}
		if _, ok := monthNames[part]; ok {
			continue
		}
		return false
	}
	return true
}

var monthNames = map[string]bool{"jan": true, "feb": true, "mar": true, "apr": true, "may": true, "jun": true,
	"jul": true, "aug": true, "sep": true, "oct": true, "nov": true, "dec": true}

func parseCron(expr string) (Schedule, error) {
	expr = strings.Join(strings.Fields(expr), " ")
	if expr == "" {
		return Schedule{}, fmt.Errorf("%w: cron needs an expression, as in \"cron 0 8 * * 1-5\" (minute hour day-of-month month day-of-week)", ErrSchedule)
	}
	low := strings.ToLower(expr)
	if strings.HasPrefix(low, "@every") {
		return Schedule{}, fmt.Errorf("%w: write \"every 5m\" rather than %q", ErrSchedule, expr)
	}
	if strings.HasPrefix(low, "tz=") || strings.HasPrefix(low, "cron_tz=") {
		return Schedule{}, fmt.Errorf("%w: %q names a time zone; schedules use yours", ErrSchedule, expr)
	}
	s, err := cronParser.Parse(expr)
	if err != nil {
		return Schedule{}, fmt.Errorf("%w: cron %q: %v (five fields: minute hour day-of-month month day-of-week, as in \"0 8 * * 1-5\")", ErrSchedule, expr, err)
	}
	spec, ok := s.(*cron.SpecSchedule)
	if !ok {
		return Schedule{}, fmt.Errorf("%w: cron %q is not a calendar expression", ErrSchedule, expr)
	}
	return Schedule{Kind: Cron, Expr: expr, spec: spec}, nil
}

func parseOnce(words []string, now time.Time, loc *time.Location) (Schedule, error) {
	usage := "as in \"once 2025-06-01 14:30\" or \"once 14:30\""
	words = dropWord(words, "at")
	if len(words) == 0 || len(words) > 3 {
		return Schedule{}, fmt.Errorf("%w: once needs a date and a time, %s", ErrSchedule, usage)
	}
	var y, d int
	var m time.Month
	timeWords := words
	if date, err := time.ParseInLocation("2006-01-02", words[0], loc); err == nil {
		y, m, d = date.Date()
		timeWords = dropWord(words[1:], "at")
		if len(timeWords) == 0 {
			return Schedule{}, fmt.Errorf("%w: once %s needs a time of day too, %s", ErrSchedule, words[0], usage)
		}
	}
	h, mi, err := parseClock(strings.Join(timeWords, ""))
	if err != nil {
		return Schedule{}, err
	}
	if y == 0 {
		// A time alone is its next occurrence.
		local := now.In(loc)
		y, m, d = local.Date()
		if !time.Date(y, m, d, h, mi, 0, 0, loc).After(local) {
			y, m, d = local.AddDate(0, 0, 1).Date()
		}
	}
	return Schedule{Kind: Once, At: time.Date(y, m, d, h, mi, 0, 0, time.UTC)}, nil
}

func parseIn(words []string, now time.Time, loc *time.Location) (Schedule, error) {
	d, err := parseDuration(words)
	if err != nil {
		return Schedule{}, fmt.Errorf("%w: \"in\" needs an amount of time, as in \"in 30m\" or \"in 2 hours\": %v", ErrSchedule, err)
	}
	if d < time.Minute {
		return Schedule{}, fmt.Errorf("%w: \"in\" needs at least a minute", ErrSchedule)
	}
	at := now.In(loc).Add(d).Truncate(time.Minute)
	y, m, day := at.Date()
	return Schedule{Kind: Once, At: time.Date(y, m, day, at.Hour(), at.Minute(), 0, 0, time.UTC)}, nil
}

func parseEvery(words []string, now time.Time, loc *time.Location) (Schedule, error) {
	if len(words) == 0 {
		return Schedule{}, fmt.Errorf("%w: every what? as in \"every 15m\", \"every day at 08:00\" or \"every monday at 9\"", ErrSchedule)
	}
	switch words[0] {
	case "day":
		return parseAtTime(Daily, nil, words[1:])
	case "weekday", "weekdays":
		return parseAtTime(Weekdays, nil, words[1:])
	}
	if days, err := parseDays(words[0]); err == nil {
		if slices.Equal(days, []time.Weekday{1, 2, 3, 4, 5}) {
			return parseAtTime(Weekdays, nil, words[1:])
		}
		return parseAtTime(Weekly, days, words[1:])
	}
	d, err := parseDuration(words)
	if err != nil {
		return Schedule{}, fmt.Errorf("%w: every %s: %v", ErrSchedule, strings.Join(words, " "), err)
	}
	if d < MinInterval || d > MaxInterval {
		return Schedule{}, fmt.Errorf("%w: every %s: the interval must be between a minute and 7 days (use daily, weekly or cron for longer)", ErrSchedule, strings.Join(words, " "))
	}
	if d%time.Minute != 0 {
		return Schedule{}, fmt.Errorf("%w: every %s: use whole minutes", ErrSchedule, strings.Join(words, " "))
	}
	return Schedule{Kind: Every, Interval: d, Anchor: now.In(loc).Truncate(time.Minute).UTC()}, nil
}

// parseDuration reads "15m", "15 m", "2 hours", "1h30m", "1d".
func parseDuration(words []string) (time.Duration, error) {
	s := strings.Join(words, "")
	if s == "" {
		return 0, fmt.Errorf("no amount given")
	}
	for _, u := range []struct{ long, short string }{{"minutes", "m"}, {"minute", "m"}, {"mins", "m"}, {"min", "m"},
		{"hours", "h"}, {"hour", "h"}, {"hrs", "h"}, {"hr", "h"}, {"days", "d"}, {"day", "d"}} {
		s = strings.ReplaceAll(s, u.long, u.short)
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		v, err := strconv.Atoi(n)
		if err != nil || v <= 0 || v > 3650 {
			return 0, fmt.Errorf("%q is not a number of days", n)
		}
		return time.Duration(v) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not an amount of time such as 15m or 2h", strings.Join(words, " "))
	}
	return d, nil
}

func parseAtTime(k Kind, days []time.Weekday, words []string) (Schedule, error) {
	words = dropWord(words, "at")
	if len(words) == 0 {
		return Schedule{}, fmt.Errorf("%w: %s needs a time of day, as in \"%s 08:00\"", ErrSchedule, k, k)
	}
	h, m, err := parseClock(strings.Join(words, ""))
	if err != nil {
		return Schedule{}, err
	}
	return Schedule{Kind: k, Hour: h, Minute: m, Days: days}, nil
}

func dropWord(words []string, w string) []string {
	if len(words) > 0 && words[0] == w {
		return words[1:]
	}
	return words
}

// parseClock reads 08:00, 8:00, 8, 8am, 8:30pm, 20h, noon, midnight.
func parseClock(s string) (hour, minute int, err error) {
	bad := fmt.Errorf("%w: %q is not a time of day such as 08:00, 8:30pm or 20:15", ErrSchedule, s)
	switch s {
	case "noon":
		return 12, 0, nil
	case "midnight":
		return 0, 0, nil
	}
	pm, am := strings.HasSuffix(s, "pm"), strings.HasSuffix(s, "am")
	s = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s, "pm"), "am"), "h")
	hs, ms, hasMin := strings.Cut(s, ":")
	if !hasMin {
		hs, ms, hasMin = strings.Cut(s, ".")
	}
	if hs == "" || len(hs) > 2 || (hasMin && len(ms) != 2) {
		return 0, 0, bad
	}
	h, err1 := strconv.Atoi(hs)
	m := 0
	var err2 error
	if hasMin {
		m, err2 = strconv.Atoi(ms)
	}
	if err1 != nil || err2 != nil || h < 0 || m < 0 || m > 59 {
		return 0, 0, bad
	}
	if am || pm {
		if h < 1 || h > 12 {
			return 0, 0, bad
		}
		h %= 12
		if pm {
			h += 12
		}
	}
	if h > 23 {
		return 0, 0, bad
	}
	return h, m, nil
}

var dayNames = map[string]time.Weekday{
	"sun": time.Sunday, "sunday": time.Sunday, "sundays": time.Sunday,
	"mon": time.Monday, "monday": time.Monday, "mondays": time.Monday,
	"tue": time.Tuesday, "tues": time.Tuesday, "tuesday": time.Tuesday, "tuesdays": time.Tuesday,
	"wed": time.Wednesday, "wednesday": time.Wednesday, "wednesdays": time.Wednesday,
	"thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "thursday": time.Thursday, "thursdays": time.Thursday,
	"fri": time.Friday, "friday": time.Friday, "fridays": time.Friday,
	"sat": time.Saturday, "saturday": time.Saturday, "saturdays": time.Saturday,
}

// parseDays reads "mon", "mon,thu", "mon-fri", "sat,sun".
func parseDays(s string) ([]time.Weekday, error) {
	set := map[time.Weekday]bool{}
	for _, part := range strings.Split(s, ",") {
		from, to, isRange := strings.Cut(part, "-")
		a, ok := dayNames[from]
		if !ok {
			return nil, fmt.Errorf("%w: %q is not a day (mon, tue, wed, thu, fri, sat, sun)", ErrSchedule, from)
		}
		b := a
		if isRange {
			if b, ok = dayNames[to]; !ok {
				return nil, fmt.Errorf("%w: %q is not a day (mon, tue, wed, thu, fri, sat, sun)", ErrSchedule, to)
			}
		}
		for d := a; ; d = (d + 1) % 7 {
			set[d] = true
			if d == b {
				break
			}
		}
	}
	days := make([]time.Weekday, 0, len(set))
	for d := range set {
		days = append(days, d)
	}
	slices.SortFunc(days, func(x, y time.Weekday) int { return int(mondayFirst(x)) - int(mondayFirst(y)) })
	return days, nil
}

func mondayFirst(d time.Weekday) int { return (int(d) + 6) % 7 }

// String is the schedule in the form Parse reads back to the same
// schedule (an every schedule's anchor aside).
func (s Schedule) String() string {
	switch s.Kind {
	case Once:
		return "once " + s.At.Format("2006-01-02 15:04")
	case Every:
		return "every " + shortDuration(s.Interval)
	case Daily, Weekdays:
		return fmt.Sprintf("%s %02d:%02d", s.Kind, s.Hour, s.Minute)
	case Weekly:
		names := make([]string, len(s.Days))
		for i, d := range s.Days {
			names[i] = strings.ToLower(d.String()[:3])
		}
		return fmt.Sprintf("weekly %s %02d:%02d", strings.Join(names, ","), s.Hour, s.Minute)
	case Cron:
		return "cron " + s.Expr
	}
	return ""
}

// Describe says the schedule in words: "every weekday at 08:00".
func (s Schedule) Describe() string {
	switch s.Kind {
	case Once:
		return "once, " + s.At.Format("Mon 2 Jan 2006 at 15:04")
	case Every:
		return "every " + longDuration(s.Interval)
	case Daily:
		return fmt.Sprintf("every day at %02d:%02d", s.Hour, s.Minute)
	case Weekdays:
		return fmt.Sprintf("every weekday at %02d:%02d", s.Hour, s.Minute)
	case Weekly:
		names := make([]string, len(s.Days))
		for i, d := range s.Days {
			names[i] = d.String()
		}
		return fmt.Sprintf("every %s at %02d:%02d", joinWords(names), s.Hour, s.Minute)
	case Cron:
		return "cron " + s.Expr
	}
	return "never"
}

func joinWords(w []string) string {
	switch len(w) {
	case 0:
		return ""
	case 1:
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}

func shortDuration(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	case d%time.Hour == 0:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/time.Minute)) + "m"
}

func longDuration(d time.Duration) string {
	unit := func(n int, one string) string {
		if n == 1 {
			return one
		}
		return strconv.Itoa(n) + " " + one + "s"
	}
	switch {
	case d%(24*time.Hour) == 0:
		return unit(int(d/(24*time.Hour)), "day")
	case d%time.Hour == 0:
		return unit(int(d/time.Hour), "hour")
	}
	return unit(int(d/time.Minute), "minute")
}

// Next is the first time strictly after after at which s fires, in loc;
// the zero time when it never fires again.
func (s Schedule) Next(after time.Time, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.Local
	}
	switch s.Kind {
	case Once:
		y, m, d := s.At.Date()
		at := wallTime(y, m, d, s.At.Hour(), s.At.Minute(), loc)
		if at.After(after) {
			return at
		}
		return time.Time{}
	case Every:
		if s.Interval <= 0 {
			return time.Time{}
		}
		if after.Before(s.Anchor) {
			return s.Anchor.In(loc)
		}
		n := after.Sub(s.Anchor)/s.Interval + 1
		return s.Anchor.Add(n * s.Interval).In(loc)
	case Daily, Weekdays, Weekly:
		return nextWall(after, loc, s.dayMatches, bit(s.Hour), bit(s.Minute))
	case Cron:
		spec := s.spec
		if spec == nil {
			parsed, err := parseCron(s.Expr)
			if err != nil {
				return time.Time{}
			}
			spec = parsed.spec
		}
		return nextWall(after, loc, func(t time.Time) bool { return cronDay(spec, t) }, spec.Hour, spec.Minute)
	}
	return time.Time{}
}

func bit(n int) uint64 { return 1 << uint(n) }

func (s Schedule) dayMatches(t time.Time) bool {
	switch s.Kind {
	case Weekdays:
		return t.Weekday() != time.Saturday && t.Weekday() != time.Sunday
	case Weekly:
		return slices.Contains(s.Days, t.Weekday())
	}
	return true
}

// cronDay is robfig/cron's day rule: month must match, and the day of
// the month and the day of the week both must when either is a *, one of
// them otherwise.
func cronDay(s *cron.SpecSchedule, t time.Time) bool {
	if 1<<uint(t.Month())&s.Month == 0 {
		return false
	}
	dom := 1<<uint(t.Day())&s.Dom > 0
	dow := 1<<uint(t.Weekday())&s.Dow > 0
	if s.Dom&starBit > 0 || s.Dow&starBit > 0 {
		return dom && dow
	}
	return dom || dow
}

// nextWall is the first instant after after whose wall-clock day matches
// day and whose hour and minute are in the hour and minute bit sets. Each
// wall-clock time counts once: a time the clocks repeat (autumn) is its
// first instant; a time they skip (spring) is the instant they jump to.
func nextWall(after time.Time, loc *time.Location, day func(time.Time) bool, hours, minutes uint64) time.Time {
	local := after.In(loc)
	y, m, d := local.Date()
	for i := 0; i <= searchYears*366; i++ {
		noon := time.Date(y, m, d+i, 12, 0, 0, 0, loc)
		if !day(noon) {
			continue
		}
		dy, dm, dd := noon.Date()
		first := i == 0
		for h := 0; h < 24; h++ {
			if hours&bit(h) == 0 || (first && h < local.Hour()-3) {
				continue
			}
			for mi := 0; mi < 60; mi++ {
				if minutes&bit(mi) == 0 {
					continue
				}
				if t := wallTime(dy, dm, dd, h, mi, loc); t.After(after) {
					return t
				}
			}
		}
	}
	return time.Time{}
}

// wallTime is the instant the wall clock in loc shows the date and time;
// in a gap the clocks skip, the instant they jump (the end of the gap).
func wallTime(y int, m time.Month, d, h, mi int, loc *time.Location) time.Time {
	t := time.Date(y, m, d, h, mi, 0, 0, loc)
	if t.Hour() == h && t.Minute() == mi {
		return t
	}
	// Go resolves a skipped time to one side of the gap or the other;
	// either way the gap's end is the zone change beside it.
	start, end := t.ZoneBounds()
	if t.Day() == d && t.Hour()*60+t.Minute() < h*60+mi && !end.IsZero() {
		return end
	}
	if !start.IsZero() {
		return start
	}
	return t
}

// Period is how long after due the run following it comes: what the
// missed-run rule measures a late run against. Zero for a once.
func (s Schedule) Period(due time.Time, loc *time.Location) time.Duration {
	n := s.Next(due, loc)
	if n.IsZero() {
		return 0
	}
	return n.Sub(due)
}

// Recurring reports whether s fires more than once.
func (s Schedule) Recurring() bool { return s.Kind != Once && s.Kind != "" }

// Check parses text and says whether the schedule ever fires after now.
func Check(text string, now time.Time, loc *time.Location) (Schedule, error) {
	s, err := Parse(text, now, loc)
	if err != nil {
		return s, err
	}
	if s.Next(now, loc).IsZero() {
		if s.Kind == Once {
			return s, fmt.Errorf("%w: %s is in the past", ErrNeverFires, s.At.Format("2006-01-02 15:04"))
		}
		return s, fmt.Errorf("%w: %q matches no time in the next %d years", ErrNeverFires, s.String(), searchYears)
	}
	return s, nil
}

// scheduleJSON is how a schedule is stored: its text and an every
// schedule's anchor.
type scheduleJSON struct {
	Spec   string    `json:"spec"`
	Anchor time.Time `json:"anchor,omitzero"`
}

// MarshalJSON stores the schedule as its text.
func (s Schedule) MarshalJSON() ([]byte, error) {
	return json.Marshal(scheduleJSON{Spec: s.String(), Anchor: s.Anchor})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (s *Schedule) UnmarshalJSON(b []byte) error {
	var j scheduleJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	if j.Spec == "" {
		*s = Schedule{}
		return nil
	}
	p, err := Parse(j.Spec, j.Anchor, time.UTC)
	if err != nil {
		return err
	}
	if p.Kind == Every {
		p.Anchor = j.Anchor
	}
	*s = p
	return nil
}
