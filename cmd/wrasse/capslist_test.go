package main

import (
	"bufio"
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
)

// FuzzOneLine holds the listing's one-pass oneLine equal to
// cerebellum.OneLine, which it replaces for speed.
func FuzzOneLine(f *testing.F) {
	for _, s := range []string{
		"", " ", "plain", "  lead", "trail  ", "a  b", "a\tb", "a\n\nb", "a\u00a0b", "a\u0085b",
		"Café résumé naïve 東京 🙂 — emoji and wide letters count as one rune each, so the cut lands after seventy of them",
		"exactly ten", "ends with punctuation, here;:.-  and then more words to pass the limit of the cut",
		"bad \xff byte \xfe in a long enough text to be cut at some point after the limit", "\xff\xfe",
		"word                                                                                    word",
	} {
		for _, limit := range []int{1, 2, 10, 70, 100} {
			f.Add(s, limit)
		}
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		if limit < 1 || limit > 300 {
			t.Skip()
		}
		if got, want := oneLine(s, limit), cerebellum.OneLine(s, limit); got != want {
			t.Fatalf("oneLine(%q, %d) = %q, want %q", s, limit, got, want)
		}
	})
}

// TestWriteColumnsIsTabwriter: the listing's column writer gives the bytes
// the tabwriter gave, markup bytes (which it hands to the tabwriter) and
// wide runes included.
func TestWriteColumnsIsTabwriter(t *testing.T) {
	head := [listColumns]string{"NAME", "KIND", "STATE", "BADGE", "TOOLS", "DESCRIPTION"}
	tests := []struct {
		name string
		rows [][listColumns]string
	}{
		{"header only", [][listColumns]string{head}},
		{"plain", [][listColumns]string{head, {"a-very-long-capability-name", "plugin (core)", "ok", "Official", "12", "Does things."}, {"b", "guide", "failed", "Unknown", "0", "error: x"}}},
		{"empty cells", [][listColumns]string{head, {"", "", "", "", "", ""}, {"x", "guide", "ok", "Unknown", "0", ""}}},
		{"wide runes", [][listColumns]string{head, {"東京", "guide", "ok", "Unknown", "0", "Café 🙂"}, {"naïve", "guide", "ok", "Unknown", "0", "x"}}},
		{"tab in a name", [][listColumns]string{head, {"a\tb", "guide", "ok", "Unknown", "0", "x"}}},
		{"newline in a name", [][listColumns]string{head, {"a\nb", "guide", "ok", "Unknown", "0", "x"}}},
		{"escape byte", [][listColumns]string{head, {"a\xffb\xffc", "guide", "ok", "Unknown", "0", "x\xff"}}},
		{"form feed in the last cell", [][listColumns]string{head, {"a", "guide", "ok", "Unknown", "0", "x\fy"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want bytes.Buffer
			tw := tabwriter.NewWriter(&want, 0, 4, 2, ' ', 0)
			for _, r := range tt.rows {
				tw.Write([]byte(strings.Join(r[:], "\t") + "\n"))
			}
			tw.Flush()
			var got bytes.Buffer
			bw := bufio.NewWriter(&got)
			if err := writeColumns(bw, tt.rows); err != nil {
				t.Fatal(err)
			}
			bw.Flush()
			if got.String() != want.String() {
				t.Fatalf("got\n%q\nwant\n%q", got.String(), want.String())
			}
		})
	}
}

// TestCapsListManyAsBefore: a listing long enough to be made on several
// goroutines has the bytes of the listing as it was first written (a
// tabwriter over cerebellum.OneLine), so the race detector sees the
// parallel path.
func TestCapsListManyAsBefore(t *testing.T) {
	ws := t.TempDir()
	if err := captest.Write(cerebellum.CapabilitiesDir(ws), captest.Generate(1200, 12, 1)); err != nil {
		t.Fatal(err)
	}
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	var got bytes.Buffer
	if err := printCapsList(reg, false, &got); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	tw := tabwriter.NewWriter(&want, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tSTATE\tBADGE\tTOOLS\tDESCRIPTION")
	ok, failed, disabled := 0, 0, 0
	caps := reg.List()
	for _, c := range caps {
		kind := string(c.Kind)
		if c.Core {
			kind += " (core)"
		} else if c.Pinned {
			kind += " (pinned)"
		}
		text := cerebellum.OneLine(c.Description(), 70)
		switch c.State {
		case cerebellum.StateFailed:
			failed++
			text = "error: " + cerebellum.OneLine(c.Error, 100)
		case cerebellum.StateDisabled:
			disabled++
		default:
			ok++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", c.Name, kind, c.State, c.Badge, len(c.Tools()), text)
	}
	tw.Flush()
	fmt.Fprintf(&want, "\n%d capabilities: %d ok, %d disabled, %d failed; %d tools callable.\n", len(caps), ok, disabled, failed, reg.Snapshot().ToolCount())
	if got.String() != want.String() {
		t.Fatalf("the listing of %d capabilities differs from the tabwriter's", len(caps))
	}
}
