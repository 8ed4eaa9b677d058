package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/history"
	"github.com/wrasse-app/wrasse/brain/store"
)

func checkConversationID(c *call) error {
	_, err := conversationID(c)
	return err
}

// conversationID reads the ID argument of a conversations command ("c42"
// or "42").
func conversationID(c *call) (store.ID, error) {
	id, err := store.ParseID(c.args[0])
	if err != nil {
		return 0, usagef(c.cmd.path, "%v", err)
	}
	return id, nil
}

// conversationsList lists the conversations, pinned ones first and
// archived ones left out (archived: only the archived ones), as the
// window's sidebar does.
func conversationsList(_ context.Context, app *assistant.App, c *call, archived bool) error {
	all, err := app.History().ListConversations()
	if err != nil {
		return err
	}
	var convs, rest []store.Conversation
	for _, conv := range all {
		switch {
		case conv.Archived != archived:
		case conv.Pinned:
			convs = append(convs, conv)
		default:
			rest = append(rest, conv)
		}
	}
	convs = append(convs, rest...)
	w := c.io.out
	if c.g.json {
		if convs == nil {
			convs = []store.Conversation{}
		}
		return writeJSON(w, convs)
	}
	if len(convs) == 0 {
		switch {
		case archived:
			fmt.Fprintln(w, "No archived conversations.")
		case len(all) > 0:
			fmt.Fprintln(w, "Every conversation is archived: wrasse conversations list --archived lists them.")
		default:
			fmt.Fprintln(w, `No conversations yet. Start one with: wrasse chat "hello"`)
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tEVENTS\tMODEL\tTITLE")
	for _, conv := range convs {
		title := titleOf(conv)
		if conv.Pinned {
			title = "📌 " + title
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", conv.ID, conv.Updated.Local().Format("2006-01-02 15:04"), conv.EventCount, conv.Model, title)
	}
	return tw.Flush()
}

func titleOf(conv store.Conversation) string {
	if conv.Title == "" {
		return "(untitled)"
	}
	return conv.Title
}

func conversationsShow(_ context.Context, app *assistant.App, c *call) error {
	id, err := conversationID(c)
	if err != nil {
		return err
	}
	if _, err := app.Session(id); err != nil { // says "no such conversation" with its hint
		return err
	}
	conv, err := app.History().GetConversation(id)
	if err != nil {
		return err
	}
	events, err := app.History().Events(id)
	if err != nil {
		return err
	}
	return printConversation(c.io.out, conv, events, c.g.json)
}

func printConversation(w io.Writer, conv store.Conversation, events []store.Event, asJSON bool) error {
	if asJSON {
		if events == nil {
			events = []store.Event{}
		}
		return writeJSON(w, map[string]any{"conversation": conv, "events": events, "usage": store.UsageTotal(events)})
	}
	model := "Model " + conv.Model + ", started"
	if conv.Model == "" {
		// A recovered conversation's model is not known.
		model = "Started"
	}
	fmt.Fprintf(w, "%s — %s\n%s %s, %d events.\n", conv.ID, titleOf(conv), model, conv.Created.Local().Format(time.DateTime), conv.EventCount)
	if line := usageLine(store.UsageTotal(events)); line != "" {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w)
	_, err := io.WriteString(w, history.Render(events, 0))
	return err
}

func conversationsDelete(ctx context.Context, app *assistant.App, c *call) error {
	id, err := conversationID(c)
	if err != nil {
		return err
	}
	if err := app.DeleteConversation(ctx, id); err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"deleted": id.String()})
	}
	fmt.Fprintf(c.io.out, "Deleted conversation %s.\n", id)
	return nil
}
