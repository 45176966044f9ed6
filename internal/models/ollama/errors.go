package ollama

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/index"
)

// ErrUnavailable marks an error that means "Ollama cannot do this now": it is
// down, slower than its timeout, missing the model, or answered with something
// unusable. Callers retry later or fall back; nothing is wrong with the input.
var ErrUnavailable = errors.New("ollama unavailable")

// ErrDimensionChanged is returned when the embedding model answers with
// vectors of another dimension than earlier in the same run. Vectors of two
// dimensions are never handed out together; the index re-embeds on its next
// open, when it sees the new dimension.
var ErrDimensionChanged = errors.New("embedding dimension changed")

// UnavailableError says why Ollama could not do the work and when it is worth
// asking again. It matches ErrUnavailable with errors.Is.
type UnavailableError struct {
	Op         string    // "summarizing", "embedding"
	Model      string    // "ollama/llama3.2"
	RetryAfter time.Time // zero: now; else the time the guard asks Ollama again
	Err        error     // the cause
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("%s with %s: %v", e.Op, e.Model, e.Err)
}

// Unwrap returns the cause, ErrUnavailable and index.ErrUnavailable (the
// index then lets documents wait for their vectors).
func (e *UnavailableError) Unwrap() []error {
	return []error{e.Err, ErrUnavailable, index.ErrUnavailable}
}

// RetryAt returns RetryAfter, for callers that only know the method (the
// index).
func (e *UnavailableError) RetryAt() time.Time { return e.RetryAfter }

// unavailable wraps err as an UnavailableError unless the caller's own
// context ended (a shutdown is not an outage) or err already is one.
func unavailable(ctx context.Context, op, model string, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, ErrUnavailable) || errors.Is(err, ErrDimensionChanged) {
		return err
	}
	return &UnavailableError{Op: op, Model: model, Err: err}
}

// IsModelMissing reports whether err is Ollama's 404 for a model that is not
// pulled.
func IsModelMissing(err error) bool {
	var se api.StatusError
	return errors.As(err, &se) && se.StatusCode == 404
}
