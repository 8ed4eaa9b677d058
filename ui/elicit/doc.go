// Package elicit shows an MCP server's question (elicitation) in the
// window: a form built from the restricted JSON Schema the server sends
// (text, numbers with their bounds, booleans, single-choice enums,
// defaults filled in, required fields marked, a message under a value
// that is refused) with Accept, Decline and Cancel, or for a URL-mode
// question the page's address and "Open in browser".
//
// Asker implements mcp.Asker for the window. Servers ask from their own
// goroutines: Asker.Elicit shows the dialog through Do (fyne.Do) and
// waits for the answer or for its context, whose end closes the dialog.
// The form is a dialog over the chat for now; Form.Object is the part a
// card in the chat would hold.
package elicit
