package recall

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook/dayfiles/date"
)

// ParseTemporal finds the first date phrase in query ("yesterday", "last
// March", "in June 2025", "3 weeks ago", "since May", "before 2024", ...) and
// returns the days it means, relative to now in loc, and the query without the
// phrase. ok is false, and rest is query unchanged, when query holds no date
// phrase. See docs/recall.md, "Temporal phrases", for the phrases and what
// each one means.
//
// A bare month name or a bare number counts only when its neighbours make it
// a date: "march forward", "may I" and "2024 tokens" are left alone, while
// "in March", "March 2024" and "in 2024" are dates.
func ParseTemporal(query string, now time.Time, loc *time.Location) (r date.Range, rest string, ok bool) {
	if loc == nil {
		loc = now.Location()
	}
	if !mayHoldDate(query) {
		return date.Range{}, query, false
	}
	toks := tokenize(query)
	p := phraseParser{toks: toks, today: date.Of(now.In(loc))}
	for i := range toks {
		if r, n, ok := p.at(i); ok {
			return r, cut(query, toks[i].start, toks[i+n-1].end), true
		}
	}
	return date.Range{}, query, false
}

// mayHoldDate is the cheap pre-check: a query without a digit and without a
// word that starts a date phrase cannot hold one.
func mayHoldDate(q string) bool {
	for i := 0; i < len(q); i++ {
		if c := q[i]; c >= '0' && c <= '9' {
			return true
		}
	}
	lq := strings.ToLower(q)
	for _, w := range triggerWords {
		if strings.Contains(lq, w) {
			return true
		}
	}
	return false
}

// triggerWords are substrings that every phrase without digits contains.
var triggerWords = []string{"today", "yesterday", "ago", "last", "this", "past", "previous",
	"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
	"day", "week", "month", "year"}

type token struct {
	s          string // lower-cased
	start, end int    // byte offsets in the query
}

// tokenize splits q into words of letters, digits and inner '-', lower-cased.
func tokenize(q string) []token {
	var toks []token
	start := -1
	for i := 0; i <= len(q); {
		r, size := rune(0), 1
		if i < len(q) {
			r, size = utf8.DecodeRuneInString(q[i:])
		}
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || (r == '-' && start >= 0 && i+1 < len(q) && isAlnumByte(q[i+1])) ||
			// "21.01.2024", "2024/01/21": one word.
			((r == '.' || r == '/') && start >= 0 && isDigitByte(q[i-1]) && i+1 < len(q) && isDigitByte(q[i+1]))
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			toks = append(toks, token{s: strings.ToLower(q[start:i]), start: start, end: i})
			start = -1
		}
		i += size
	}
	return toks
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func isAlnumByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// cut removes q[start:end] and tidies the spaces left behind.
func cut(q string, start, end int) string {
	s := strings.Join(strings.Fields(q[:start]+" "+q[end:]), " ")
	for _, p := range []string{" ?", " !", " .", " ,"} {
		s = strings.ReplaceAll(s, p, p[1:])
	}
	return strings.TrimLeft(s, ",;: ")
}

type phraseParser struct {
	toks  []token
	today date.Date
}

func (p *phraseParser) word(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].s
}

// at tries to read a phrase starting at token i; n is how many tokens it took.
func (p *phraseParser) at(i int) (r date.Range, n int, ok bool) {
	switch w := p.word(i); w {
	case "in", "during", "on", "from", "throughout":
		if r, n, ok := p.expr(i+1, true); ok {
			return r, n + 1, true
		}
		return r, 0, false
	case "since", "after":
		r, n, ok := p.expr(i+1, true)
		if !ok {
			return r, 0, false
		}
		from := r.From
		if w == "after" {
			from = r.To.AddDays(1)
		}
		if from.After(p.today) {
			return r, 0, false
		}
		return date.Range{From: from, To: p.today}, n + 1, true
	case "before", "until", "till":
		r, n, ok := p.expr(i+1, true)
		if !ok {
			return r, 0, false
		}
		if w == "before" {
			return date.Range{To: r.From.AddDays(-1)}, n + 1, true
		}
		return date.Range{To: r.To}, n + 1, true
	}
	return p.expr(i, false)
}

