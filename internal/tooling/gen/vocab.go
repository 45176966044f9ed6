package gen

// The filler vocabulary. None of these words may be a key of a planted fact
// (facts.go); TestFactKeysAreRare checks it on a generated corpus.

// tagVocab is the stable tag vocabulary, most frequent first: tags are drawn
// with Zipf-like weights by rank.
var tagVocab = []string{
	"work", "meeting", "api", "deploy", "bug", "review", "infra", "auth", "db", "planning",
	"oncall", "frontend", "perf", "release", "testing", "people", "docs", "incident", "design", "security",
	"health", "family", "home", "hiring", "billing", "search", "mobile", "running", "reading", "finance",
	"retro", "travel", "cooking", "learning", "ops", "idea", "admin", "music", "garden", "car",
}

// firstNames are the people who come and go: coworkers, friends, family.
var firstNames = []string{
	"Anna", "Ben", "Chloe", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas",
	"Kavya", "Liam", "Maya", "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sam", "Tomas",
	"Uma", "Victor", "Wen", "Xavier", "Yara", "Zoe", "Arjun", "Bea", "Carlos", "Dana",
	"Emeka", "Fatima", "Gus", "Hana", "Ivan", "Julia", "Kenji", "Lucia", "Marco", "Nina",
	"Oscar", "Paula", "Raj", "Sofia", "Theo", "Vera", "Will", "Ximena", "Yusuf", "Zara",
}

// codenames name projects; a project lives for a few months.
var codenames = []string{
	"Bluefin", "Kestrel", "Juniper", "Marlin", "Osprey", "Tamarack", "Halyard", "Lantern", "Bramble", "Cobalt",
	"Driftwood", "Ember", "Foxglove", "Granite", "Heron", "Ironwood", "Jetty", "Keel", "Lichen", "Meridian",
	"Nimbus", "Orchard", "Pebble", "Quarry", "Rook", "Saffron", "Thistle", "Umber", "Vireo", "Wren",
	"Yarrow", "Zephyr", "Anvil", "Beacon", "Cinder", "Dune", "Estuary", "Fjord", "Glacier", "Harbor",
}

// A topic is a theme that is hot for a while: its components and tags.
type topic struct {
	name       string
	tags       []string
	components []string
	personal   bool // weekend-friendly, not work
}

