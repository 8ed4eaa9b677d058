package elicit

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/plugins/mcp"
)

func ptr[T any](v T) *T { return &v }

// booking is a question with every kind of field the spec allows.
func booking() mcp.Question {
	return mcp.Question{Server: "travel", Message: "Confirm the booking details.", Fields: []mcp.Field{
		{Name: "name", Title: "Your name", Type: "string", Required: true, MinLength: ptr(2)},
		{Name: "email", Type: "string", Format: "email"},
		{Name: "guests", Title: "Guests", Type: "integer", Default: float64(2), Minimum: ptr(1.0), Maximum: ptr(8.0), Required: true},
		{Name: "budget", Type: "number", Maximum: ptr(5000.0)},
		{Name: "breakfast", Type: "boolean", Default: true},
		{Name: "room", Type: "string", Enum: []string{"single", "double"}, EnumTitles: []string{"Single room", "Double room"}, Required: true, Default: "double"},
		{Name: "view", Type: "string", Enum: []string{"sea", "garden"}},
		{Name: "extras", Type: "array", Enum: []string{"parking", "spa", "late"}, EnumTitles: []string{"Parking", "Spa", "Late checkout"},
			MaxItems: ptr(2), Default: []any{"parking"}},
	}}
}

func window(t *testing.T) fyne.Window {
	t.Helper()
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("chat"))
	w.Resize(fyne.NewSize(900, 800))
	return w
}

func (f *Form) field(name string) *field {
	for _, fl := range f.fields {
		if fl.f.Name == name {
			return fl
		}
	}
	return nil
}

func TestFormDefaultsAndMarks(t *testing.T) {
	w := window(t)
	d := Show(w, booking(), func(mcp.Answer) {})
	f := d.Form
	if got := f.field("guests").entry.Text; got != "2" {
		t.Errorf("guests shows %q, want the default 2", got)
	}
	if !f.field("breakfast").check.Checked {
		t.Error("breakfast is not checked; its default is true")
	}
	if got := f.field("room").pick.Selected; got != "Double room" {
		t.Errorf("room shows %q, want the default's title", got)
	}
	if got := f.field("view").pick.Selected; got != noChoice {
		t.Errorf("an optional enum without default shows %q, want %q", got, noChoice)
	}
	labels := map[string]bool{}
	for _, it := range formOf(t, f).Items {
		labels[it.Text] = true
	}
	if got := f.field("extras").many.Selected; !reflect.DeepEqual(got, []string{"Parking"}) {
		t.Errorf("extras shows %v, want the default's title", got)
	}
	for _, want := range []string{"Your name *", "email", "Guests *", "budget", "breakfast", "room *", "view", "extras"} {
		if !labels[want] {
			t.Errorf("no field labelled %q in %v", want, labels)
		}
	}
	if len(w.Canvas().Overlays().List()) != 1 {
		t.Fatal("the question is not shown over the window")
	}
}

func formOf(t *testing.T, f *Form) *widget.Form {
	t.Helper()
	for _, o := range f.obj.(*fyne.Container).Objects {
		if form, ok := o.(*widget.Form); ok {
			return form
		}
	}
	t.Fatal("no form")
	return nil
}

