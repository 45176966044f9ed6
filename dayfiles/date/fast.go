package date

import (
	"fmt"
	"time"
)

// The index and the drill format and parse dates and months by the
// thousand per recall (ids, periods, filters): these do it without fmt or
// time.Parse, and agree with them on every input (TestFastFormats).

// appendDigits appends n (0 <= n < 10^width) as width digits.
func appendDigits(b []byte, n, width int) []byte {
	var d [4]byte
	for i := width - 1; i >= 0; i-- {
		d[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, d[:width]...)
}

func formatDate(y int, m time.Month, d int) string {
	if y < 0 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 99 {
		return fmt.Sprintf("%04d-%02d-%02d", y, int(m), d)
	}
	b := make([]byte, 0, 10)
	b = appendDigits(b, y, 4)
	b = append(b, '-')
	b = appendDigits(b, int(m), 2)
	b = append(b, '-')
	b = appendDigits(b, d, 2)
	return string(b)
}

func formatMonth(y int, m time.Month) string {
	if y < 0 || y > 9999 || m < 1 || m > 12 {
		return fmt.Sprintf("%04d-%02d", y, int(m))
	}
	b := make([]byte, 0, 7)
	b = appendDigits(b, y, 4)
	b = append(b, '-')
	b = appendDigits(b, int(m), 2)
	return string(b)
}

// digits returns the number s[i:j] spells, false when it is not all digits.
func digits(s string, i, j int) (int, bool) {
	n := 0
	for ; i < j; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseDate parses exactly YYYY-MM-DD with a day that exists; ok is false
// for anything else.
func parseDate(s string) (Date, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return Date{}, false
	}
	y, ok1 := digits(s, 0, 4)
	m, ok2 := digits(s, 5, 7)
	d, ok3 := digits(s, 8, 10)
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > daysIn(y, time.Month(m)) {
		return Date{}, false
	}
	return Date{y, time.Month(m), d}, true
}

// parseMonth parses exactly YYYY-MM.
func parseMonth(s string) (Month, bool) {
	if len(s) != 7 || s[4] != '-' {
		return Month{}, false
	}
	y, ok1 := digits(s, 0, 4)
	m, ok2 := digits(s, 5, 7)
	if !ok1 || !ok2 || m < 1 || m > 12 {
		return Month{}, false
	}
	return Month{y, time.Month(m)}, true
}

// daysIn returns the number of days of month m of year y.
func daysIn(y int, m time.Month) int {
	switch m {
	case time.February:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}
