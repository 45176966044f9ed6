package daybook

import (
	"context"
	"io"
)

// Service is daybook's operations, declared once: *app.App carries them out
// on the files and *Client over the daemon's socket; the compiler checks both
// (var _ Service in each package). The Server serves a Service, and the CLI
// and MCP call one without knowing which they hold.
type Service interface {
	Remember(ctx context.Context, req RememberRequest) (RememberResponse, error)
	Import(ctx context.Context, r io.Reader, opt ImportOptions) (ImportResponse, error)
	Day(ctx context.Context, req DayRequest) (DayResponse, error)
	Days(ctx context.Context, req DaysRequest) (DaysResponse, error)
	Find(ctx context.Context, req FindRequest) (FindResponse, error)
	Recall(ctx context.Context, req RecallRequest) (RecallResponse, error)
	Expand(ctx context.Context, req ExpandRequest) (ExpandResponse, error)
	Browse(ctx context.Context, req BrowseRequest) (BrowseResponse, error)
	Status(ctx context.Context, req StatusRequest) (StatusResponse, error)
	Consolidate(ctx context.Context, req ConsolidateRequest) (ConsolidateResponse, error)
	Reindex(ctx context.Context, req ReindexRequest) (ReindexResponse, error)
	Context(ctx context.Context, req ContextRequest) (ContextResponse, error)
	Topics(ctx context.Context, req TopicsRequest) (TopicsResponse, error)
	Topic(ctx context.Context, req TopicRequest) (TopicResponse, error)
	Stats(ctx context.Context, req StatsRequest) (StatsResponse, error)
}
