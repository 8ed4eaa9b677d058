package store

import (
	"reflect"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func TestSecretPlaces(t *testing.T) {
	db, path, clock := openTest(t)
	if p, err := db.SecretPlaces("gh_token"); err != nil || !reflect.DeepEqual(p, SecretPlaces{}) {
		t.Fatalf("places of an unknown secret = %+v, %v", p, err)
	}
	// A name may be assigned before its value is stored.
	for _, c := range []string{"github", "alpha", "github"} {
		wantErr(t, db.AssignSecret("gh_token", c, "to "+c), nil)
	}
	wantErr(t, db.AssignSecret("other", "github", "to github"), nil)
	wantErr(t, db.BindSecretHost("openai_api_key", "https://api.openai.com"), nil)
	wantErr(t, db.AssignSecret("bad name", "github", ""), ErrInvalidName)
	wantErr(t, db.AssignSecret("gh_token", "", ""), ErrInvalidName)

	db = reopen(t, db, path, clock)
	p, err := db.SecretPlaces("gh_token")
	if err != nil || !reflect.DeepEqual(p.Capabilities, []string{"alpha", "github"}) || !p.Allows("github") || p.Allows("git") {
		t.Errorf("places = %+v, %v", p, err)
	}
	if !p.AllowsAt("github", "to github") || p.AllowsAt("github", "to alpha") || p.AllowsAt("git", "to github") {
		t.Errorf("destinations = %v", p.Destinations)
	}
	if p, _ := db.SecretPlaces("openai_api_key"); p.Host != "https://api.openai.com" || len(p.Capabilities) != 0 {
		t.Errorf("key places = %+v", p)
	}
	if got, err := db.SecretsAssignedTo("github"); err != nil || !reflect.DeepEqual(got, []string{"gh_token", "other"}) {
		t.Errorf("SecretsAssignedTo = %v, %v", got, err)
	}
	wantErr(t, db.UnassignSecret("gh_token", "github"), nil)
	wantErr(t, db.UnassignSecret("gh_token", "github"), nil)
	if got, _ := db.SecretsAssignedTo("github"); !reflect.DeepEqual(got, []string{"other"}) {
		t.Errorf("after unassign: %v", got)
	}
	if p, _ := db.SecretPlaces("gh_token"); p.AllowsAt("github", "to github") || len(p.Destinations) != 1 {
		t.Errorf("after unassign: %+v", p)
	}
	// Setting or deleting the value keeps the places.
	wantErr(t, db.SetSecret("other", "value-1234"), nil)
	wantErr(t, db.DeleteSecret("other"), nil)
	if p, _ := db.SecretPlaces("other"); !p.Allows("github") {
		t.Errorf("places lost with the value: %+v", p)
	}
}

// A file written before secret_places existed: the secrets Wrasse made
// from an MCP server's literal values are assigned to that server; any
// other secret (a provider key, one the person named) to nothing.
func TestSecretPlacesStartedOnOldFile(t *testing.T) {
	db, path, clock := openTest(t)
	for name, v := range map[string]string{"mcp.github.GITHUB_TOKEN": "ghp-1234", "mcp.linear.Authorization": "Bearer lin-1234",
		"openai_api_key": "sk-1234", "gh_token": "ghp-5678", "mcp.": "x-1234", "mcp.nodot": "y-1234"} {
		wantErr(t, db.SetSecret(name, v), nil)
	}
	// Make it look like an older file: no marker, no places.
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket([]byte(bucketMeta)).Delete([]byte(keyPlacesStarted)); err != nil {
			return err
		}
		return tx.DeleteBucket([]byte(bucketSecretPlaces))
	}); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db, path, clock)
	for capName, want := range map[string][]string{"github": {"mcp.github.GITHUB_TOKEN"}, "linear": {"mcp.linear.Authorization"}, "nodot": nil, "": nil} {
		got, err := db.SecretsAssignedTo(capName)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("SecretsAssignedTo(%q) = %v, %v; want %v", capName, got, err, want)
		}
	}
	// Only once: what the person withdraws stays withdrawn.
	wantErr(t, db.UnassignSecret("mcp.github.GITHUB_TOKEN", "github"), nil)
	db = reopen(t, db, path, clock)
	if got, _ := db.SecretsAssignedTo("github"); len(got) != 0 {
		t.Errorf("assigned again at the next open: %v", got)
	}
}

