package ollama

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/util/words"
)

// SummarizerStatus names the summarizer s for a status answer. Ollama's
// behind WithFallback says which one answers: during an outage the offline
// one, "since HH:MM" in loc; else how many summaries wait for an upgrade
// (toUpgrade), if any.
func SummarizerStatus(s consolidate.Summarizer, loc *time.Location, toUpgrade int) string {
	f, ok := s.(*FallbackSummarizer)
	if !ok {
		return s.Name()
	}
	name := f.InUse()
	if down, since, err := f.Outage(); down {
		return fmt.Sprintf("%s (%s since %s)", name, outageWord(err), since.In(loc).Format("15:04"))
	}
	if toUpgrade > 0 {
		return fmt.Sprintf("%s (%s to upgrade)", name, words.Count(toUpgrade, "summary"))
	}
	return name
}

// EmbedderStatus names the embedder e for a status answer: Ollama's behind
// GuardEmbedder stays in use through an outage, which it says, "since
// HH:MM" in loc; pending is how many documents wait for a vector.
func EmbedderStatus(e index.Embedder, loc *time.Location, pending int) string {
	var notes []string
	if g, ok := e.(*EmbedGuard); ok {
		if down, since, err := g.Outage(); down {
			notes = append(notes, fmt.Sprintf("%s since %s", outageWord(err), since.In(loc).Format("15:04")))
		}
	}
	if pending > 0 {
		notes = append(notes, fmt.Sprintf("vectors waiting: %d", pending))
	}
	if len(notes) == 0 {
		return e.Name()
	}
	return e.Name() + " (" + strings.Join(notes, "; ") + ")"
}

// outageWord says what kind of outage err is.
func outageWord(err error) string {
	var ne net.Error
	switch {
	case IsModelMissing(err):
		return "model not pulled"
	case errors.As(err, &ne):
		return "ollama unreachable"
	}
	return "ollama unavailable"
}
