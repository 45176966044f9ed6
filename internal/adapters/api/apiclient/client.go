package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/entrytext"
)

// DirHeader names the data dir a request is for (Client.ForDir), and in
// an answer the data dir the daemon serves.
const DirHeader = "X-Daybook-Dir"

// DialTimeout bounds connecting to the socket: a daemon that is there
// accepts at once.
const DialTimeout = 500 * time.Millisecond

// Client calls a daemon's API over its Unix socket. Its methods are the
// CLI's operations with the same results as the App's, so that the CLI says
// the same whether a daemon answers or not. It is safe for concurrent use.
type Client struct {
	socket string
	dir    string // sent as DirHeader when set
	tr     *transport
}

// New returns a client of the daemon listening on socket.
func New(socket string) *Client {
	return &Client{socket: socket, tr: &transport{socket: socket}}
}

// NoListener reports whether err, from connecting to a socket, says that
// no one listens there: the socket is gone, or a daemon that died left it
// (connection refused). Anything else, a full listen queue (EAGAIN) or a
// timeout, may be a daemon that is there but busy.
func NoListener(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT)
}

// ForDir makes every request say that it is for data dir dir (DirHeader):
// a daemon that serves another refuses it with CodeOtherDir, before any
// work, so that a command never reads or writes the wrong memory. It
// returns c.
func (c *Client) ForDir(dir string) *Client {
	c.dir = dir
	return c
}

// AnswerWithin bounds the wait for the headers of each answer to d, so
// that a daemon that took the connection and hangs is an error, not a hang.
// Only for requests the daemon answers at once (not a consolidation or an
// import). It returns c.
func (c *Client) AnswerWithin(d time.Duration) *Client {
	c.tr.headerTimeout = d
	return c
}

// Socket returns the socket path the client dials.
func (c *Client) Socket() string { return c.socket }

// Close closes the idle connections.
func (c *Client) Close() error {
	c.tr.closeIdle()
	return nil
}

// Remember appends one entry to its day file.
func (c *Client) Remember(ctx context.Context, req daybook.RememberRequest) (daybook.RememberResponse, error) {
	return call[daybook.RememberResponse](ctx, c, RouteRemember, req)
}

// Import streams JSON lines from r to the daemon.
func (c *Client) Import(ctx context.Context, r io.Reader, opt daybook.ImportOptions) (daybook.ImportResponse, error) {
	path := RouteImport + "?" + url.Values{"strict": {strconv.FormatBool(opt.Strict)}, "any_date": {strconv.FormatBool(opt.AnyDate)},
		"flatten": {strconv.FormatBool(opt.Flatten)}}.Encode()
	return do[daybook.ImportResponse](ctx, c, request{path: path, body: r, length: -1,
		header: [][2]string{{"Content-Type", "application/x-ndjson"}}})
}

// Day returns one day file and its entries.
func (c *Client) Day(ctx context.Context, req daybook.DayRequest) (daybook.DayResponse, error) {
	return call[daybook.DayResponse](ctx, c, RouteDay, req)
}

// Days lists the days in a range.
func (c *Client) Days(ctx context.Context, req daybook.DaysRequest) (daybook.DaysResponse, error) {
	return call[daybook.DaysResponse](ctx, c, RouteDays, req)
}

// Find scans the day files for a pattern.
func (c *Client) Find(ctx context.Context, req daybook.FindRequest) (daybook.FindResponse, error) {
	return call[daybook.FindResponse](ctx, c, RouteFind, req)
}

// Recall asks what daybook remembers about a query.
func (c *Client) Recall(ctx context.Context, req daybook.RecallRequest) (daybook.RecallResponse, error) {
	return call[daybook.RecallResponse](ctx, c, RouteRecall, req)
}

// Consolidate asks the daemon to bring summaries up to date; the daemon's
// index sees each summary it writes. Progress does not cross the socket.
func (c *Client) Consolidate(ctx context.Context, req daybook.ConsolidateRequest) (daybook.ConsolidateResponse, error) {
	return call[daybook.ConsolidateResponse](ctx, c, RouteConsolidate, req)
}

// Reindex asks the daemon, which owns the index, to rebuild it.
func (c *Client) Reindex(ctx context.Context, req daybook.ReindexRequest) (daybook.ReindexResponse, error) {
	return call[daybook.ReindexResponse](ctx, c, RouteReindex, req)
}

// Status says how the daemon and its data dir stand.
func (c *Client) Status(ctx context.Context, req daybook.StatusRequest) (daybook.StatusResponse, error) {
	return call[daybook.StatusResponse](ctx, c, RouteStatus, req)
}

// Context assembles the context block an agent is handed.
func (c *Client) Context(ctx context.Context, req daybook.ContextRequest) (daybook.ContextResponse, error) {
	return call[daybook.ContextResponse](ctx, c, RouteContext, req)
}

// Topics lists the topics.
func (c *Client) Topics(ctx context.Context, req daybook.TopicsRequest) (daybook.TopicsResponse, error) {
	return call[daybook.TopicsResponse](ctx, c, RouteTopics, req)
}

