// Package merge keeps a person's edits of day files and daybook's appends
// apart. It remembers on disk, per day file, what daybook last knew of it
// (the hash of its content, and the entries daybook appended lately, with
// their ids and lines): the base of a three-way merge. When the file
// changes without daybook (an editor's save, a sync tool's copy), entries
// daybook appended after the version the writer started from, and missing
// now, were dropped by a stale copy and are appended again, once; entries
// the writer had and removed or changed are the writer's edits and stay as
// they are. It also merges sync tools' conflict copies into their days and
// three-way merges day files for git (the merge driver).
package merge
