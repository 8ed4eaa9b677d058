package chat

import (
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/tasks"
)

// sidebarItem is one row of the conversation list: a conversation, or the
// heading of a scheduled task whose runs follow it.
type sidebarItem struct {
	conv store.Conversation
	// task is the task a heading names, or the one a run belongs to.
	task *assistant.TaskRunRef
	// heading: this row is the task's heading; runs counts its runs and
	// newest is the one a tap on it opens.
	heading bool
	runs    int
	newest  store.ID
	// section, when set, makes this row a section's title ("Today";
	// sidebargroups.go).
	section string
}

// groupRuns lists convs (newest first) with the runs of each scheduled
// task gathered under a heading for the task, where its newest run
// would be.
func groupRuns(convs []store.Conversation, runs map[store.ID]assistant.TaskRunRef) []sidebarItem {
	if len(runs) == 0 {
		out := make([]sidebarItem, len(convs))
		for i, cv := range convs {
			out[i] = sidebarItem{conv: cv}
		}
		return out
	}
	byTask := map[tasks.ID][]store.Conversation{}
	for _, cv := range convs {
		if r, ok := runs[cv.ID]; ok {
			byTask[r.Task] = append(byTask[r.Task], cv)
		}
	}
	out := make([]sidebarItem, 0, len(convs)+len(byTask))
	done := map[tasks.ID]bool{}
	for _, cv := range convs {
		r, ok := runs[cv.ID]
		if !ok {
			out = append(out, sidebarItem{conv: cv})
			continue
		}
		if done[r.Task] {
			continue
		}
		done[r.Task] = true
		group := byTask[r.Task]
		out = append(out, sidebarItem{task: &r, heading: true, runs: len(group), newest: group[0].ID})
		for _, g := range group {
			ref := runs[g.ID]
			out = append(out, sidebarItem{conv: g, task: &ref})
		}
	}
	return out
}

// headingEntry is a task heading's row.
func headingEntry(it sidebarItem) sidebarEntry {
	return sidebarEntry{title: "⏱ " + it.task.Name, detail: fmt.Sprintf("scheduled task · %d %s", it.runs, pluralWord(it.runs, "run", "runs")),
		heading: true, open: it.newest}
}

// runTitle is a run's title under its heading: the time, without the
// task's name the heading already says.
func runTitle(it sidebarItem, title string) string {
	if it.task == nil {
		return title
	}
	if rest, ok := strings.CutPrefix(title, it.task.Name+" · "); ok {
		return "    " + rest
	}
	return "    " + title
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// runRefs asks the core which conversations are task runs.
func (s *sidebar) runRefs() map[store.ID]assistant.TaskRunRef {
	refs, err := s.c.core.TaskConversations()
	if err != nil {
		s.c.core.Logger().Warn("reading the scheduled runs", "error", err)
		return nil
	}
	return refs
}
