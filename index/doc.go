// Package index keeps daybook's derived search index: a bleve full-text index
// of summaries and entries plus a small pure-Go vector store beside it. It is
// disposable: everything in it can be rebuilt from the markdown.
package index
