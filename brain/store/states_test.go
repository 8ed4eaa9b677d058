package store

import (
	"reflect"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/cerebellum"
)

func TestCapabilityStates(t *testing.T) {
	type op struct {
		set    string
		state  cerebellum.CapState
		delete string
	}
	tests := []struct {
		name string
		ops  []op
		want map[string]cerebellum.CapState
	}{
		{"empty", nil, map[string]cerebellum.CapState{}},
		{"set", []op{{set: "pdf", state: cerebellum.CapState{Granted: []string{"files", "exec"}}}},
			map[string]cerebellum.CapState{"pdf": {Granted: []string{"files", "exec"}}}},
		{"overwrite", []op{
			{set: "pdf", state: cerebellum.CapState{Disabled: true}},
			{set: "pdf", state: cerebellum.CapState{Authored: true}},
		}, map[string]cerebellum.CapState{"pdf": {Authored: true}}},
		{"delete", []op{
			{set: "a", state: cerebellum.CapState{Disabled: true}},
			{set: "b", state: cerebellum.CapState{Disabled: true}},
			{delete: "a"},
			{delete: "never-stored"},
		}, map[string]cerebellum.CapState{"b": {Disabled: true}}},
		{"zero state kept", []op{{set: "c"}}, map[string]cerebellum.CapState{"c": {}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, path, clock := openTest(t)
			var s cerebellum.StateStore = db
			for _, o := range tt.ops {
				var err error
				if o.delete != "" {
					err = s.DeleteState(o.delete)
				} else {
					err = s.SetState(o.set, o.state)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			got, err := s.States()
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("States = %v, %v; want %v", got, err, tt.want)
			}
			db = reopen(t, db, path, clock)
			got, err = db.States()
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("States after reopen = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestCapabilityStateEdges(t *testing.T) {
	db, _, _ := openTest(t)
	wantErr(t, db.SetState("", cerebellum.CapState{}), ErrInvalidName)
	wantErr(t, db.SetState(strings.Repeat("x", bolt.MaxKeySize+1), cerebellum.CapState{}), ErrInvalidName)
	wantErr(t, db.DeleteState(""), nil)
	if err := db.SetState("good", cerebellum.CapState{Disabled: true}); err != nil {
		t.Fatal(err)
	}
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketCapabilities)).Put([]byte("bad"), []byte("[1,2"))
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.States()
	if err != nil || !reflect.DeepEqual(got, map[string]cerebellum.CapState{"good": {Disabled: true}}) {
		t.Errorf("States with a damaged record = %v, %v", got, err)
	}
}
