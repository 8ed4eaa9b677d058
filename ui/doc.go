// Package ui will hold the Fyne windows and pages of the desktop app: the
// chat window and the Capabilities settings page (drop a SKILL.md, folder
// or .zip; Resync; enable with permission grants; remove and restore).
//
// It drives the same interfaces the CLI uses — cerebellum.Registry for
// capabilities, the agent for turns, gate.Approver for confirmations — and
// never calls app.New itself: main hands it the app and window, so its tests
// run headless with fyne.io/fyne/v2/test. Until that lands, `wrasse` with no
// arguments prints the workspace state and the CLI usage.
package ui
