package apiclient

// The routes of the socket API, as the Client calls them and the Server
// (package api) serves them (docs/api.md).
const (
	RouteRemember    = "/v1/remember"
	RouteImport      = "/v1/import"
	RouteDay         = "/v1/day"
	RouteDays        = "/v1/days"
	RouteFind        = "/v1/find"
	RouteRecall      = "/v1/recall"
	RouteExpand      = "/v1/expand"
	RouteBrowse      = "/v1/browse"
	RouteStatus      = "/v1/status"
	RouteConsolidate = "/v1/consolidate"
	RouteReindex     = "/v1/reindex"
	RouteContext     = "/v1/context"
	RouteTopics      = "/v1/topics"
	RouteTopic       = "/v1/topic"
	RouteStats       = "/v1/stats"
)
