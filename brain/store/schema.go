package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Every bucket and well-known key lives here, so the file layout can be read
// in one place (see the package doc for what each holds).
const (
	bucketMeta          = "meta"
	bucketConversations = "conversations"
	bucketEvents        = "events"
	bucketStreaming     = "streaming"
	bucketCapabilities  = "capabilities"
	bucketSecrets       = "secrets"
	bucketSecretPlaces  = "secret_places"
	bucketSettings      = "settings"
	bucketCapSettings   = "capability_settings"
	bucketMCPCatalogs   = "mcp_catalogs"
	bucketImages        = "images"
	bucketSearch        = "search_index"
	bucketSearchWords   = "search_words"
	// Scheduled tasks (tasks.go): added without a schema change, which
	// an older Wrasse ignores.
	bucketTasks     = "tasks"
	bucketTaskRuns  = "task_runs"
	bucketProposals = "task_proposals"
	// bucketVersions holds the versions an edit or a regenerate kept
	// (versions.go); schema 4.
	bucketVersions = "versions"

	keySchemaVersion = "schema_version"
	// keyPlacesStarted marks a file whose secret_places bucket was started
	// (assignMovedSecrets): a bucket added without a schema change, which
	// an older Wrasse ignores.
	keyPlacesStarted = "secret_places_started"
	// keyDestinationsRecorded marks a file whose assignments made before
	// destinations were recorded have theirs (RecordDestinations).
	keyDestinationsRecorded = "secret_destinations_recorded"

	// schemaVersion is the layout this code reads and writes.
	schemaVersion uint64 = 4
)

// SchemaVersion is the newest database layout this Wrasse reads and writes.
const SchemaVersion = schemaVersion

// SchemaError is a database written by a newer Wrasse, with a layout this
// one does not know. It matches ErrNewerSchema.
type SchemaError struct {
	Path             string
	Found, Supported uint64
}

func (e *SchemaError) Error() string {
	// Salvage finds the version with no path at hand, and says the path
	// itself ("salvage PATH: …").
	what := "the database"
	if e.Path != "" {
		what = e.Path
	}
	return fmt.Sprintf("%s was written by a newer Wrasse (database version %d; this Wrasse reads up to %d): update Wrasse to open it",
		what, e.Found, e.Supported)
}

// Is makes errors.Is(err, ErrNewerSchema) hold.
func (e *SchemaError) Is(target error) bool { return target == ErrNewerSchema }

func allBuckets() []string {
	return []string{bucketMeta, bucketConversations, bucketEvents, bucketStreaming,
		bucketCapabilities, bucketSecrets, bucketSecretPlaces, bucketSettings, bucketCapSettings, bucketMCPCatalogs, bucketImages, bucketSearch, bucketSearchWords,
		bucketTasks, bucketTaskRuns, bucketProposals, bucketVersions}
}

// migrations()[i] upgrades a database from schema version i to i+1. It runs
// inside the opening write transaction, after every bucket exists.
func migrations() []func(*bolt.Tx) error {
	return []func(*bolt.Tx) error{
		// 0 → 1: a new file; the buckets were just created.
		func(*bolt.Tx) error { return nil },
		// 1 → 2: the search index (index.go) of the events already stored.
		rebuildIndex,
		// 2 → 3: the index gains search_words; built afresh.
		rebuildIndex,
		// 3 → 4: kept versions (versions.go). The bucket was just created
		// and holds nothing yet. The version moves because an older
		// Wrasse would lose them: its TruncateFrom deletes the images of
		// every event from a seq on, kept versions' included, and its
		// DeleteConversation leaves them behind.
		func(*bolt.Tx) error { return nil },
	}
}

// migrate brings tx's database to schemaVersion.
func migrate(tx *bolt.Tx) (from uint64, err error) {
	meta := tx.Bucket([]byte(bucketMeta))
	if raw := meta.Get([]byte(keySchemaVersion)); raw != nil {
		v, ok := decodeU64(raw)
		if !ok {
			return 0, fmt.Errorf("read %s/%s: %w", bucketMeta, keySchemaVersion, ErrCorrupt)
		}
		from = v
	}
	if from > schemaVersion {
		return from, &SchemaError{Found: from, Supported: schemaVersion}
	}
	steps := migrations()
	for v := from; v < schemaVersion; v++ {
		if err := steps[v](tx); err != nil {
			return from, fmt.Errorf("migrate schema %d to %d: %w", v, v+1, err)
		}
	}
	if err := meta.Put([]byte(keySchemaVersion), encodeU64(schemaVersion)); err != nil {
		return from, fmt.Errorf("write schema version: %w", err)
	}
	return from, nil
}
