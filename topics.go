package daybook

// TopicsRequest lists the topics: tags, people and projects, and the base
// topics self, user and system.
type TopicsRequest struct {
	Limit int `json:"limit,omitempty"` // at most this many, most entries first; 0 for all
}

// TopicsResponse lists topics, most entries first.
type TopicsResponse struct {
	Topics []Topic `json:"topics"`
	Total  int     `json:"total"` // topics before the limit
}

// Topic is one topic with how many entries name it and when.
type Topic struct {
	Name  string `json:"name"` // "#auth", "Alice Smith", "@maya", "self"
	Kind  string `json:"kind"` // tag, person, base
	Count int    `json:"count"`
	First string `json:"first,omitempty"` // YYYY-MM-DD
	Last  string `json:"last,omitempty"`
}

// TopicRequest asks for one topic's pyramid.
type TopicRequest struct {
	Name  string `json:"name"`
	Limit int    `json:"limit,omitempty"` // lines per level and entries; default 10
}

// TopicLine is a line of a summary that mentions the topic.
type TopicLine struct {
	ID     string `json:"id"` // the summary's id: year:2026, month:2026-02, day:2026-02-13
	Level  string `json:"level"`
	Period string `json:"period"`
	Path   string `json:"path"` // relative to the data dir
	Line   int    `json:"line"`
	Text   string `json:"text"`
}

// TopicResponse is a topic's pyramid: the summary lines that mention it,
// years, then months, then days, each newest first; then its latest entries,
// newest first.
type TopicResponse struct {
	Topic     Topic        `json:"topic"`
	Summaries []TopicLine  `json:"summaries"`
	Entries   []TopicEntry `json:"entries"`
}

// TopicEntry is an entry that names the topic.
type TopicEntry struct {
	ID   string `json:"id"`
	Day  string `json:"day"`
	Time string `json:"time"`
	Kind string `json:"kind"`
	Text string `json:"text"`
	Path string `json:"path"` // relative to the data dir
	Line int    `json:"line"`
}
