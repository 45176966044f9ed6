package api

import (
	"context"
	"net/http"
)

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

// contextBackend is what a backend has when it assembles contexts and
// knows topics and stats; *app.App is one.
type contextBackend interface {
	Context(context.Context, ContextRequest) (ContextResponse, error)
	Topics(context.Context, TopicsRequest) (TopicsResponse, error)
	Topic(context.Context, TopicRequest) (TopicResponse, error)
	Stats(context.Context, StatsRequest) (StatsResponse, error)
}

// handleContext serves /v1/context, /v1/topics, /v1/topic and /v1/stats
// when b has them.
func (s *Server) handleContext(b Backend) {
	x, ok := b.(contextBackend)
	if !ok {
		return
	}
	s.Handle(http.MethodPost, "/v1/context", jsonHandler(s, x.Context))
	s.Handle(http.MethodPost, "/v1/topics", jsonHandler(s, x.Topics))
	s.Handle(http.MethodPost, "/v1/topic", jsonHandler(s, x.Topic))
	stats := jsonHandler(s, x.Stats)
	s.Handle(http.MethodPost, "/v1/stats", stats)
	s.Handle(http.MethodGet, "/v1/stats", stats)
}
