// Package hooks puts daybook in an agent's loop through the hooks of Claude
// Code: the JSON a hook command gets on stdin (Input), the answer that adds
// context to the conversation (SessionStart, UserPromptSubmit), the capture
// of a session's transcript as entries (Stop, PreCompact, SessionEnd), kept
// in the one spool (internal/spool) when the daemon cannot take it, and the
// settings.json block that installs the hooks.
//
// Nothing here may block or break the agent: the caller bounds every call
// with a deadline, a failure prints nothing, and a capture that cannot be
// written is spooled, never lost.
package hooks
