package app

// SetIndexProgress makes a full build of the index (a first build, an
// earlier format's rebuild) report its progress to fn: done of total files
// (index.Options.Progress). The CLI shows it on a terminal while it builds
// an index for the first time, which takes seconds on a few years of day
// files; the daemon draws it too. fn is called from the build's goroutine;
// nil turns the reports off. Set it before the index is first opened.
func (a *App) SetIndexProgress(fn func(done, total int)) {
	a.idx.mu.Lock()
	defer a.idx.mu.Unlock()
	a.idx.progress = fn
}
