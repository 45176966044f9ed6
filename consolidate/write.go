package consolidate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// consolidate writes p's summary when its input digest differs from the one
// it was written from (or Force), unless a person edited the file: then it
// is kept, and the reason logged with its name. build makes the summary
// with its facts and the Summarizer's input.
func (r *run) consolidate(ctx context.Context, p Period, digest string, build func() (*Summary, Input, error)) error {
	id, rel, path := p.ID(), p.Rel(), p.Path(r.c.Root)
	rec := r.st.Summaries[id]
	fi, statErr := os.Stat(path)
	if statErr == nil {
		ours, hash, fmDigest := r.inspect(p, rec, fi)
		switch {
		case !ours && !r.opts.Force:
			if !r.dry {
				r.log.Warn("keeping a summary edited by hand; run with --force to rewrite it", "path", rel)
				r.st.Summaries[id] = &sumRecord{Digest: digest, Hash: hash, Size: fi.Size(), MTime: fi.ModTime().UnixNano(), Kept: true}
				r.changed = true
			}
			r.stats.Kept = append(r.stats.Kept, rel)
			return nil
		case ours && fmDigest == digest && digest != "" && !r.opts.Force && !r.opts.Upgrade:
			if rec == nil || !rec.matches(fi) || rec.Hash != hash || rec.Digest != digest || rec.Kept {
				r.st.Summaries[id] = &sumRecord{Digest: digest, Hash: hash, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
				r.changed = true
			}
			r.stats.Unchanged++
			return nil
		}
	} else if !errors.Is(statErr, os.ErrNotExist) {
		return fmt.Errorf("checking %s: %w", rel, statErr)
	}
	if r.dry {
		r.stale = append(r.stale, p)
		r.written[id] = true
		return nil
	}
	s, in, err := build()
	if errors.Is(err, errNoInput) {
		return r.retire(ctx, p)
	}
	if err != nil {
		return err
	}
	prose, err := r.c.Summarizer.Summarize(ctx, in)
	if err != nil {
		return fmt.Errorf("summarizing %s %s with %s: %w", p.Level, p, r.c.Summarizer.Name(), err)
	}
	s.Path, s.Rel, s.Title, s.Prose, s.Digest = path, rel, p.Title(), prose, digest
	s.Summarizer = r.c.Summarizer.Name()
	s.WrittenAt = r.c.now().In(r.c.loc()).Truncate(time.Second)
	data, err := render(s)
	if err != nil {
		return err
	}
	// Ctx is checked once more before the rename: a cancelled run leaves
	// the old file, never a part of a new one.
	if err := ctx.Err(); err != nil {
		return err
	}
	// The summarizer may have taken minutes (a model): a person who saved
	// the file meanwhile keeps their version.
	if !r.opts.Force && changedSince(path, fi, statErr) {
		r.log.Warn("keeping a summary edited by hand while it was being rewritten; run with --force to rewrite it", "path", rel)
		r.stats.Kept = append(r.stats.Kept, rel)
		return nil
	}
	nfi, err := writeFile(path, data)
	if err != nil {
		return err
	}
	r.st.Summaries[id] = &sumRecord{Digest: digest, Hash: hashBytes(data), Size: nfi.Size(), MTime: nfi.ModTime().UnixNano()}
	r.hashes[id] = hashBytes(data)
	r.written[id] = true
	r.changed = true
	switch p.Level {
	case date.LevelDay:
		r.stats.Days++
	case date.LevelMonth:
		r.stats.Months++
	default:
		r.stats.Years++
	}
	r.log.Debug("wrote summary", "path", rel)
	if r.c.OnWrite != nil {
		r.c.OnWrite(ctx, s)
	}
	return nil
}

// changedSince reports whether the file at path is not what an earlier
// os.Stat saw (before, or beforeErr when it was missing): created, removed,
// or of another size or modification time.
func changedSince(path string, before os.FileInfo, beforeErr error) bool {
	now, err := os.Stat(path)
	switch {
	case beforeErr != nil:
		return err == nil
	case err != nil:
		return true
	default:
		return now.Size() != before.Size() || !now.ModTime().Equal(before.ModTime())
	}
}

// inspect tells whether the summary file at p is as daybook wrote it, and
// returns its hash and the digest it was written from. When the file's size
// and time are those recorded it is taken as recorded; otherwise it is read:
// it is daybook's if its hash is the one recorded, or, with no record (a
// lost state file), if its body matches the content hash in its front matter.
func (r *run) inspect(p Period, rec *sumRecord, fi os.FileInfo) (ours bool, hash, digest string) {
	if rec.matches(fi) {
		return !rec.Kept, rec.Hash, rec.Digest
	}
	data, err := os.ReadFile(p.Path(r.c.Root))
	if err != nil {
		return false, "", ""
	}
	hash = hashBytes(data)
	r.hashes[p.ID()] = hash
	if rec != nil && hash == rec.Hash {
		return !rec.Kept, hash, rec.Digest
	}
	s, err := parseSummary(p.Rel(), data)
	if err != nil || s.Period != p || s.Edited() {
		return false, hash, ""
	}
	return true, hash, s.Digest
}

// retire removes p's summary when its inputs are gone, unless a person
// edited it: then it stays, and a log line says so.
func (r *run) retire(ctx context.Context, p Period) error {
	id, rel, path := p.ID(), p.Rel(), p.Path(r.c.Root)
	fi, err := os.Stat(path)
	if err != nil {
		if r.st.Summaries[id] != nil && !r.dry {
			delete(r.st.Summaries, id)
			r.changed = true
		}
		return nil
	}
	ours, _, _ := r.inspect(p, r.st.Summaries[id], fi)
	if r.dry {
		return nil
	}
	delete(r.st.Summaries, id)
	r.changed = true
	if !ours {
		r.log.Warn("keeping a summary edited by hand although its entries are gone", "path", rel)
		r.stats.Kept = append(r.stats.Kept, rel)
		return nil
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("removing %s: %w", rel, err)
	}
	r.log.Info("removed summary: its entries are gone", "path", rel)
	r.stats.Removed = append(r.stats.Removed, rel)
	if r.c.OnRemove != nil {
		r.c.OnRemove(ctx, p)
	}
	return nil
}
