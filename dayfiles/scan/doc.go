// Package scan lists the day files of a data dir (days/YYYY/MM/DD.md) and
// scans them for a pattern, as find does: the part of package dayfiles
// that needs no markdown parser or file watcher. It imports only the
// standard library, golang.org/x/sys/unix and dayfiles/date, so that the
// front (cmd/daybook) runs find on the files without linking the rest;
// dayfiles names everything here too.
package scan
