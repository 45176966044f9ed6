package daybook

// Check statuses, from good to bad.
const (
	CheckOK   = "ok"
	CheckWarn = "warn" // daybook works, but not as configured or not for long
	CheckFail = "fail" // something the user must fix; doctor exits 1
)

// DoctorResponse is what `daybook doctor` found, one check a line.
type DoctorResponse struct {
	Checks []Check `json:"checks"`
	Failed int     `json:"failed"`
	Warned int     `json:"warned"`
}

// Check is one health check.
type Check struct {
	Name   string `json:"name"`          // "data dir", "config", "index", "socket", "ollama", "models", "embedding"
	Status string `json:"status"`        // CheckOK, CheckWarn or CheckFail
	Detail string `json:"detail"`        // what was found, one line
	Fix    string `json:"fix,omitempty"` // what to do about it, one line; empty when ok
}

// Add appends c and counts it.
func (r *DoctorResponse) Add(c Check) {
	switch c.Status {
	case CheckFail:
		r.Failed++
	case CheckWarn:
		r.Warned++
	}
	r.Checks = append(r.Checks, c)
}
