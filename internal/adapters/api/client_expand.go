package api

import (
	"context"

	"github.com/daybook/daybook"
)

// Expand returns the full text behind an id that recall or browse returned.
func (c *Client) Expand(ctx context.Context, req daybook.ExpandRequest) (daybook.ExpandResponse, error) {
	return call[daybook.ExpandResponse](ctx, c, routeExpand, req)
}

// Browse lists the summaries of one level, newest first.
func (c *Client) Browse(ctx context.Context, req daybook.BrowseRequest) (daybook.BrowseResponse, error) {
	return call[daybook.BrowseResponse](ctx, c, routeBrowse, req)
}
