// Package wire holds what the provider implementations share about talking
// to a model server over HTTP: it records the HTTP exchange the SDK made,
// reads the many shapes of error body that OpenAI-compatible servers and
// Anthropic send, turns every failure into a *provider.Error with a message
// that says what to do, keeps API keys out of those messages, and assembles
// the streamed pieces into a provider.Response.
//
// # Why an exchange recorder
//
// The SDKs parse error bodies themselves, but only in their own vendor's
// shape: an Ollama body such as {"error":"model not found"} or a plain-text
// 502 from a proxy makes openai-go return a bare decoding error and the HTTP
// status is lost. Exchange is an SDK middleware that keeps the status, the
// headers (Retry-After) and a bounded copy of any error body, so
// classification never depends on how the SDK fared.
package wire
