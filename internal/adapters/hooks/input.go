package hooks

import (
	"encoding/json"
	"fmt"
	"io"
)

// MaxInput is the largest hook input read from stdin: a prompt with a long
// paste fits; a larger one is refused (and the hook prints nothing).
const MaxInput = 8 << 20

// Input is the JSON Claude Code writes to a hook command's stdin: the fields
// every event has, and those of the events daybook answers. Fields daybook
// does not use are ignored, so that a newer Claude Code does not break it.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	PermissionMode string `json:"permission_mode,omitempty"`
	HookEventName  string `json:"hook_event_name"`

	Source string `json:"source,omitempty"` // SessionStart: startup, resume, clear, compact
	Prompt string `json:"prompt,omitempty"` // UserPromptSubmit
	// StopHookActive: Stop; the agent goes on because a Stop hook asked it to.
	StopHookActive bool   `json:"stop_hook_active,omitempty"`
	Trigger        string `json:"trigger,omitempty"` // PreCompact: manual, auto
	Reason         string `json:"reason,omitempty"`  // SessionEnd: clear, logout, prompt_input_exit, other
}

// ReadInput decodes one hook input from r. Empty input is an error, as is
// input over MaxInput.
func ReadInput(r io.Reader) (Input, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return Input{}, fmt.Errorf("reading the hook input: %w", err)
	}
	if len(data) > MaxInput {
		return Input{}, fmt.Errorf("hook input: over %d bytes", MaxInput)
	}
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		return Input{}, fmt.Errorf("hook input: not the JSON of a Claude Code hook: %w", err)
	}
	return in, nil
}

// The hook events daybook answers, as settings.json and hook_event_name
// spell them.
const (
	EventSessionStart = "SessionStart"
	EventPrompt       = "UserPromptSubmit"
	EventStop         = "Stop"
	EventPreCompact   = "PreCompact"
	EventSessionEnd   = "SessionEnd"
)

// The "daybook hook" arguments.
const (
	ArgSessionStart = "session-start"
	ArgPrompt       = "prompt"
	ArgCapture      = "capture"
)

// Events names the hook events with the "daybook hook" argument that
// answers each.
var Events = []struct{ Name, Arg string }{
	{EventSessionStart, ArgSessionStart},
	{EventPrompt, ArgPrompt},
	{EventStop, ArgCapture},
	{EventPreCompact, ArgCapture},
	{EventSessionEnd, ArgCapture},
}

// Output is a hook's answer on stdout that adds context to the
// conversation (SessionStart, UserPromptSubmit), in Claude Code's
// hookSpecificOutput shape.
type Output struct {
	HookSpecificOutput SpecificOutput `json:"hookSpecificOutput"`
}

// SpecificOutput is the event's part of Output.
type SpecificOutput struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

// WriteContext writes markdown as the additional context of event to w.
func WriteContext(w io.Writer, event, markdown string) error {
	data, err := json.Marshal(Output{HookSpecificOutput: SpecificOutput{HookEventName: event, AdditionalContext: markdown}})
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
