package markdown

import (
	"net/url"
	"testing"

	"fyne.io/fyne/v2/test"
)

// Attack (a7) on the disguised-link fix (F17): a link whose text "is" its
// address opens on one tap, but the comparison lets the text differ from
// where the browser goes: a password in the address matches its redacted
// form (the text shows xxxxx, the address carries the key), http and
// https compare equal, and a look-alike host in the text is the same
// look-alike in the address, so the dialog that would show its xn-- name
// never appears.
func TestLinkTextThatIsNotQuiteItsAddress(t *testing.T) {
	for _, c := range []struct{ src, dest string }{
		{"[https://u:xxxxx@attacker.example/](https://u:AKIAIOSFODNN7EXAMPLE@attacker.example/)",
			"https://u:AKIAIOSFODNN7EXAMPLE@attacker.example/"},
		{"[https://bank.example/login](http://bank.example/login)", "http://bank.example/login"},
		{"<https://gіthub.com/login>", "https://gіthub.com/login"}, // Cyrillic і
	} {
		test.NewTempApp(t)
		var opened []string
		v := laidOut(t, c.src, 400, Options{OpenURL: func(u *url.URL) { opened = append(opened, u.String()) }})
		hits := all[*linkHit](v)
		if len(hits) == 0 {
			t.Fatalf("%q: no tappable link", c.src)
		}
		test.Tap(hits[0])
		if len(opened) != 0 {
			t.Errorf("%q: one tap opened %q; the text does not show that address (or shows a look-alike), want it confirmed first", c.src, opened)
		}
	}
}
