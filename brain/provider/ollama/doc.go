// Package ollama is the provider for Ollama over its native API, with the
// official client (github.com/ollama/ollama/api, the package the ollama
// command itself uses). It is Wrasse's default: http://localhost:11434.
//
// # Why not Ollama's OpenAI-compatible endpoint
//
// Ollama's /v1/chat/completions ignores num_ctx and every other option and
// runs each request in the server's default context (4,096 tokens unless
// its operator set more), cutting a longer prompt from the start without
// a word: the system prompt and the tool schemas go first. The native
// /api/chat honours options, so each request carries num_ctx sized to it,
// and truncate:false, so a prompt that does not fit is refused rather than
// cut (the agent then fits it tighter).
//
// # What a request carries
//
//   - the system prompt as the first message, the history, tool schemas
//     (arguments are JSON objects both ways), tool-result images for a
//     model that sees (capability vision);
//   - options.num_ctx: the request's estimated tokens plus room for the
//     answer, rounded up to 8,192, 16,384, 32,768… and never above the
//     model's own maximum (model_info.<arch>.context_length) or the
//     configured contextWindow, never below what the model was last
//     loaded with by this provider (a different num_ctx reloads it);
//   - keep_alive (30 minutes by default), so a conversation does not
//     reload the model between turns;
//   - think, for a thinking model, from the per-model setting (auto asks
//     for thinking, so it arrives apart from the answer in
//     message.thinking);
//   - shift:false, so a long answer stops with done_reason "length"
//     (reported as provider.StopMaxTokens) instead of dropping the start
//     of the prompt.
//
// # What a model can do
//
// /api/show says, once per model (cached): capabilities (completion,
// tools, vision, thinking, embedding) and the context length. A model
// without tools gets no tool schemas (Ollama would refuse the request)
// and a notice saying so; an embedding model is refused with a clear
// error.
//
// # Waiting
//
// Ollama sends nothing until the first token: the model may be loading
// from disk, then reading the prompt. After a second without an answer
// the provider asks /api/ps whether the model is loaded and reports
// "loading llama3.1 into memory…" or that it reads the prompt; before the
// first token it waits up to the load timeout.
//
// # Models
//
// ListModels reads /api/tags and /api/show (abilities, window, size);
// Pull downloads a model with progress; Running lists loaded models;
// Detect tells whether an Ollama server answers at a URL.
package ollama
