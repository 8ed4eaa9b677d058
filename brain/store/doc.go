// Package store is Wrasse's workspace database: one bbolt file that holds the
// durable conversation history, each conversation's loaded-capability set,
// the user's decisions about capabilities (it implements
// cerebellum.StateStore), secrets such as API keys, and a few settings.
//
// # Model
//
// The file is opened by one process at a time. bbolt locks it; a second
// Wrasse on the same workspace fails fast with ErrLocked instead of blocking.
// Every public method is exactly one bbolt transaction, so each call is
// atomic and durable when it returns (bbolt fsyncs on commit). The
// conversation loop appends each event the moment it happens, in its own
// transaction: a crash loses at most the event being written.
//
// Conversations are numbered by the bucket sequence (8-byte big-endian keys,
// so iteration is in creation order). The ID type prints as "c42" and
// ParseID accepts "c42" or "42"; that short form is what the UI and the
// model see.
//
// # Buckets
//
//	meta           schema_version → 8-byte big-endian uint64
//	conversations  ID → JSON conversation record (title, model, times, loaded set, event count)
//	events         ID → nested bucket: seq (8-byte big-endian) → JSON event
//	streaming      ID‖seq → empty: replies being streamed right now;
//	               ID‖seq‖n → piece n (from 1) of that reply's text
//	capabilities   capability name → JSON cerebellum.CapState
//	secrets        secret name → value bytes
//	secret_places  secret name → JSON SecretPlaces: the host a provider key is
//	               bound to, the capabilities a secret is assigned to
//	settings       key → value bytes
//	capability_settings  capability name → nested bucket: setting key → value
//	images         ID‖seq‖n → the raw bytes of image n (from 0) of a tool result or
//	               a user message
//	               (the event's JSON holds each image's type and size)
//	search_index   ID → nested bucket: 't' word 0 chunk → seqs (the search index,
//	               written with each event; see index.go)
//	search_words   word 0 ID → empty: the conversations that have the word
//	versions       ID → nested: anchor seq → nested: first seq of a kept
//	               version → nested: seq → JSON event (as in events); the
//	               versions an edit or a regenerate kept (versions.go)
//
// Migrations key off meta/schema_version (see schema.go). A file written by a
// newer schema is refused with ErrNewerSchema rather than misread.
//
// # Versions
//
// Editing a message or regenerating a reply keeps what it replaces as a
// version of that place (KeepVersion), and SwitchVersion brings another
// version back, each in one transaction. The live events are always the
// chosen versions, so every reader sees a plain list; Versions says where
// a live message has others. Kept versions are not searched and Salvage
// does not recover them.
//
// # Streaming replies
//
// Assistant text arrives in pieces. The loop appends the reply once with
// Status StatusStreaming, adds each piece with AppendText, and ends it with
// FinishEvent. Every piece is its own committed transaction, stored
// append-only under its own key in the streaming bucket, so a piece costs
// the same however long the reply is (rewriting the whole text per piece
// made a long reply quadratic). Reads of a streaming reply join its pieces;
// FinishEvent folds them into the event and deletes them. Open marks every
// reply still streaming (left by a process that died) as
// StatusInterrupted, keeping the text committed so far. Each piece is
// redacted, and an ending that could be the start of a secret (even one
// byte of it) is held in memory until the next piece, so stored text never
// ends inside a secret: a secret cannot straddle two pieces, and a crash
// never leaves part of one on disk (it can cost the last few characters of
// a reply). FinishEvent and Open redact the joined text once more.
//
// An older Wrasse that opens a file left mid-stream by this one keeps the
// reply but not its pieces: the schema is unchanged because the pieces
// exist only while a reply streams.
//
// # Secrets
//
// Secret values are stored unencrypted in the database file, which is created
// with mode 0600 inside a 0700 folder in the user's private data folder. An
// OS keyring would be better; it is not available to every build, so the
// file's permissions are the protection. Secrets never reach transcripts:
// every event, streamed piece and title is passed through a Redactor built
// from the stored secrets, and from values added with AddRedaction (a key
// taken from the environment), before it is written, replacing each value
// with "[redacted:NAME]", and so are the simple encodings of each value
// (reversed, hex, URL-encoded, base64, base32: see encodedForms), in any
// case and as dump tools lay them out, found with the exact forms in one
// pass. Redactor is exported so the streamed display
// can use it too; RedactingHandler applies it to a log.
//
// Each secret also has its places (SecretPlaces, in secret_places): the
// host a provider's API key may be sent to, and the capabilities the
// person assigned it to. The store keeps them; the application core
// enforces them.
//
// # Search
//
// Search reads an index of the words of what the user and the model said and
// what tools returned, updated in the transaction that writes each event
// (the migration to schema 3 builds it for an older file): terms match case-insensitively as
// whole words or word starts, titles are matched the same way, and hits are
// ranked by the number of distinct terms matched, then by recency.
package store
