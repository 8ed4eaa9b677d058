package chat

import (
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
)

// The sidebar's sections: pinned conversations first, then the rest by
// when they were last used (Today, Yesterday, Previous 7 days, Previous 30
// days, then one section a month), as the chat apps people know do it.
// Archived conversations leave the list; its Archived button shows them
// alone.

// The fixed sections' names.
const (
	sectionPinned    = "Pinned"
	sectionToday     = "Today"
	sectionYesterday = "Yesterday"
	sectionWeek      = "Previous 7 days"
	sectionMonth     = "Previous 30 days"
	sectionArchived  = "Archived"
)

// sectionOf names the section of a conversation last used at t, seen at
// now, in now's time zone (the sidebar's clock, so tests pass a fixed
// one).
func sectionOf(now, t time.Time) string {
	loc := now.Location()
	y, m, d := now.Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, loc)
	t = t.In(loc)
	switch {
	case !t.Before(today):
		return sectionToday
	case !t.Before(today.AddDate(0, 0, -1)):
		return sectionYesterday
	case !t.Before(today.AddDate(0, 0, -7)):
		return sectionWeek
	case !t.Before(today.AddDate(0, 0, -30)):
		return sectionMonth
	}
	return t.Format("January 2006")
}

// arrange lays convs (newest first) out as the sidebar's rows: with
// archived false, the pinned ones under Pinned, then the others by date
// with each scheduled task's runs under its heading; with archived true,
// only the archived ones. It also counts the archived ones.
func arrange(convs []store.Conversation, runs map[store.ID]assistant.TaskRunRef, now time.Time, archived bool) (items []sidebarItem, nArchived int) {
	var pinned, rest []store.Conversation
	for _, cv := range convs {
		if cv.Archived {
			nArchived++
		}
		switch {
		case cv.Archived != archived:
		case cv.Pinned && !archived:
			pinned = append(pinned, cv)
		default:
			rest = append(rest, cv)
		}
	}
	if archived {
		if len(rest) > 0 {
			items = append(items, sidebarItem{section: sectionArchived})
		}
		for _, cv := range rest {
			items = append(items, sidebarItem{conv: cv})
		}
		return items, nArchived
	}
	if len(pinned) > 0 {
		items = append(items, sidebarItem{section: sectionPinned})
		for _, cv := range pinned {
			items = append(items, sidebarItem{conv: cv})
		}
	}
	grouped := groupRuns(rest, runs)
	last := ""
	for i, it := range grouped {
		t := it.conv.Updated
		if it.heading && i+1 < len(grouped) {
			t = grouped[i+1].conv.Updated // its newest run, listed next
		}
		if sec := sectionOf(now, t); sec != last {
			items = append(items, sidebarItem{section: sec})
			last = sec
		}
		items = append(items, it)
	}
	return items, nArchived
}
