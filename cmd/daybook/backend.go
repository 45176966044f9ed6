package main

import (
	"context"
	"io"

	"github.com/daybook/daybook/api"
)

// backend carries out the CLI's operations: the App on the files, or a
// client of the daemon's socket; the output is the same either way.
type backend interface {
	Remember(ctx context.Context, req api.RememberRequest) (api.RememberResponse, error)
	Import(ctx context.Context, r io.Reader, opt api.ImportOptions) (api.ImportResponse, error)
	Day(ctx context.Context, req api.DayRequest) (api.DayResponse, error)
	Days(ctx context.Context, req api.DaysRequest) (api.DaysResponse, error)
	Find(ctx context.Context, req api.FindRequest) (api.FindResponse, error)
	Recall(ctx context.Context, req api.RecallRequest) (api.RecallResponse, error)
	Expand(ctx context.Context, req api.ExpandRequest) (api.ExpandResponse, error)
	Browse(ctx context.Context, req api.BrowseRequest) (api.BrowseResponse, error)
	Status(ctx context.Context, req api.StatusRequest) (api.StatusResponse, error)
	Consolidate(ctx context.Context, req api.ConsolidateRequest) (api.ConsolidateResponse, error)
	Reindex(ctx context.Context, req api.ReindexRequest) (api.ReindexResponse, error)
	Context(ctx context.Context, req api.ContextRequest) (api.ContextResponse, error)
	Topics(ctx context.Context, req api.TopicsRequest) (api.TopicsResponse, error)
	Topic(ctx context.Context, req api.TopicRequest) (api.TopicResponse, error)
	Stats(ctx context.Context, req api.StatsRequest) (api.StatsResponse, error)
}
