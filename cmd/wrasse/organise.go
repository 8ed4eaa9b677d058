package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/assistant"
)

// conversations pin, unpin, archive, unarchive and instructions: the
// window's sidebar menu and header, from the command line, through the
// same App methods.

// conversationsOrganise runs one of pin, unpin, archive, unarchive on the
// conversation named by the argument.
func conversationsOrganise(verb string) runFunc {
	return func(_ context.Context, app *assistant.App, c *call) error {
		id, err := conversationID(c)
		if err != nil {
			return err
		}
		switch verb {
		case "pin", "unpin":
			err = app.PinConversation(id, verb == "pin")
		default:
			err = app.ArchiveConversation(id, verb == "archive")
		}
		if err != nil {
			return err
		}
		if c.g.json {
			past := map[string]string{"pin": "pinned", "unpin": "unpinned", "archive": "archived", "unarchive": "unarchived"}[verb]
			return writeJSON(c.io.out, map[string]string{past: id.String()})
		}
		done := map[string]string{
			"pin":       "Pinned %s: it stays at the top of the list.\n",
			"unpin":     "Unpinned %s.\n",
			"archive":   "Archived %s: it leaves the list (wrasse conversations list --archived shows it; unarchive brings it back).\n",
			"unarchive": "Unarchived %s: it is back in the list.\n",
		}[verb]
		fmt.Fprintf(c.io.out, done, id)
		return nil
	}
}

// conversationsInstructions prints a conversation's own instructions,
// or sets them to the words given ("" removes them).
func conversationsInstructions(_ context.Context, app *assistant.App, c *call) error {
	id, err := conversationID(c)
	if err != nil {
		return err
	}
	if len(c.args) == 1 {
		conv, err := app.History().GetConversation(id)
		if err != nil {
			_, serr := app.Session(id) // "no such conversation", with its hint
			if serr != nil {
				return serr
			}
			return err
		}
		if c.g.json {
			return writeJSON(c.io.out, map[string]string{"conversation": id.String(), "instructions": conv.Instructions})
		}
		if conv.Instructions == "" {
			fmt.Fprintf(c.io.out, "%s has no instructions of its own. Set some with: wrasse conversations instructions %s \"TEXT\"\n", id, id)
			return nil
		}
		fmt.Fprintln(c.io.out, conv.Instructions)
		return nil
	}
	text := strings.Join(c.args[1:], " ")
	if err := app.SetConversationInstructions(id, text); err != nil {
		return err
	}
	if strings.TrimSpace(text) == "" {
		fmt.Fprintf(c.io.out, "Removed the instructions of %s.\n", id)
	} else {
		fmt.Fprintf(c.io.out, "Set the instructions of %s: its next reply follows them.\n", id)
	}
	return nil
}

// organiseCommands are the conversations commands of organise.go.
func organiseCommands(conv [][2]string) []*command {
	var out []*command
	for _, v := range []struct{ verb, summary string }{
		{"pin", "Pin a conversation to the top of the list."},
		{"unpin", "Unpin a conversation."},
		{"archive", "Archive a conversation: it leaves the list, and stays searchable."},
		{"unarchive", "Bring an archived conversation back to the list."},
	} {
		out = append(out, &command{path: "conversations " + v.verb, args: "ID", argHelp: conv, summary: v.summary,
			minArgs: 1, maxArgs: 1, check: checkConversationID, setup: plain(conversationsOrganise(v.verb))})
	}
	return append(out, &command{path: "conversations instructions", args: "ID [TEXT...]",
		argHelp: append(conv, [2]string{"TEXT", "the conversation's own instructions, added to its system prompt; \"\" removes them; none given prints them"}),
		summary: "Show or set a conversation's own instructions.",
		minArgs: 1, maxArgs: -1, emptyLast: true, check: checkConversationID, setup: plain(conversationsInstructions)})
}