// Topic returns one topic's entries.
func (c *Client) Topic(ctx context.Context, req daybook.TopicRequest) (daybook.TopicResponse, error) {
	return call[daybook.TopicResponse](ctx, c, RouteTopic, req)
}

// Stats counts what the data dir holds.
func (c *Client) Stats(ctx context.Context, req daybook.StatsRequest) (daybook.StatsResponse, error) {
	return call[daybook.StatsResponse](ctx, c, RouteStats, req)
}

// Expand returns an entry or a summary in full, with what it came from.
func (c *Client) Expand(ctx context.Context, req daybook.ExpandRequest) (daybook.ExpandResponse, error) {
	return call[daybook.ExpandResponse](ctx, c, RouteExpand, req)
}

// Browse returns a page of the timeline.
func (c *Client) Browse(ctx context.Context, req daybook.BrowseRequest) (daybook.BrowseResponse, error) {
	return call[daybook.BrowseResponse](ctx, c, RouteBrowse, req)
}

// call posts req as JSON to path and decodes the answer.
func call[Resp any](ctx context.Context, c *Client, path string, req any) (Resp, error) {
	body, err := json.Marshal(req)
	if err != nil {
		var resp Resp
		return resp, fmt.Errorf("encoding the request to %s: %w", path, err)
	}
	return do[Resp](ctx, c, request{path: path, body: bytes.NewReader(body), length: int64(len(body)),
		header: [][2]string{{"Content-Type", "application/json"}}})
}

// errorBody is every error answer: the error with its code, and what the
// operation had done before it failed (an import's rejected lines) when it
// did anything.
type errorBody struct {
	Error  *daybook.Error  `json:"error"`
	Result json.RawMessage `json:"result,omitempty"`
}

// do sends req and decodes the answer into a Resp. An error answer becomes
// a *daybook.Error, with whatever the operation had done before it failed.
func do[Resp any](ctx context.Context, c *Client, req request) (Resp, error) {
	var resp Resp
	if c.dir != "" {
		req.header = append(req.header, [2]string{DirHeader, c.dir})
	}
	path, _, _ := strings.Cut(req.path, "?")
	a, err := c.tr.roundTrip(ctx, req)
	if err != nil {
		return resp, fmt.Errorf("calling the daemon at %s: %w", c.socket, err)
	}
	if served := a.header[strings.ToLower(DirHeader)]; c.dir != "" && served == "" {
		// A daemon that does not check DirHeader (an older daybook) may
		// serve another data dir.
		return resp, &daybook.Error{Code: daybook.CodeInternal, Status: a.status,
			Message: fmt.Sprintf("the daemon at %s does not say which data dir it serves: an older daybook, which may have done what %s asked "+
				"for the data dir it serves; restart it (daybook service restart, or stop and start daybook daemon)", c.socket, path)}
	}
	if a.status == 200 {
		if err := json.Unmarshal(a.body, &resp); err != nil {
			return resp, fmt.Errorf("decoding the daemon's answer to %s: %w", path, err)
		}
		return resp, nil
	}
	var eb errorBody
	if err := json.Unmarshal(a.body, &eb); err != nil || eb.Error == nil || eb.Error.Code == "" {
		return resp, &daybook.Error{Code: daybook.CodeInternal, Status: a.status,
			Message: fmt.Sprintf("daemon answered %d %s to %s: %.200q", a.status, a.line, path, a.body)}
	}
	if len(eb.Result) > 0 {
		// Best effort: the error is what matters.
		_ = json.Unmarshal(eb.Result, &resp)
	}
	eb.Error.Status = a.status
	return resp, eb.Error
}

// SameDir reports whether a and b name the same data dir: the same path,
// or the same folder by another path (a symbolic link, a bind mount).
func SameDir(a, b string) bool {
	if a == b {
		return true
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// RememberTurns appends a chat's turns in order, one request each (the
// daemon writes and indexes each as Remember does); it stops at the first
// error. A turn not written has no ID in its response. The socket's
// remember takes an entry's worth: the start of a longer turn, cut as
// every turn is cut (entrytext.CutText).
func (c *Client) RememberTurns(ctx context.Context, reqs []daybook.RememberRequest) ([]daybook.RememberResponse, error) {
	resps := make([]daybook.RememberResponse, len(reqs))
	for i, req := range reqs {
		req.Text, _ = entrytext.CutText(req.Text, entrytext.MaxTurnText)
		resp, err := c.Remember(ctx, req)
		if err != nil {
			return resps, err
		}
		resps[i] = resp
	}
	return resps, nil
}

// ReplayTurns writes turns that waited in the spool as RememberTurns does:
// the daemon's socket has no replay of its own.
func (c *Client) ReplayTurns(ctx context.Context, reqs []daybook.RememberRequest) ([]daybook.RememberResponse, error) {
	return c.RememberTurns(ctx, reqs)
}

// Listens reports whether something accepts connections on the Unix socket
// at path within timeout, without the net package (dial).
func Listens(path string, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c, err := dial(ctx, path, timeout)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