// expr reads a date expression at token i. prefixed says that a preposition
// ("in", "since", ...) comes before it, which lets a bare month name or year
// count as a date.
func (p *phraseParser) expr(i int, prefixed bool) (r date.Range, n int, ok bool) {
	w := p.word(i)
	today := p.today
	switch w {
	case "":
		return r, 0, false
	case "today":
		return day(today), 1, true
	case "yesterday":
		return day(today.AddDays(-1)), 1, true
	case "last", "past", "previous", "this":
		return p.relative(i)
	}
	if d, ok := parseISODay(w); ok {
		return day(d), 1, true
	}
	if d, ok := parseNumericDay(w); ok {
		return day(d), 1, true
	}
	if m, err := date.ParseMonth(w); err == nil && len(w) == 7 {
		return m.Range(), 1, true
	}
	if m, ok := monthNames[w]; ok {
		return p.monthPhrase(i, m, prefixed)
	}
	if y, ok := year(w); ok {
		if prefixed || p.endsPhrase(i+1) {
			return date.YearRange(y), 1, true
		}
		// "7 March 2024": a day number before a month name.
	}
	if d, ok := dayNumber(w); ok {
		if m, ok := monthNames[p.word(i+1)]; ok {
			return p.dayOfMonth(i+2, m, d, 2)
		}
	}
	if wd, ok := weekdays[w]; ok && prefixed {
		back := (int(today.Weekday()) - int(wd) + 7) % 7
		return day(today.AddDays(-back)), 1, true
	}
	if k, ok := count(w); ok && p.word(i+2) == "ago" {
		switch unit(p.word(i + 1)) {
		case "day":
			return day(today.AddDays(-k)), 3, true
		case "week":
			return week(today.AddDays(-7 * k)), 3, true
		case "month":
			return today.MonthOf().Add(-k).Range(), 3, true
		case "year":
			return date.YearRange(today.Year - k), 3, true
		}
	}
	return r, 0, false
}

// relative reads "last week", "this month", "last March", "past 3 days", ...
func (p *phraseParser) relative(i int) (r date.Range, n int, ok bool) {
	today := p.today
	this := p.word(i) == "this"
	next := p.word(i + 1)
	switch unit(next) {
	case "day":
		if next == "day" && !this {
			return day(today.AddDays(-1)), 2, true
		}
	case "week":
		if this {
			return week(today), 2, true
		}
		return week(today.AddDays(-7)), 2, true
	case "month":
		if this {
			return today.MonthOf().Range(), 2, true
		}
		return today.MonthOf().Add(-1).Range(), 2, true
	case "year":
		if this {
			return date.YearRange(today.Year), 2, true
		}
		return date.YearRange(today.Year - 1), 2, true
	}
	if next == "weekend" {
		// The Saturday and Sunday of this week, or of the week before.
		sat := week(today).From.AddDays(5)
		if !this {
			sat = sat.AddDays(-7)
		}
		return date.Range{From: sat, To: sat.AddDays(1)}, 2, true
	}
	if m, ok := monthNames[next]; ok {
		y := today.Year
		if this {
			return date.Month{Year: y, Month: m}.Range(), 2, true
		}
		if m >= today.Month {
			y--
		}
		return date.Month{Year: y, Month: m}.Range(), 2, true
	}
	if wd, ok := weekdays[next]; ok {
		back := (int(today.Weekday()) - int(wd) + 7) % 7
		if back == 0 && !this {
			back = 7
		}
		return day(today.AddDays(-back)), 2, true
	}
	if this {
		return r, 0, false
	}
	// "past 3 days", "last two weeks": that many units up to today.
	if k, ok := count(next); ok && k > 0 {
		switch unit(p.word(i + 2)) {
		case "day":
			return date.Range{From: today.AddDays(1 - k), To: today}, 3, true
		case "week":
			return date.Range{From: today.AddDays(1 - 7*k), To: today}, 3, true
		case "month":
			return date.Range{From: today.AddMonths(-k).AddDays(1), To: today}, 3, true
		case "year":
			return date.Range{From: today.AddYears(-k).AddDays(1), To: today}, 3, true
		}
	}
	return r, 0, false
}

// monthPhrase reads "March 2024", "March 7", "March 7th, 2024", or with a
// preposition before it a bare "March" (the most recent March up to now).
func (p *phraseParser) monthPhrase(i int, m time.Month, prefixed bool) (r date.Range, n int, ok bool) {
	if y, ok := year(p.word(i + 1)); ok {
		return date.Month{Year: y, Month: m}.Range(), 2, true
	}
	if d, ok := dayNumber(p.word(i + 1)); ok {
		return p.dayOfMonth(i+2, m, d, 2)
	}
	if !prefixed {
		return r, 0, false
	}
	y := p.today.Year
	if m > p.today.Month {
		y--
	}
	return date.Month{Year: y, Month: m}.Range(), 1, true
}

// dayOfMonth finishes "March 7 [2024]" or "7 March [2024]": i is the token
// after both, n how many tokens were read so far.
func (p *phraseParser) dayOfMonth(i int, m time.Month, d, n int) (r date.Range, _ int, ok bool) {
	if y, ok := year(p.word(i)); ok {
		dd, err := date.Parse(date.Date{Year: y, Month: m, Day: d}.String())
		if err != nil {
			return r, 0, false
		}
		return day(dd), n + 1, true
	}
	// No year: the most recent such day up to today.
	for y := p.today.Year; y >= p.today.Year-4; y-- {
		dd, err := date.Parse(date.Date{Year: y, Month: m, Day: d}.String())
		if err == nil && !dd.After(p.today) {
			return day(dd), n, true
		}
	}
	return r, 0, false
}

