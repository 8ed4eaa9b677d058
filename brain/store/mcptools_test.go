package store

import (
	"reflect"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
)

func TestRemoteCatalogRoundTripAndReopen(t *testing.T) {
	db, path, clock := openTest(t)
	no := false
	want := cerebellum.Catalog{Key: "k1", Updated: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC),
		Tools: []cerebellum.RemoteTool{{Name: "echo", Description: "Echoes", InputSchema: []byte(`{"type":"object"}`), ReadOnlyHint: true},
			{Name: "write", DestructiveHint: &no}},
		Resources: []cerebellum.RemoteItem{{Name: "r", URI: "file:///r", MIMEType: "text/plain"}}}
	if _, ok, err := db.RemoteCatalog("everything"); ok || err != nil {
		t.Fatalf("RemoteCatalog before any = %v, %v; want none", ok, err)
	}
	if err := db.SetRemoteCatalog("everything", want); err != nil {
		t.Fatal(err)
	}
	db2 := reopen(t, db, path, clock)
	got, ok, err := db2.RemoteCatalog("everything")
	if err != nil || !ok {
		t.Fatalf("RemoteCatalog after reopen = %v, %v", ok, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("RemoteCatalog = %+v; want %+v", got, want)
	}
	if err := db2.DeleteRemoteCatalog("everything"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := db2.RemoteCatalog("everything"); ok {
		t.Error("catalog still there after DeleteRemoteCatalog")
	}
	if err := db2.DeleteRemoteCatalog("never-stored"); err != nil {
		t.Errorf("deleting a missing catalog: %v", err)
	}
	if err := db2.SetRemoteCatalog("", want); err == nil {
		t.Error("SetRemoteCatalog with an empty name succeeded")
	}
}
