// Package hint carries what a person can do about an error, apart from the
// error's text. The engine and the assistant attach a Hint where they know
// the fix (grant a permission, enable a capability, set an API key); the CLI
// renders it as a command line and the window as a button to a page. No
// code decides behaviour by searching error text: it asks hint.Of.
//
// It is a leaf package (standard library only) so that every layer, from
// the capability engine to the model providers, can use it.
package hint
