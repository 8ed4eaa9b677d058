package assistant

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// An edited identity is what the next turn's system prompt opens with,
// exactly as the preview shows it; Reset puts the default back, and the
// turn after uses that.
func TestSetIdentityReachesTheNextTurn(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "m")
	id, err := a.Identity()
	if err != nil || !id.Default || id.Text != DefaultIdentity() {
		t.Fatalf("a new workspace's identity: %+v, %v", id, err)
	}

	mine := "You are Pip, a terse assistant.\nAlways answer in British English."
	var events []Event
	stop := a.Subscribe(func(e Event) { events = append(events, e) })
	defer stop()
	if err := a.SetIdentity(mine); err != nil {
		t.Fatal(err)
	}
	if id, _ := a.Identity(); id.Default || strings.TrimSpace(id.Text) != mine {
		t.Fatalf("after SetIdentity: %+v", id)
	}
	if len(events) == 0 || events[len(events)-1].Kind != EventConfig || events[len(events)-1].Reason != "identity" {
		t.Errorf("events after SetIdentity: %+v", events)
	}
	m.Reply(providertest.Text("Right."))
	if _, err := a.Turn(t.Context(), 0, "hello", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := m.Requests()
	sys := reqs[len(reqs)-1].System
	if !strings.HasPrefix(sys, mine) {
		t.Fatalf("the turn's system prompt does not open with the new identity:\n%s", sys)
	}
	if preview := a.SystemPromptPreview(mine); preview != sys {
		t.Errorf("the preview differs from what the turn sent:\npreview:\n%s\nsent:\n%s", preview, sys)
	}

	if err := a.ResetIdentity(); err != nil {
		t.Fatal(err)
	}
	if id, _ := a.Identity(); !id.Default {
		t.Fatalf("after Reset: %+v", id)
	}
	m.Reply(providertest.Text("Hello."))
	if _, err := a.Turn(t.Context(), 0, "hello again", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs = m.Requests()
	sys = reqs[len(reqs)-1].System
	if !strings.HasPrefix(sys, strings.TrimSpace(DefaultIdentity())) || strings.Contains(sys, "Pip") {
		t.Errorf("after Reset the turn sent:\n%s", sys)
	}
}

// What SetIdentity refuses leaves the file as it was.
func TestSetIdentityRefuses(t *testing.T) {
	a := openTest(t)
	if err := a.SetIdentity("Be kind."); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "it is empty"},
		{"blank", " \n\t\n", "it is empty"},
		{"too long", strings.Repeat("word ", MaxIdentityBytes/5+1), "over the 16 KB"},
		{"not UTF-8", "Be \xff kind.", "not valid UTF-8"},
		{"NUL", "Be\x00 kind.", "NUL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := a.SetIdentity(tt.text)
			if !errors.Is(err, ErrIdentity) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("SetIdentity(%.20q) = %v, want ErrIdentity saying %q", tt.text, err, tt.want)
			}
			data, _ := os.ReadFile(a.Workspace().Identity())
			if string(data) != "Be kind.\n" {
				t.Errorf("the file changed to %q", data)
			}
		})
	}
}
