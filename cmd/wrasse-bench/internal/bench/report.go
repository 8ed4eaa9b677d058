package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Verdict says whether a figure met its target.
type Verdict string

const (
	// NoTarget marks a figure reported for information.
	NoTarget Verdict = ""
	Pass     Verdict = "yes"
	Fail     Verdict = "NO"
	// Broken marks a measurement that could not be made (see Row.Note).
	Broken Verdict = "error"
)

// verdict turns a comparison into a Verdict.
func verdict(ok bool) Verdict {
	if ok {
		return Pass
	}
	return Fail
}

// Row is one measured figure beside its baseline.
type Row struct {
	Section  string  `json:"section"`
	Measure  string  `json:"measure"`
	Value    string  `json:"value"`
	Baseline string  `json:"baseline,omitempty"`
	Target   string  `json:"target,omitempty"`
	Pass     Verdict `json:"pass,omitempty"`
	// Number is the value as a number in Unit, for machines.
	Number float64 `json:"number"`
	Unit   string  `json:"unit,omitempty"`
	// Note explains the figure or the error; printed under the table.
	Note string `json:"note,omitempty"`
}

// errorRow reports a measurement that failed.
func errorRow(section, measure string, err error) Row {
	return Row{Section: section, Measure: measure, Value: "error", Pass: Broken, Note: err.Error()}
}

// Report is one run: where and when it ran, and its rows.
type Report struct {
	Machine Machine `json:"machine"`
	Short   bool    `json:"short"`
	Rows    []Row   `json:"rows"`
}

// Missed returns the rows that missed their target or failed to measure.
func (r Report) Missed() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Pass == Fail || row.Pass == Broken {
			out = append(out, row)
		}
	}
	return out
}

// Broken returns the rows that could not be measured.
func (r Report) Broken() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Pass == Broken {
			out = append(out, row)
		}
	}
	return out
}

var header = []string{"Section", "Measure", "Value", "Baseline", "Target", "Pass"}

func cells(r Row) []string {
	return []string{r.Section, r.Measure, r.Value, r.Baseline, r.Target, string(r.Pass)}
}

// notes numbers the rows that carry a note, in row order.
func notes(rows []Row) (marks map[int]int, list []string) {
	marks = map[int]int{}
	for i, r := range rows {
		if r.Note != "" {
			list = append(list, r.Note)
			marks[i] = len(list)
		}
	}
	return marks, list
}

// WriteText writes the report as an aligned plain-text table.
func WriteText(w io.Writer, rep Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", rep.Machine.Line(rep.Short))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	marks, list := notes(rep.Rows)
	prev := ""
	for i, r := range rep.Rows {
		c := cells(r)
		if r.Section == prev {
			c[0] = ""
		}
		prev = r.Section
		if n, ok := marks[i]; ok {
			c[1] += fmt.Sprintf(" [%d]", n)
		}
		fmt.Fprintln(tw, strings.Join(c, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(list) > 0 {
		b.WriteString("\n")
		for i, n := range list {
			fmt.Fprintf(&b, "[%d] %s\n", i+1, n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes the report as a Markdown table with numbered notes,
// ready for docs/performance.md.
func WriteMarkdown(w io.Writer, rep Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", rep.Machine.Line(rep.Short))
	b.WriteString("| " + strings.Join(header, " | ") + " |\n")
	b.WriteString("|---|---|--:|---|---|:-:|\n")
	marks, list := notes(rep.Rows)
	for i, r := range rep.Rows {
		c := cells(r)
		for j := range c {
			c[j] = mdEscape(c[j])
		}
		if n, ok := marks[i]; ok {
			c[1] += fmt.Sprintf(" [%d]", n)
		}
		if r.Pass == Fail || r.Pass == Broken {
			c[5] = "**" + c[5] + "**"
		}
		b.WriteString("| " + strings.Join(c, " | ") + " |\n")
	}
	if len(list) > 0 {
		b.WriteString("\n")
		for i, n := range list {
			fmt.Fprintf(&b, "%d. %s\n", i+1, mdEscape(n))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, rep Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
