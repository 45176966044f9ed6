package api

import "context"

// Context returns an agent's context block: the foundation, summaries and
// recent entries within a token budget.
func (c *Client) Context(ctx context.Context, req ContextRequest) (ContextResponse, error) {
	return call[ContextResponse](ctx, c, "/v1/context", req)
}

// Topics lists the topics, most entries first.
func (c *Client) Topics(ctx context.Context, req TopicsRequest) (TopicsResponse, error) {
	return call[TopicsResponse](ctx, c, "/v1/topics", req)
}

// Topic returns one topic's pyramid.
func (c *Client) Topic(ctx context.Context, req TopicRequest) (TopicResponse, error) {
	return call[TopicResponse](ctx, c, "/v1/topic", req)
}

// Stats describes the memory.
func (c *Client) Stats(ctx context.Context, req StatsRequest) (StatsResponse, error) {
	return call[StatsResponse](ctx, c, "/v1/stats", req)
}