var topics = []topic{
	{"login flow", []string{"auth", "security"}, []string{"login page", "password reset", "OAuth callback", "session cookie", "MFA prompt"}, false},
	{"payments", []string{"billing", "api"}, []string{"checkout service", "refund job", "invoice mailer", "tax calculator", "card vault"}, false},
	{"search relevance", []string{"search", "perf"}, []string{"ranking function", "query parser", "synonym list", "search cache", "autocomplete"}, false},
	{"database migration", []string{"db", "infra"}, []string{"orders table", "replica lag", "connection pool", "schema migration", "vacuum job"}, false},
	{"mobile app", []string{"mobile", "frontend"}, []string{"iOS build", "Android release", "push notifications", "offline mode", "app store listing"}, false},
	{"observability", []string{"ops", "infra"}, []string{"dashboards", "alert rules", "trace sampling", "log pipeline", "uptime probes"}, false},
	{"onboarding", []string{"frontend", "design"}, []string{"signup wizard", "welcome email", "empty states", "tooltip tour", "pricing page"}, false},
	{"CI pipeline", []string{"testing", "infra"}, []string{"flaky tests", "build cache", "test shards", "lint step", "release script"}, false},
	{"hiring loop", []string{"hiring", "people"}, []string{"take-home task", "phone screen", "interview rubric", "offer call", "job posting"}, false},
	{"cost cutting", []string{"infra", "finance"}, []string{"spot instances", "storage tiering", "egress bill", "idle clusters", "reserved capacity"}, false},
	{"API versioning", []string{"api", "docs"}, []string{"v2 endpoints", "deprecation headers", "client SDK", "rate limiter", "OpenAPI spec"}, false},
	{"incident follow-ups", []string{"incident", "oncall"}, []string{"runbook", "pager rotation", "postmortem", "failover drill", "status page"}, false},
	{"data pipeline", []string{"db", "perf"}, []string{"nightly export", "event stream", "warehouse load", "dedup step", "backfill job"}, false},
	{"accessibility", []string{"frontend", "design"}, []string{"screen reader labels", "focus order", "color contrast", "keyboard shortcuts", "form errors"}, false},
	{"team process", []string{"planning", "retro"}, []string{"sprint board", "estimation", "standup format", "roadmap", "quarterly goals"}, false},
	{"marathon training", []string{"running", "health"}, []string{"long run", "tempo run", "interval session", "recovery day", "race plan"}, true},
	{"house renovation", []string{"home", "finance"}, []string{"kitchen tiles", "bathroom fan", "window quotes", "paint samples", "plumber visit"}, true},
	{"learning Rust", []string{"learning", "reading"}, []string{"borrow checker", "async chapter", "toy interpreter", "lifetimes", "cargo workspace"}, true},
	{"family", []string{"family", "home"}, []string{"school pickup", "birthday party", "grandparents visit", "swimming lessons", "homework"}, true},
	{"cooking", []string{"cooking", "home"}, []string{"sourdough starter", "meal prep", "curry recipe", "farmers market", "spice rack"}, true},
	{"garden", []string{"garden", "home"}, []string{"tomato seedlings", "compost bin", "hedge trimming", "raised beds", "drip irrigation"}, true},
	{"personal finance", []string{"finance", "admin"}, []string{"tax return", "pension statement", "budget sheet", "insurance renewal", "savings goal"}, true},
	{"reading", []string{"reading", "learning"}, []string{"novel", "history book", "essay collection", "book club pick", "audiobook"}, true},
	{"music", []string{"music", "learning"}, []string{"piano scales", "guitar chords", "practice log", "concert tickets", "playlist"}, true},
	{"car", []string{"car", "admin"}, []string{"winter tyres", "service appointment", "parking permit", "brake pads", "road trip route"}, true},
}

var places = []string{
	"the corner cafe", "the office kitchen", "the park", "the library", "the Thai place", "the climbing gym",
	"the riverside path", "the coworking space", "the bakery", "the train", "home", "the pub",
}

var (
	metrics  = []string{"p95 latency", "error rate", "memory use", "build time", "queue depth", "cache hit rate", "cold start", "CPU load"}
	units    = []string{"ms", "%", " MB", "s", " jobs", "%", " ms", "%"}
	verbs    = []string{"move", "split", "rewrite", "freeze", "drop", "batch", "cache", "shard", "inline", "retire"}
	preps    = []string{"into", "behind", "out of", "ahead of", "next to", "under"}
	targets  = []string{"a worker queue", "the edge proxy", "a feature flag", "the monolith", "its own service", "the nightly job", "a read replica", "the admin tool"}
	reasons  = []string{"the on-call load is too high", "nobody owns it today", "it blocks the next release", "the numbers from last week say so", "it halves the bill", "customers keep tripping over it", "it is the simplest thing that works", "the vendor contract ends soon", "the tests get much faster", "the team agreed in the retro"}
	comments = []string{"looks solid", "needs another pass", "too many open questions", "mostly agree", "the rollout plan is thin", "good idea, wrong quarter", "should be split in two", "nice write-up"}
	moods    = []string{"Tired but productive.", "Slow start, good afternoon.", "Too many meetings.", "Focused morning.", "Scattered day.", "Felt good about the progress.", "Headache after lunch.", "Quiet day."}
	weather  = []string{"rain all day", "bright and cold", "humid", "windy", "first snow", "warm evening", "fog in the morning", "thunderstorm at night"}
	cmds     = []string{"git rebase -i origin/main", "kubectl rollout status deploy/api", "make test", "go test ./... -run TestLogin", "psql -c 'select count(*) from orders'", "docker compose up -d", "terraform plan -out plan.tfplan", "curl -s localhost:8080/healthz", "npm run build", "ssh bastion uptime"}
)
