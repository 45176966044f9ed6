package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
	"time"

	"github.com/daybook/daybook"
)

// Client calls a daemon's API over its Unix socket. Its methods are the
// CLI's operations with the same results as the App's, so that the CLI says
// the same whether a daemon answers or not.
type Client struct {
	socket string
	dir    string // sent as DirHeader when set
	tr     *http.Transport
	hc     *http.Client
}

// base is the URL every request goes to; the host is ignored on a socket.
const base = "http://daybook"

// DialTimeout bounds connecting to the socket: a daemon that is there
// accepts at once.
const DialTimeout = 500 * time.Millisecond

// NewClient returns a client of the daemon listening on socket.
func NewClient(socket string) *Client {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			d := net.Dialer{Timeout: DialTimeout}
			return d.DialContext(ctx, "unix", socket)
		},
		MaxIdleConns:        64,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true, // a local socket gains nothing from it
	}
	return &Client{socket: socket, tr: tr, hc: &http.Client{Transport: tr}}
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
	c.tr.ResponseHeaderTimeout = d
	return c
}

// Socket returns the socket path the client dials.
func (c *Client) Socket() string { return c.socket }

// Close closes the idle connections.
func (c *Client) Close() error {
	c.hc.CloseIdleConnections()
	return nil
}

// Remember appends one entry to its day file.
func (c *Client) Remember(ctx context.Context, req daybook.RememberRequest) (daybook.RememberResponse, error) {
	return call[daybook.RememberResponse](ctx, c, "/v1/remember", req)
}

// Import streams JSON lines from r to the daemon.
func (c *Client) Import(ctx context.Context, r io.Reader, opt daybook.ImportOptions) (daybook.ImportResponse, error) {
	var resp daybook.ImportResponse
	u := base + "/v1/import?" + url.Values{"strict": {strconv.FormatBool(opt.Strict)}, "any_date": {strconv.FormatBool(opt.AnyDate)},
		"flatten": {strconv.FormatBool(opt.Flatten)}}.Encode()
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, u, io.NopCloser(r))
	if err != nil {
		return resp, err
	}
	hreq.Header.Set("Content-Type", "application/x-ndjson")
	return do(c, hreq, resp)
}

// Day returns one day file and its entries.
func (c *Client) Day(ctx context.Context, req daybook.DayRequest) (daybook.DayResponse, error) {
	return call[daybook.DayResponse](ctx, c, "/v1/day", req)
}

// Days lists the days in a range.
func (c *Client) Days(ctx context.Context, req daybook.DaysRequest) (daybook.DaysResponse, error) {
	return call[daybook.DaysResponse](ctx, c, "/v1/days", req)
}

// Find scans the day files for a pattern.
func (c *Client) Find(ctx context.Context, req daybook.FindRequest) (daybook.FindResponse, error) {
	return call[daybook.FindResponse](ctx, c, "/v1/find", req)
}

// Recall asks what daybook remembers about a query.
func (c *Client) Recall(ctx context.Context, req daybook.RecallRequest) (daybook.RecallResponse, error) {
	return call[daybook.RecallResponse](ctx, c, "/v1/recall", req)
}

// Consolidate asks the daemon to bring summaries up to date; the daemon's
// index sees each summary it writes. Progress does not cross the socket.
func (c *Client) Consolidate(ctx context.Context, req daybook.ConsolidateRequest) (daybook.ConsolidateResponse, error) {
	return call[daybook.ConsolidateResponse](ctx, c, "/v1/consolidate", req)
}

// Reindex asks the daemon, which owns the index, to rebuild it.
func (c *Client) Reindex(ctx context.Context, req daybook.ReindexRequest) (daybook.ReindexResponse, error) {
	return call[daybook.ReindexResponse](ctx, c, "/v1/reindex", req)
}

// Status says how the daemon and its data dir stand.
func (c *Client) Status(ctx context.Context, req daybook.StatusRequest) (daybook.StatusResponse, error) {
	return call[daybook.StatusResponse](ctx, c, "/v1/status", req)
}

// call posts req as JSON to path and decodes the answer.
func call[Resp any](ctx context.Context, c *Client, path string, req any) (Resp, error) {
	var resp Resp
	body, err := json.Marshal(req)
	if err != nil {
		return resp, fmt.Errorf("encoding the request to %s: %w", path, err)
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, bytes.NewReader(body))
	if err != nil {
		return resp, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	return do(c, hreq, resp)
}

// do sends hreq and decodes the answer into a Resp. An error answer becomes
// an *Error, with whatever the operation had done before it failed.
func do[Resp any](c *Client, hreq *http.Request, resp Resp) (Resp, error) {
	if c.dir != "" {
		hreq.Header.Set(DirHeader, c.dir)
	}
	hresp, err := c.hc.Do(hreq)
	if err != nil {
		return resp, fmt.Errorf("calling the daemon at %s: %w", c.socket, unwrapURL(err))
	}
	defer hresp.Body.Close()
	if served := hresp.Header.Get(DirHeader); c.dir != "" && served == "" {
		// A daemon that does not check DirHeader (an older daybook) may
		// serve another data dir.
		return resp, &daybook.Error{Code: daybook.CodeInternal, Status: hresp.StatusCode,
			Message: fmt.Sprintf("the daemon at %s does not say which data dir it serves: an older daybook, which may have done what %s asked "+
				"for the data dir it serves; restart it (daybook service restart, or stop and start daybook daemon)", c.socket, hreq.URL.Path)}
	}
	data, err := io.ReadAll(hresp.Body)
	if err != nil {
		return resp, fmt.Errorf("reading the daemon's answer to %s: %w", hreq.URL.Path, err)
	}
	if hresp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(data, &resp); err != nil {
			return resp, fmt.Errorf("decoding the daemon's answer to %s: %w", hreq.URL.Path, err)
		}
		return resp, nil
	}
	var eb errorBody
	if err := json.Unmarshal(data, &eb); err != nil || eb.Error == nil || eb.Error.Code == "" {
		return resp, &daybook.Error{Code: daybook.CodeInternal, Status: hresp.StatusCode,
			Message: fmt.Sprintf("daemon answered %s to %s: %.200q", hresp.Status, hreq.URL.Path, data)}
	}
	if len(eb.Result) > 0 {
		// Best effort: the error is what matters.
		_ = json.Unmarshal(eb.Result, &resp)
	}
	eb.Error.Status = hresp.StatusCode
	return resp, eb.Error
}

// unwrapURL drops the *url.Error wrapper, whose message repeats the method
// and the made-up URL.
func unwrapURL(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}
