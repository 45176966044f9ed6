package api

import (
	"context"
	"net/http"
)

// Expand returns the full text behind an id that recall or browse returned.
func (c *Client) Expand(ctx context.Context, req ExpandRequest) (ExpandResponse, error) {
	return call[ExpandResponse](ctx, c, "/v1/expand", req)
}

// Browse lists the summaries of one level, newest first.
func (c *Client) Browse(ctx context.Context, req BrowseRequest) (BrowseResponse, error) {
	return call[BrowseResponse](ctx, c, "/v1/browse", req)
}

// handleExpand serves POST /v1/expand when b can expand ids.
func (s *Server) handleExpand(b Backend) {
	if x, ok := b.(interface {
		Expand(context.Context, ExpandRequest) (ExpandResponse, error)
	}); ok {
		s.Handle(http.MethodPost, "/v1/expand", jsonHandler(s, x.Expand))
	}
}

// handleBrowse serves POST /v1/browse when b can list summaries. Browse
// reads every summary it lists and plans a dry consolidation for the stale
// flags, so it runs without the write deadline.
func (s *Server) handleBrowse(b Backend) {
	if x, ok := b.(interface {
		Browse(context.Context, BrowseRequest) (BrowseResponse, error)
	}); ok {
		s.Handle(http.MethodPost, "/v1/browse", longRunning(jsonHandler(s, x.Browse)))
	}
}
