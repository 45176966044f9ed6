package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/models/ollama"
)

// DoctorInput is what the doctor knows beyond the App: where the config came
// from and whether it loaded (when it did not, the App runs on the
// defaults), and the socket the CLI would try.
type DoctorInput struct {
	ConfigPath string
	ConfigErr  error
	Socket     string
}

// Checkup is the doctor: it reads the data dir, the config, the index,
// the socket and Ollama as they stand on disk and on the network, not
// through the other parts, and changes nothing.
type Checkup struct{ *env }

// Doctor checks the data dir, the config, the index, the socket and Ollama,
// and says for each what to do when it is not ok. It reads and probes but
// changes nothing, except a temporary file to prove the data dir writable.
func (ck *Checkup) Doctor(ctx context.Context, in DoctorInput) daybook.DoctorResponse {
	var r daybook.DoctorResponse
	r.Add(ck.checkDataDir())
	r.Add(checkConfig(in))
	r.Add(ck.checkZone())
	for _, c := range ck.checkDayFiles(ctx) {
		r.Add(c)
	}
	r.Add(ck.checkMerges())
	r.Add(ck.checkSpool())
	r.Add(ck.checkIndex(ctx))
	r.Add(ck.checkAside())
	r.Add(ck.checkSocket(ctx, in.Socket))
	for _, c := range ck.checkOllama(ctx) {
		r.Add(c)
	}
	return r
}

func ok(name, format string, args ...any) daybook.Check {
	return daybook.Check{Name: name, Status: daybook.CheckOK, Detail: oneLine(format, args...)}
}

func warn(name, fix, format string, args ...any) daybook.Check {
	return daybook.Check{Name: name, Status: daybook.CheckWarn, Detail: oneLine(format, args...), Fix: fix}
}

func fail(name, fix, format string, args ...any) daybook.Check {
	return daybook.Check{Name: name, Status: daybook.CheckFail, Detail: oneLine(format, args...), Fix: fix}
}

// oneLine formats a detail and folds it onto one line (YAML errors span
// several).
func oneLine(format string, args ...any) string {
	return strings.Join(strings.Fields(fmt.Sprintf(format, args...)), " ")
}

func (ck *Checkup) checkDataDir() daybook.Check {
	const name = "data dir"
	fi, err := os.Stat(ck.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return warn(name, `"daybook remember TEXT" creates it`, "%s does not exist yet", ck.dir)
	case err != nil:
		return fail(name, "check the path and its parent's permissions", "%v", err)
	case !fi.IsDir():
		return fail(name, "point --dir or $DAYBOOK_DIR at a directory", "%s is not a directory", ck.dir)
	}
	f, err := os.CreateTemp(ck.dir, ".doctor-*")
	if err != nil {
		return fail(name, fmt.Sprintf("chown $USER %s && chmod u+rwx %s", ck.dir, ck.dir), "not writable: %v", err)
	}
	f.Close()
	os.Remove(f.Name())
	files, err := dayfiles.List(ck.dir, date.Range{}, ck.log)
	if err != nil {
		return fail(name, "check the permissions of the days/ folders", "listing day files: %v", err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return warn(name, fmt.Sprintf("chmod 700 %s", ck.dir), "%s is open to other users (%04o); %d day files", ck.dir, perm, len(files))
	}
	return ok(name, "%s (%04o), %d day files", ck.dir, fi.Mode().Perm(), len(files))
}

func checkConfig(in DoctorInput) daybook.Check {
	const name = "config"
	if in.ConfigErr != nil {
		return fail(name, "correct the named field; the checks below use the defaults", "%v", in.ConfigErr)
	}
	if in.ConfigPath == "" {
		return ok(name, "defaults")
	}
	if _, err := os.Stat(in.ConfigPath); errors.Is(err, fs.ErrNotExist) {
		return ok(name, "defaults (no %s)", in.ConfigPath)
	}
	return ok(name, "%s is valid", in.ConfigPath)
}

// checkIndex reads DATA/index as opening it would, without changing it
// (index.Check): its files, a count and a query of the bleve index, the
// vector store's checksums. An index the daemon holds is the daemon's to
// read: it opened it.
func (ck *Checkup) checkIndex(ctx context.Context) daybook.Check {
	const name = "index"
	dir := filepath.Join(ck.dir, IndexDir)
	rebuild := fmt.Sprintf(`run "daybook reindex": it moves %s aside to %s.broken-* and rebuilds it from the day files`, dir, dir)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return warn(name, `start "daybook daemon" to build it; recall scans the day files meanwhile`, "not built yet (%s)", dir)
	case err != nil:
		return fail(name, rebuild, "%v", err)
	case !fi.IsDir():
		return fail(name, rebuild, "%s is not a directory", dir)
	}
	if ents, err := os.ReadDir(dir); err == nil && len(ents) == 0 {
		return warn(name, `start "daybook daemon" to build it`, "%s is empty", dir)
	}
	r, err := index.Check(ctx, dir)
	switch {
	case errors.Is(err, index.ErrBusy):
		return ok(name, "%s: in use by a running daybook, which opened it; %.1f MB", dir, float64(index.DiskBytes(dir))/1e6)
	case errors.Is(err, index.ErrBehind):
		return warn(name, `start "daybook daemon" (or run any recall): its catch-up indexes those files again; if this stays, run "daybook reindex"`, "%v", err)
	case errors.Is(err, index.ErrOldFormat):
		return warn(name, `start "daybook daemon" or run "daybook reindex" to rebuild it`, "%v", err)
	case err != nil:
		return fail(name, rebuild, "%s will not read, and is moved aside and rebuilt when next opened: %v", dir, err)
	}
	return ok(name, "%s: %d documents, %d vectors (%s), %.1f MB", dir, r.Docs, r.Vectors, r.Embedder, float64(r.Bytes)/1e6)
}