// A capability removed, or sending elsewhere now, loses every secret
// assigned to it at once; other capabilities keep theirs.
func TestUnassignAll(t *testing.T) {
	db, _, _ := openTest(t)
	wantErr(t, db.AssignSecret("gh_token", "github", "a"), nil)
	wantErr(t, db.AssignSecret("gh_token", "alpha", "b"), nil)
	wantErr(t, db.AssignSecret("other", "github", "a"), nil)
	got, err := db.UnassignAll("github")
	if err != nil || !reflect.DeepEqual(got, []string{"gh_token", "other"}) {
		t.Fatalf("UnassignAll = %v, %v", got, err)
	}
	if got, _ := db.SecretsAssignedTo("github"); len(got) != 0 {
		t.Errorf("still assigned: %v", got)
	}
	if p, _ := db.SecretPlaces("gh_token"); !p.AllowsAt("alpha", "b") {
		t.Errorf("alpha lost its secret: %+v", p)
	}
	if got, err := db.UnassignAll("github"); err != nil || len(got) != 0 {
		t.Errorf("again: %v, %v", got, err)
	}
}

// Assignments made before destinations were recorded get the one their
// capability has at the first open that records them; one whose
// capability is gone is withdrawn, so a capability installed later under
// that name gets nothing. Only once: later assignments are the person's.
func TestRecordDestinations(t *testing.T) {
	db, path, clock := openTest(t)
	// As an older Wrasse wrote them: no destinations, no marker.
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		for name, p := range map[string]SecretPlaces{
			"gh_token": {Capabilities: []string{"github", "removed"}},
			"other":    {Capabilities: []string{"removed"}},
			"kept":     {Capabilities: []string{"github"}, Destinations: map[string]string{"github": "already"}},
		} {
			if err := writePlaces(tx, name, p); err != nil {
				return err
			}
		}
		return tx.Bucket([]byte(bucketMeta)).Delete([]byte(keyDestinationsRecorded))
	}); err != nil {
		t.Fatal(err)
	}
	present := func(capName string) (string, bool) { return "now " + capName, capName == "github" }
	dropped, err := db.RecordDestinations(present)
	if err != nil || !reflect.DeepEqual(dropped, []string{"gh_token → removed", "other → removed"}) {
		t.Fatalf("RecordDestinations = %v, %v", dropped, err)
	}
	db = reopen(t, db, path, clock)
	if p, _ := db.SecretPlaces("gh_token"); !p.AllowsAt("github", "now github") || p.Allows("removed") {
		t.Errorf("gh_token: %+v", p)
	}
	if p, _ := db.SecretPlaces("kept"); !p.AllowsAt("github", "already") {
		t.Errorf("kept: %+v", p)
	}
	if p, _ := db.SecretPlaces("other"); !reflect.DeepEqual(p, SecretPlaces{}) {
		t.Errorf("other: %+v", p)
	}
	// Once: a capability named removed installed later is not given it.
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		return writePlaces(tx, "late", SecretPlaces{Capabilities: []string{"removed"}})
	}); err != nil {
		t.Fatal(err)
	}
	if dropped, err := db.RecordDestinations(func(string) (string, bool) { return "evil", true }); err != nil || len(dropped) != 0 {
		t.Fatalf("second RecordDestinations = %v, %v", dropped, err)
	}
	if p, _ := db.SecretPlaces("late"); p.AllowsAt("removed", "evil") {
		t.Errorf("recorded twice: %+v", p)
	}
}