// endsPhrase reports whether token i is past the end of the query or a word
// that cannot continue a number as a noun phrase ("2024 tokens" is not a date).
func (p *phraseParser) endsPhrase(i int) bool {
	w := p.word(i)
	return w == "" || yearFollowers[w]
}

var yearFollowers = map[string]bool{
	"and": true, "or": true, "with": true, "about": true, "for": true, "when": true, "where": true,
	"who": true, "what": true, "did": true, "was": true, "were": true, "i": true, "we": true, "at": true,
}

func day(d date.Date) date.Range { return date.Range{From: d, To: d} }

// week returns the Monday–Sunday week that holds d.
func week(d date.Date) date.Range {
	mon := d.AddDays(-((int(d.Weekday()) + 6) % 7))
	return date.Range{From: mon, To: mon.AddDays(6)}
}

func parseISODay(w string) (date.Date, bool) {
	if len(w) != 10 || w[4] != '-' || w[7] != '-' {
		return date.Date{}, false
	}
	d, err := date.Parse(w)
	return d, err == nil
}

// parseNumericDay reads a date written in digits with dots or slashes, with
// a four-digit year: "21.01.2024" and "1.2.2024" are day first (the order of
// every language that writes dates with dots), "2024.01.21" and
// "2024/01/21" year first. "01/02/2024" is 1 February in Europe and 2 January
// in the United States: it counts only when one of the two numbers is over
// 12 ("21/01/2024", "01/21/2024"); otherwise it is no date.
func parseNumericDay(w string) (date.Date, bool) {
	sep := "."
	if strings.Contains(w, "/") {
		sep = "/"
	}
	parts := strings.Split(w, sep)
	if len(parts) != 3 {
		return date.Date{}, false
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || len(p) > 4 || len(p) > 2 && i == 1 {
			return date.Date{}, false
		}
		n[i] = v
	}
	var y, m, d int
	switch short := len(parts[0]) <= 2; {
	case len(parts[0]) == 4 && len(parts[2]) <= 2:
		y, m, d = n[0], n[1], n[2]
	case !short || len(parts[2]) != 4:
		return date.Date{}, false
	case sep == "." || n[0] > 12 && n[1] <= 12:
		y, m, d = n[2], n[1], n[0]
	case n[1] > 12 && n[0] <= 12:
		y, m, d = n[2], n[0], n[1]
	default:
		return date.Date{}, false
	}
	day := date.Date{Year: y, Month: time.Month(m), Day: d}
	// A day that time.Date moves is none: 31.02.2024, 21.13.2024, 0.1.2024.
	return day, y >= 1900 && y <= 2199 && date.Of(day.In(time.UTC)) == day
}

// year accepts four digits from 1900 to 2199.
func year(w string) (int, bool) {
	if len(w) != 4 {
		return 0, false
	}
	y, err := strconv.Atoi(w)
	return y, err == nil && y >= 1900 && y <= 2199
}

// dayNumber accepts 1 to 31, with an optional st, nd, rd or th.
func dayNumber(w string) (int, bool) {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		w = strings.TrimSuffix(w, suf)
	}
	if len(w) == 0 || len(w) > 2 {
		return 0, false
	}
	d, err := strconv.Atoi(w)
	return d, err == nil && d >= 1 && d <= 31
}

// count reads a small count: digits, "a", "an", or one to twelve in words.
func count(w string) (int, bool) {
	if k, ok := numberWords[w]; ok {
		return k, true
	}
	if len(w) > 4 {
		return 0, false
	}
	k, err := strconv.Atoi(w)
	return k, err == nil && k >= 0
}

// unit returns day, week, month or year for a word naming one of them.
func unit(w string) string {
	switch w {
	case "day", "days":
		return "day"
	case "week", "weeks":
		return "week"
	case "month", "months":
		return "month"
	case "year", "years":
		return "year"
	}
	return ""
}

var numberWords = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}

var monthNames = map[string]time.Month{
	"january": time.January, "jan": time.January, "february": time.February, "feb": time.February,
	"march": time.March, "mar": time.March, "april": time.April, "apr": time.April, "may": time.May,
	"june": time.June, "jun": time.June, "july": time.July, "jul": time.July,
	"august": time.August, "aug": time.August, "september": time.September, "sep": time.September,
	"sept": time.September, "october": time.October, "oct": time.October,
	"november": time.November, "nov": time.November, "december": time.December, "dec": time.December,
}

var weekdays = map[string]time.Weekday{
	"monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday, "sunday": time.Sunday,
}
