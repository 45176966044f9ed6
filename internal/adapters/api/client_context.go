package api

import (
	"context"

	"github.com/daybook/daybook"
)

// Context returns an agent's context block: the foundation, summaries and
// recent entries within a token budget.
func (c *Client) Context(ctx context.Context, req daybook.ContextRequest) (daybook.ContextResponse, error) {
	return call[daybook.ContextResponse](ctx, c, routeContext, req)
}

// Topics lists the topics, most entries first.
func (c *Client) Topics(ctx context.Context, req daybook.TopicsRequest) (daybook.TopicsResponse, error) {
	return call[daybook.TopicsResponse](ctx, c, routeTopics, req)
}

// Topic returns one topic's pyramid.
func (c *Client) Topic(ctx context.Context, req daybook.TopicRequest) (daybook.TopicResponse, error) {
	return call[daybook.TopicResponse](ctx, c, routeTopic, req)
}

// Stats describes the memory.
func (c *Client) Stats(ctx context.Context, req daybook.StatsRequest) (daybook.StatsResponse, error) {
	return call[daybook.StatsResponse](ctx, c, routeStats, req)
}