func TestAnswers(t *testing.T) {
	for _, tc := range []struct {
		name string
		fill func(f *Form)
		tap  func(d *Dialog) *widget.Button
		want *mcp.Answer // nil: no answer yet, the dialog stays
		msgs map[string]string
	}{
		{name: "accept with defaults and a name",
			fill: func(f *Form) { test.Type(f.field("name").entry, "Ada") },
			tap:  func(d *Dialog) *widget.Button { return d.Accept },
			want: &mcp.Answer{Action: mcp.ActionAccept, Content: map[string]any{"name": "Ada", "guests": int64(2), "breakfast": true, "room": "double",
				"extras": []string{"parking"}}}},
		{name: "accept filled",
			fill: func(f *Form) {
				test.Type(f.field("name").entry, "Ada")
				test.Type(f.field("email").entry, "ada@example.com")
				f.field("guests").entry.SetText("")
				test.Type(f.field("guests").entry, "4")
				test.Type(f.field("budget").entry, "1200.50")
				test.Tap(f.field("breakfast").check)
				f.field("room").pick.SetSelected("Single room")
				f.field("view").pick.SetSelected("sea")
				f.field("extras").many.SetSelected([]string{"Late checkout", "Parking"})
			},
			tap: func(d *Dialog) *widget.Button { return d.Accept },
			want: &mcp.Answer{Action: mcp.ActionAccept, Content: map[string]any{"name": "Ada", "email": "ada@example.com", "guests": int64(4),
				"budget": 1200.5, "breakfast": false, "room": "single", "view": "sea", "extras": []string{"parking", "late"}}}},
		{name: "required and bad values refused",
			fill: func(f *Form) {
				f.field("guests").entry.SetText("9")
				test.Type(f.field("email").entry, "not an address")
				test.Type(f.field("budget").entry, "lots")
				f.field("extras").many.SetSelected([]string{"Parking", "Spa", "Late checkout"})
			},
			tap: func(d *Dialog) *widget.Button { return d.Accept },
			msgs: map[string]string{"name": requiredMsg, "guests": "Between 1 and 8.", "email": "Enter an email address, such as name@example.com.",
				"budget": "Enter a number.", "room": "", "extras": "Choose at most 2."}},
		{name: "too short", fill: func(f *Form) { test.Type(f.field("name").entry, "A") },
			tap: func(d *Dialog) *widget.Button { return d.Accept }, msgs: map[string]string{"name": "At least 2 characters."}},
		{name: "decline", tap: func(d *Dialog) *widget.Button { return d.Decline }, want: &mcp.Answer{Action: mcp.ActionDecline}},
		{name: "cancel", tap: func(d *Dialog) *widget.Button { return d.Cancel }, want: &mcp.Answer{Action: mcp.ActionCancel}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := window(t)
			var got []mcp.Answer
			d := Show(w, booking(), func(a mcp.Answer) { got = append(got, a) })
			if tc.fill != nil {
				tc.fill(d.Form)
			}
			test.Tap(tc.tap(d))
			if tc.want == nil {
				if len(got) != 0 {
					t.Fatalf("answered %+v; a refused form must stay open", got)
				}
				if len(w.Canvas().Overlays().List()) != 1 {
					t.Error("the dialog closed on a refused form")
				}
				for name, want := range tc.msgs {
					msg := d.Form.field(name).msg
					shown := ""
					if msg.Visible() {
						shown = msg.Text
					}
					if shown != want {
						t.Errorf("field %s says %q, want %q", name, shown, want)
					}
				}
				return
			}
			if len(got) != 1 || !reflect.DeepEqual(got[0], *tc.want) {
				t.Fatalf("answer = %+v, want %+v", got, *tc.want)
			}
			if n := len(w.Canvas().Overlays().List()); n != 0 {
				t.Errorf("%d overlays after the answer; the dialog should be gone", n)
			}
		})
	}
}

