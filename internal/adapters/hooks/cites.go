package hooks

import "github.com/daybook/daybook/internal/cites"

// Cites returns the ids of the entries the session was handed that answer
// restates (cites.Match); none when the session was handed nothing.
func (s *Session) Cites(answer string) []string {
	if s == nil {
		return nil
	}
	return cites.Match(answer, s.Handed)
}
