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
		wantErr(t, db.AssignSecret("gh_token", c), nil)
	}
	wantErr(t, db.AssignSecret("other", "github"), nil)
	wantErr(t, db.BindSecretHost("openai_api_key", "https://api.openai.com"), nil)
	wantErr(t, db.AssignSecret("bad name", "github"), ErrInvalidName)
	wantErr(t, db.AssignSecret("gh_token", ""), ErrInvalidName)

	db = reopen(t, db, path, clock)
	p, err := db.SecretPlaces("gh_token")
	if err != nil || !reflect.DeepEqual(p.Capabilities, []string{"alpha", "github"}) || !p.Allows("github") || p.Allows("git") {
		t.Errorf("places = %+v, %v", p, err)
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
