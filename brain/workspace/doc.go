// Package workspace owns the layout of a Wrasse workspace on disk — where
// capabilities, the database, config.json, the identity prompt, logs, the
// install staging area and the trash live — and reads and writes
// config.json. The workspace defaults to the user's data folder
// ($XDG_DATA_HOME/wrasse on Linux) and is overridden with --workspace or
// WRASSE_HOME.
package workspace
