package api

// The routes of the socket API, as the Server serves them and the Client
// calls them (docs/api.md).
const (
	routeRemember    = "/v1/remember"
	routeImport      = "/v1/import"
	routeDay         = "/v1/day"
	routeDays        = "/v1/days"
	routeFind        = "/v1/find"
	routeRecall      = "/v1/recall"
	routeExpand      = "/v1/expand"
	routeBrowse      = "/v1/browse"
	routeStatus      = "/v1/status"
	routeConsolidate = "/v1/consolidate"
	routeReindex     = "/v1/reindex"
	routeContext     = "/v1/context"
	routeTopics      = "/v1/topics"
	routeTopic       = "/v1/topic"
	routeStats       = "/v1/stats"
)
