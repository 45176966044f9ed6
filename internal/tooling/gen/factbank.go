package gen

import "github.com/daybook/daybook/dayfiles"

// A factTemplate plants facts: text and question are filled from one row,
// "{0}" being row[0] and so on. Column key holds the fact's rare words: they
// appear in the text and in the question and nowhere else in the corpus.
type factTemplate struct {
	kind dayfiles.Kind
	tag  string
	text string
	q    string
	key  int
	rows [][]string
}

// factBank holds 120 facts, enough for ten a year over twelve years.
var factBank = []factTemplate{
	{dayfiles.KindDecision, "auth", "Decided to move {0} to the {1} because {2}.", "what did we decide about {0}?", 0, [][]string{
		{"token refresh", "gateway", "mobile clients kept racing on expiry"},
		{"invoice numbering", "ledger service", "the accountants need gapless sequences"},
		{"thumbnail resizing", "CDN workers", "origin CPU spiked every Monday"},
		{"webhook signing", "outbox relay", "partners rejected unsigned retries"},
		{"geocoding lookups", "importer sidecar", "the per-call quota ran out by noon"},
	}},
	{dayfiles.KindFact, "admin", "The wifi password at the {0} is {1}.", "how do I get on the wifi at the {0}?", 0, [][]string{
		{"Lisbon office", "heliotrope-42"},
		{"Harrogate cottage", "sheepdip-88"},
		{"Utrecht coworking loft", "velocipede-7"},
		{"Zermatt chalet", "edelweiss-1291"},
		{"Tbilisi guesthouse", "khachapuri-5"},
	}},
	{dayfiles.KindFact, "family", "{0}'s birthday is on {1}; {2}.", "when is {0}'s birthday?", 0, [][]string{
		{"Aunt Philippa", "14 August", "she collects enamel brooches"},
		{"Cousin Bartholomew", "2 February", "he wants a fountain pen"},
		{"Godmother Ottilie", "29 November", "she loves damson jam"},
		{"Uncle Leopold", "7 May", "he supports Grimsby Town"},
		{"Niece Clementine", "19 October", "she is into origami cranes"},
	}},
	{dayfiles.KindEvent, "home", "Dropped the {0} at {1} for repair; ticket {2}.", "where did I take the {0} to get fixed?", 0, [][]string{
		{"espresso machine", "Gallo Repairs on Mill Street", "R-5531"},
		{"record player", "Hi-Fi Doctor in Kentish Town", "HF-208"},
		{"sewing machine", "Stitchworks on Quay Road", "SW-77"},
		{"road bike", "Velo Atelier by the canal", "VA-1192"},
		{"drone", "SkyFix in the retail park", "SF-3309"},
	}},
	{dayfiles.KindDecision, "design", "Chose {0} over {1} for {2} because {3}.", "which option did we pick for {2}, and why?", 2, [][]string{
		{"Argon2id", "bcrypt", "password hashing", "it resists cracking on graphics cards"},
		{"NATS", "Kafka", "the telemetry bus", "we do not need a month of retention"},
		{"SQLite", "DynamoDB", "the edge config store", "it ships inside the binary"},
		{"Typst", "LaTeX", "the invoice templates", "the compile takes milliseconds"},
		{"Caddy", "nginx", "the marketing site proxy", "automatic certificates save a chore"},
	}},
	{dayfiles.KindFact, "bug", "Root cause of the {0} bug: {1}.", "what was behind the {0} problem?", 0, [][]string{
		{"duplicate receipts", "a retry loop in the SMTP client that ignored 250 replies"},
		{"midnight logout", "the session TTL was computed in UTC while cookies used local time"},
		{"missing avatars", "a bucket policy that expired after the key rotation"},
		{"phantom carts", "a race between the merge job and the cart sweeper"},
		{"frozen exports", "an unbounded zip stream that filled the tmpfs"},
	}},
	{dayfiles.KindEvent, "travel", "Booked {0} for the {1} trip, confirmation {2}.", "where am I staying on the {1} trip?", 1, [][]string{
		{"the Hotel Albatros", "Trieste", "TRQ-88213"},
		{"a cabin at Lake Bohinj", "Slovenia", "BHJ-4410"},
		{"the Pension Edelweiss", "Salzburg", "SZG-2094"},
		{"a riad near the Bab Doukkala gate", "Marrakesh", "RAK-7781"},
		{"the Seaview B&B", "Isle of Skye", "SKY-5521"},
	}},
	{dayfiles.KindFact, "home", "Lent my {0} to {1}; {2}.", "who borrowed my {0}?", 0, [][]string{
		{"circular saw", "Benedikt next door", "he'll bring it back after the deck is done"},
		{"tandem kayak", "Rosalind from the choir", "she wants it until the end of August"},
		{"projector", "Ignatius", "he needs it for the quiz night"},
		{"camping stove", "Philomena", "back after her Dartmoor hike"},
		{"telescope", "Cornelius", "he wants to see the Perseids"},
	}},
	{dayfiles.KindFact, "infra", "The {0} box lives in rack {1}, slot {2}, in the {3} datacenter.", "where is the {0} server physically?", 0, [][]string{
		{"license server", "C14", "7", "Frankfurt"},
		{"build farm master", "B02", "22", "Dublin"},
		{"HSM appliance", "A09", "3", "Ashburn"},
		{"legacy FTP", "D11", "40", "Amsterdam"},
		{"mail relay", "E05", "12", "Stockholm"},
	}},
	{dayfiles.KindFact, "cooking", "Recipe tweak: the {0} needs {1} of {2}.", "how much {2} goes in the {0}?", 0, [][]string{
		{"lemon drizzle cake", "80 g", "caster sugar"},
		{"shakshuka", "two teaspoons", "smoked paprika"},
		{"focaccia", "a tablespoon", "flaky salt"},
		{"dal makhani", "half a cup", "double cream"},
		{"banana bread", "three", "overripe bananas"},
	}},
	{dayfiles.KindFact, "security", "The {0} API key rotates every {1} days; {2} owns it.", "who is responsible for the {0} key, and how often does it change?", 0, [][]string{
		{"Twilio", "90", "Ezekiel"},
		{"Mapbox", "30", "Gwendolyn"},
		{"SendGrid", "60", "Lysander"},
		{"Algolia", "45", "Marisol"},
		{"PagerDuty", "120", "Thaddeus"},
	}},
	{dayfiles.KindDecision, "people", "Agreed with {0} that {1} from next quarter.", "what did {0} and I agree on?", 0, [][]string{
		{"Evangeline", "the design review moves to Thursdays"},
		{"Barnaby", "support escalations go through a single Slack channel"},
		{"Octavia", "we stop shipping on Fridays"},
		{"Leopoldine", "the roadmap is reviewed every six weeks"},
		{"Crispin", "interns get a named buddy for their first month"},
	}},
	{dayfiles.KindEvent, "family", "Vet visit for {0} the {1}: needs {2}.", "what did the vet say about {0}?", 0, [][]string{
		{"Biscuit", "beagle", "a low-fat diet and a recheck in six weeks"},
		{"Pumpernickel", "rabbit", "his teeth filed every three months"},
		{"Marzipan", "cat", "a thyroid test in spring"},
		{"Toffee", "spaniel", "ear drops twice a day for ten days"},
		{"Gherkin", "tortoise", "a warmer lamp in the vivarium"},
	}},
	{dayfiles.KindFact, "home", "The {0} are in {1}.", "where did I put the {0}?", 0, [][]string{
		{"spare house keys", "the blue tin behind the flour jar"},
		{"passport photos", "the green folder in the hallway cabinet"},
		{"warranty cards", "the shoebox under the stairs"},
		{"Christmas lights", "the loft, left of the water tank"},
		{"tent pegs", "the garage drawer marked odds"},
	}},
	{dayfiles.KindEvent, "finance", "Signed the lease for {0} with {1}; rent is {2} a month.", "how much is the rent on {0}?", 0, [][]string{
		{"the allotment plot 17B", "the parish council", "£12"},
		{"the storage unit in Thornbury", "SafeStore", "£64"},
		{"the studio on Wharf Lane", "Mrs Abernethy", "£850"},
		{"the parking bay at Cedar Court", "the residents' association", "£40"},
		{"the rehearsal room", "the Ropewalk arts centre", "£120"},
	}},
	{dayfiles.KindDecision, "infra", "Decided to retire the {0} by {1} because {2}.", "when is the {0} going away, and why?", 0, [][]string{
		{"Jenkins controller", "the end of Q3", "GitHub Actions covers every job now"},
		{"Memcached tier", "the spring freeze", "Redis already holds the same keys"},
		{"cron box", "June", "every job moved to the scheduler"},
		{"Elasticsearch 6 cluster", "the migration weekend", "the new cluster has been shadowing for a month"},
		{"VPN concentrator", "year end", "zero-trust access is rolled out"},
	}},
	{dayfiles.KindFact, "finance", "Our {0} quota with {1} is {2}.", "how big is our {0} allowance?", 0, [][]string{
		{"SMS", "Vonage", "50,000 messages a month"},
		{"GPU", "Lambda Labs", "eight A100s"},
		{"object storage", "Wasabi", "40 TB"},
		{"translation", "DeepL", "two million characters"},
		{"transcription", "Deepgram", "500 hours a month"},
	}},
	{dayfiles.KindEvent, "meeting", "Met {0} from {1} about {2}.", "when did I talk to {1} about {2}?", 1, [][]string{
		{"Ingrid", "Nordlys Capital", "the seed round"},
		{"Rupert", "the Fenwick Trust", "the community grant"},
		{"Solveig", "Arctura Labs", "a joint pilot"},
		{"Percival", "Halberd Insurance", "the cyber policy"},
		{"Imogen", "Quillon Press", "the book contract"},
	}},
	{dayfiles.KindFact, "health", "Locker {0} at the {1} has combination {2}.", "what's the code for my locker at the {1}?", 1, [][]string{
		{"112", "leisure centre", "4-1-9-7"},
		{"38", "Brunswick pool", "2-8-8-0"},
		{"7", "bouldering wall", "6-3-1-5"},
		{"204", "Pinewood tennis club", "9-0-4-2"},
		{"51", "rowing club", "3-3-7-1"},
	}},
	{dayfiles.KindDecision, "finance", "Decided to switch {0} from {1} to {2} because {3}.", "why did I change the provider for {0}?", 0, [][]string{
		{"the electricity", "Bulb", "Octopus", "the tracker tariff is cheaper overnight"},
		{"home broadband", "Virgin", "a fibre co-op", "the upload speed was stuck at 20"},
		{"the mobile plan", "EE", "Smarty", "we barely use 5 GB"},
		{"car insurance", "Aviva", "Admiral", "the multi-car discount"},
		{"the bank account", "Barclays", "Monzo", "the old branch closed"},
	}},
	{dayfiles.KindFact, "admin", "Serial number of the {0} is {1}.", "what is the serial of the {0}?", 0, [][]string{
		{"dishwasher", "DW7X-220-8841"},
		{"boiler", "WB-ECO-55190"},
		{"work laptop", "C02ZK1QJMD6R"},
		{"e-bike battery", "EB-36V-77102"},
		{"noise-cancelling headphones", "NCH700-3318"},
	}},
	{dayfiles.KindEvent, "music", "Saw {0} at {1} with {2}.", "when did I see {0}, and who came along?", 0, [][]string{
		{"Khruangbin", "the Roundhouse", "Leocadia"},
		{"Nils Frahm", "the Barbican", "Rafferty"},
		{"Snarky Puppy", "the Albert Hall", "Esmeralda"},
		{"Big Thief", "the Brixton Academy", "Horatio"},
		{"Hania Rani", "the Union Chapel", "Wilhelmina"},
	}},
	{dayfiles.KindDecision, "release", "Decided the {0} release goes out behind the {1} flag until {2}.", "which flag guards the {0} launch?", 0, [][]string{
		{"dark mode", "night-owl", "support is trained"},
		{"bulk edit", "mass-change", "the undo log lands"},
		{"CSV import", "csv-ingest", "the validator handles BOMs"},
		{"team billing", "seat-pricing", "finance signs off"},
		{"calendar sync", "cal-bridge", "the Google quota is raised"},
	}},
	{dayfiles.KindFact, "finance", "Bought the {0} from {1} for {2}; receipt in the {3} folder.", "how much did the {0} cost?", 0, [][]string{
		{"standing desk", "Fully", "£489", "furniture"},
		{"Dyson fan", "John Lewis", "£329", "appliances"},
		{"cargo bike", "Urban Arrow", "£4,200", "bikes"},
		{"rowing machine", "Concept2", "£950", "fitness"},
		{"oak bookshelf", "a Hay-on-Wye workshop", "£610", "furniture"},
	}},
}
