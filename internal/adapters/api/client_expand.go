package api

import "context"

// Expand returns the full text behind an id that recall or browse returned.
func (c *Client) Expand(ctx context.Context, req ExpandRequest) (ExpandResponse, error) {
	return call[ExpandResponse](ctx, c, "/v1/expand", req)
}

// Browse lists the summaries of one level, newest first.
func (c *Client) Browse(ctx context.Context, req BrowseRequest) (BrowseResponse, error) {
	return call[BrowseResponse](ctx, c, "/v1/browse", req)
}