// TestRefusedThenCorrected: the messages go once the values are right.
func TestRefusedThenCorrected(t *testing.T) {
	w := window(t)
	var got []mcp.Answer
	d := Show(w, booking(), func(a mcp.Answer) { got = append(got, a) })
	test.Tap(d.Accept)
	if msg := d.Form.field("name").msg; !msg.Visible() || msg.Text != requiredMsg {
		t.Fatalf("the required name is not marked: %q", msg.Text)
	}
	test.Type(d.Form.field("name").entry, "Grace")
	test.Tap(d.Accept)
	if len(got) != 1 || got[0].Action != mcp.ActionAccept || got[0].Content["name"] != "Grace" {
		t.Fatalf("answer = %+v", got)
	}
	if d.Form.field("name").msg.Visible() {
		t.Error("the message stayed after the value was corrected")
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		f    mcp.Field
		in   string
		want any
		err  string
	}{
		{mcp.Field{Type: "integer"}, " 42 ", int64(42), ""},
		{mcp.Field{Type: "integer"}, "4.5", nil, "Enter a whole number."},
		{mcp.Field{Type: "integer", Minimum: ptr(1.0)}, "0", nil, "At least 1."},
		{mcp.Field{Type: "number", Maximum: ptr(2.5)}, "2.75", nil, "At most 2.5."},
		{mcp.Field{Type: "number", Minimum: ptr(-1.0), Maximum: ptr(1.0)}, "-0.5", -0.5, ""},
		{mcp.Field{Type: "string", MaxLength: ptr(3)}, "abcd", nil, "At most 3 characters."},
		{mcp.Field{Type: "string", MaxLength: ptr(3)}, "äöü", "äöü", ""},
		{mcp.Field{Type: "string", Format: "uri"}, "example.com", nil, "Enter a full address, such as https://example.com/."},
		{mcp.Field{Type: "string", Format: "uri"}, "https://example.com/x", "https://example.com/x", ""},
		{mcp.Field{Type: "string", Format: "date"}, "2026-12-02", "2026-12-02", ""},
		{mcp.Field{Type: "string", Format: "date"}, "02/12/2026", nil, "Enter a date as YYYY-MM-DD."},
		{mcp.Field{Type: "string", Format: "date-time"}, "2026-12-02T08:00:00Z", "2026-12-02T08:00:00Z", ""},
		{mcp.Field{Type: "string", Format: "email"}, "Ada <ada@example.com>", nil, "Enter an email address, such as name@example.com."},
	} {
		got, err := Parse(tc.f, tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("Parse(%+v, %q) error = %v, want %q", tc.f, tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Parse(%+v, %q) = %v, %v; want %v", tc.f, tc.in, got, err, tc.want)
		}
	}
}

// serial runs UI changes under one lock, as fyne.Do puts them on one
// goroutine: Elicit blocks on its own goroutine while the test taps.
func serial() func(func()) {
	var mu sync.Mutex
	return func(fn func()) {
		mu.Lock()
		defer mu.Unlock()
		fn()
	}
}

func TestAskerAnswers(t *testing.T) {
	w := window(t)
	do := serial()
	var opened []string
	a := &Asker{Do: do, Open: func(_ context.Context, url string) error { opened = append(opened, url); return nil }}
	a.SetWindow(w)
	dialogs := make(chan *Dialog, 1)
	a.shown = func(d *Dialog) { dialogs <- d }
	type result struct {
		a   mcp.Answer
		err error
	}
	ask := func(ctx context.Context, q mcp.Question) (chan result, *Dialog) {
		got := make(chan result, 1)
		go func() {
			ans, err := a.Elicit(ctx, q)
			got <- result{ans, err}
		}()
		return got, <-dialogs
	}
	overlays := func() (n int) {
		do(func() { n = len(w.Canvas().Overlays().List()) })
		return n
	}

	t.Run("accept", func(t *testing.T) {
		got, d := ask(t.Context(), booking())
		do(func() {
			test.Type(d.Form.field("name").entry, "Ada")
			test.Tap(d.Accept)
		})
		r := <-got
		if r.err != nil || r.a.Action != mcp.ActionAccept || r.a.Content["name"] != "Ada" {
			t.Fatalf("Elicit = %+v, %v", r.a, r.err)
		}
	})
	t.Run("required refused, then cancel", func(t *testing.T) {
		got, d := ask(t.Context(), booking())
		do(func() { test.Tap(d.Accept) })
		select {
		case r := <-got:
			t.Fatalf("Elicit answered %+v with a required field empty", r.a)
		default:
		}
		do(func() { test.Tap(d.Cancel) })
		if r := <-got; r.err != nil || r.a.Action != mcp.ActionCancel {
			t.Fatalf("Elicit = %+v, %v", r.a, r.err)
		}
	})
	t.Run("url accepted opens the browser", func(t *testing.T) {
		q := mcp.Question{Server: "pay", Message: "Finish the payment on the provider's page.", URL: "https://pay.example/session/1"}
		got, d := ask(t.Context(), q)
		if d.Accept.Text != OpenLabel {
			t.Errorf("the accept button says %q", d.Accept.Text)
		}
		do(func() { test.Tap(d.Accept) })
		r := <-got
		if r.err != nil || r.a.Action != mcp.ActionAccept || len(opened) != 1 || opened[0] != q.URL {
			t.Fatalf("Elicit = %+v, %v; opened %v", r.a, r.err, opened)
		}
	})
	t.Run("url declined opens nothing", func(t *testing.T) {
		opened = nil
		got, d := ask(t.Context(), mcp.Question{Server: "pay", Message: "Pay", URL: "https://pay.example/2"})
		do(func() { test.Tap(d.Decline) })
		r := <-got
		if r.a.Action != mcp.ActionDecline || len(opened) != 0 {
			t.Fatalf("Elicit = %+v; opened %v", r.a, opened)
		}
	})
	t.Run("ctx ends", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		got, _ := ask(ctx, booking())
		if n := overlays(); n != 1 {
			t.Fatalf("%d overlays while asking", n)
		}
		cancel()
		r := <-got
		if r.a.Action != mcp.ActionCancel || !errors.Is(r.err, context.Canceled) {
			t.Fatalf("Elicit = %+v, %v; want cancel with context.Canceled", r.a, r.err)
		}
		if n := overlays(); n != 0 {
			t.Errorf("%d overlays after the server gave up; the dialog should be closed", n)
		}
	})
	t.Run("no window declines", func(t *testing.T) {
		b := &Asker{Do: do}
		ans, err := b.Elicit(t.Context(), booking())
		if err != nil || ans.Action != mcp.ActionDecline {
			t.Fatalf("Elicit without window = %+v, %v", ans, err)
		}
	})
}