// checkSocket tells a live daemon from a stale socket left by one that died.
func (ck *Checkup) checkSocket(ctx context.Context, path string) daybook.Check {
	const name = "socket"
	if path == "" {
		return ok(name, "no socket configured")
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ok(name, "no daemon running (%s); the CLI works on the files", path)
	case err != nil:
		return fail(name, "check the permissions of its folder", "%v", err)
	case fi.Mode().Type() != fs.ModeSocket:
		return fail(name, fmt.Sprintf("remove %s or set socket.path elsewhere", path), "%s is not a socket (%v)", path, fi.Mode().Type())
	}
	d := net.Dialer{Timeout: time.Second}
	conn, err := d.DialContext(ctx, "unix", path)
	if api.NoListener(err) {
		return warn(name, fmt.Sprintf(`rm %s, or start "daybook daemon" (it replaces it)`, path), "%s is stale: no daemon answers", path)
	}
	if err != nil {
		return fail(name, "check who owns the socket", "connecting to %s: %v", path, err)
	}
	conn.Close()
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return d.DialContext(ctx, "unix", path) },
	}}
	resp, err := client.Post("http://daybook/v1/status", "application/json", strings.NewReader(`{"brief":true}`))
	if err != nil {
		return fail(name, `restart the daemon: "daybook service restart", or stop and start "daybook daemon"`, "%s accepts connections but does not answer: %v", path, err)
	}
	defer resp.Body.Close()
	var st daybook.StatusResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&st); err != nil || resp.StatusCode != http.StatusOK {
		return warn(name, "check what listens there; daybook's daemon answers /v1/status", "%s answers %s, not a daybook status", path, resp.Status)
	}
	if st.DataDir != ck.dir {
		return warn(name, "give each data dir its own socket.path", "the daemon on %s serves %s, not this data dir", path, st.DataDir)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return warn(name, fmt.Sprintf("chmod 600 %s (the daemon sets it on start)", path), "daemon answers on %s, but others may connect (%04o)", path, perm)
	}
	return ok(name, "daemon answers on %s", path)
}

// checkOllama checks that the server answers, that both models are pulled and
// what dimension the embeddings have. Ollama off is fine: the offline models
// are in use.
func (ck *Checkup) checkOllama(ctx context.Context) []daybook.Check {
	cfg := ck.cfg.Ollama
	if !cfg.Enabled {
		return []daybook.Check{ok("ollama", "off: offline summarizer and embedder in use (ollama.enabled: false)")}
	}
	p := ollama.ProbeServer(ctx, cfg)
	if p.Err != nil {
		const fix = "start Ollama (ollama serve) or correct ollama.url; summaries use the offline summarizer and new vectors wait meanwhile"
		return []daybook.Check{fail("ollama", fix, "%s does not answer: %v", redactURL(cfg.URL), p.Err)}
	}
	checks := []daybook.Check{ok("ollama", "%s answers, %d models pulled", redactURL(cfg.URL), len(p.Models))}
	var missing []string
	var fixes []string
	for _, m := range []struct {
		name    string
		present bool
	}{{cfg.SummaryModel, p.Summary}, {cfg.EmbedModel, p.Embed}} {
		if !m.present {
			missing = append(missing, m.name)
			fixes = append(fixes, "ollama pull "+m.name)
		}
	}
	if len(missing) > 0 {
		checks = append(checks, fail("models", strings.Join(fixes, " && "), "not pulled: %s (pulled: %s)", strings.Join(missing, ", "), list(p.Models)))
	} else {
		checks = append(checks, ok("models", "%s and %s are pulled", cfg.SummaryModel, cfg.EmbedModel))
	}
	switch {
	case p.Dim > 0:
		checks = append(checks, ok("embedding", "%s gives %d dimensions", cfg.EmbedModel, p.Dim))
	case p.Embed:
		checks = append(checks, fail("embedding", "check the Ollama server log; raise ollama.embed_timeout if it is slow", "%s: %v", cfg.EmbedModel, p.EmbedErr))
	}
	return checks
}

func list(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
