// Package proxy is daybook's memory proxy in front of Ollama: an
// http.Handler that speaks Ollama's HTTP API (and its OpenAI-compatible
// /v1/chat/completions), so any client that talks to Ollama gets daybook's
// memory by changing its server URL.
//
// /api/chat, /api/generate and /v1/chat/completions get a system message
// with the context block for the conversation's latest user turn (after
// the client's own system prompt), the recall and expand tools (answered
// by the proxy itself), and, once the answer is done, the user's turn and
// the reply remembered as entries of kind chat, tagged with the
// conversation and the model, once each however often the client resends
// the history. The upstream's stream is passed through chunk by chunk.
// Every other path is forwarded untouched (httputil.ReverseProxy).
//
// Failure never costs the user the chat: a context or a write that fails
// leaves the request going on without memory, with an X-Daybook-Warning
// header and a log line; a turn that could not be written is spooled in
// the data dir and written later. An upstream's error reaches the client
// as Ollama sent it; a client that goes away cancels the upstream request.
//
// It serves its owner only. Server closes, unread, every connection whose
// peer socket another uid owns (Linux, from /proc/net/tcp), or else asks
// every request for the token of TokenFile; the handler refuses what a web
// page could send (a foreign Host or Origin, a preflight) before reading
// it, and reads a chat's body only up to Options.MaxBody and within
// Options.BodyTimeout. `daybook chat` serves it with InProcess: no socket.
package proxy
