// Package elicit shows an MCP server's question (elicitation) in the
// window: a form built from the restricted JSON Schema the server sends
// (text, numbers with their bounds, booleans, single-choice enums,
// defaults filled in, required fields marked, a message under a value
// that is refused) with Accept, Decline and Cancel, or for a URL-mode
// question the page's address and "Open in browser".
//
// Asker implements mcp.Asker and mcp.SamplingApprover for the window.
// Servers ask from their own goroutines. A question asked during a call
// of a conversation in the window goes to Conversations (the chat, which
// shows it as a card holding Form.Inputs); any other shows as a dialog
// through Do (fyne.Do). Both wait for the answer or for the context,
// whose end takes the card or dialog away. A request for a completion
// (sampling) is shown the same way, its whole prompt (SamplePrompt) with
// Allow and Deny.
package elicit
