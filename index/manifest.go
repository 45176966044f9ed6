package index

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"

	"github.com/blevesearch/bleve/v2"
)

// The manifest (source path → stamp) is kept in bleve under two internal
// keys, written in the same batch as the documents they describe:
//
//   - manifestKey: the full manifest, a JSON object of every source. It is
//     written rarely: at the end of a bulk build, and when the delta has
//     grown past deltaMax paths.
//   - deltaKey: the paths changed since the full one was written (stamp ""
//     for a source removed), with the fingerprint of the full manifest it
//     applies over (base). Every other batch writes it, so that one chat
//     turn costs a few hundred bytes of JSON, not the whole manifest
//     (736 KB on a 5-year corpus).
//
// The manifest read back is the full one with the delta over it. The delta
// of a batch is written with the batch's documents, so the manifest stored
// never says a source is at a stamp whose documents are not written.
//
// An index written by an earlier daybook has no delta key and opens as
// before. An earlier daybook opening an index written by this one reads the
// full key alone: a manifest as old as the last full write. That is safe:
// the documents of every source it names at an old stamp (or misses, or
// names though removed) were written after it, so its next Sync sees those
// sources' stamps differ on disk and diffs them against what bleve holds,
// which changes nothing that is current. When that daybook then writes its
// own full manifest, the delta left behind no longer matches its base, and
// this one ignores it (readManifest): the full manifest written last is
// the whole truth then.

// deltaKey is the internal key of the manifest's delta.
const deltaKey = "daybook.manifest.delta"

// minDelta is the fewest paths the delta may hold before the full manifest
// is written again.
const minDelta = 64

// deltaMax is how many paths the delta holds at most on an index of n
// sources before a batch writes the full manifest instead. A batch writes
// the delta, up to deltaMax paths, and every deltaMax changed paths the n
// of the full manifest: per path changed that is about deltaMax/2 + n/deltaMax,
// least at sqrt(2n) (77 paths on 3,000 sources). The same source written
// again and again (today's day file, turn after turn) stays one path.
func deltaMax(n int) int {
	return max(minDelta, int(math.Sqrt(2*float64(n))))
}

// manifestDelta is what deltaKey holds.
type manifestDelta struct {
	Base  string            `json:"base"`  // fingerprintOf the full manifest it applies over
	Paths map[string]string `json:"paths"` // path → stamp, "" for removed
}

// fingerprintOf returns what a delta names the full manifest raw by.
func fingerprintOf(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:16])
}

// storedManifest is the manifest as bleve holds it.
type storedManifest struct {
	manifest map[string]string // the full manifest with the delta over it
	delta    map[string]string // the delta's paths, when it applies
	base     string            // fingerprintOf the full manifest
}

// readManifest returns the manifest saved in bl. A delta whose base is not
// the full manifest stored (an earlier daybook wrote that one after it) is
// ignored: see above.
func readManifest(bl bleve.Index) (storedManifest, error) {
	m := storedManifest{manifest: map[string]string{}, delta: map[string]string{}}
	raw, err := bl.GetInternal([]byte(manifestKey))
	if err != nil {
		return m, fmt.Errorf("reading manifest: %w", err)
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m.manifest); err != nil {
			return m, fmt.Errorf("reading manifest %s: %w", manifestKey, err)
		}
	}
	m.base = fingerprintOf(raw)
	draw, err := bl.GetInternal([]byte(deltaKey))
	if err != nil {
		return m, fmt.Errorf("reading manifest delta: %w", err)
	}
	if len(draw) == 0 {
		return m, nil
	}
	var d manifestDelta
	if err := json.Unmarshal(draw, &d); err != nil {
		return m, fmt.Errorf("reading manifest delta %s: %w", deltaKey, err)
	}
	if d.Base != m.base {
		return m, nil
	}
	setStamps(m.manifest, d.Paths)
	m.delta = d.Paths
	if m.delta == nil {
		m.delta = map[string]string{}
	}
	return m, nil
}

// setStamps sets in manifest the stamps of changes: path → stamp, ""
// for a source removed.
func setStamps(manifest, changes map[string]string) {
	for p, s := range changes {
		if s == "" {
			delete(manifest, p)
		} else {
			manifest[p] = s
		}
	}
}

// setManifest puts in the text index the manifest read from its bleve.
func (t *TextIndex) setManifest(m storedManifest) {
	t.manifest, t.delta, t.base, t.stale = m.manifest, m.delta, m.base, false
}

// stageManifest adds to b what the manifest becomes once the sources are
// written: the delta, or the full manifest when the delta would grow past
// deltaMax, at the end of a bulk build (last), and on the first write
// after a bulk batch that was not the last (stale). A bulk batch before
// the last writes none: the manifest stored stays older
// than the documents, and a crash half-way redoes the build. It returns
// what to call once b is written, which records the new manifest in t: a
// batch that fails leaves t as it was. The caller holds lockWrite.
func (t *TextIndex) stageManifest(b *bleve.Batch, sources []Source, bulk, last bool) (func(), error) {
	changes := make(map[string]string, len(sources))
	for _, s := range sources {
		changes[s.Path] = s.Stamp
	}
	// inPlace applies the changes to t.manifest: after the batch, so that
	// no copy of the whole map is made for a batch of a few sources.
	inPlace := func() { setStamps(t.manifest, changes) }
	if bulk && !last {
		return func() { inPlace(); t.stale = true }, nil
	}
	if !bulk && !t.stale {
		delta := make(map[string]string, len(t.delta)+len(changes))
		maps.Copy(delta, t.delta)
		maps.Copy(delta, changes)
		if len(delta) <= deltaMax(len(t.manifest)) {
			raw, err := json.Marshal(manifestDelta{Base: t.base, Paths: delta})
			if err != nil {
				return nil, fmt.Errorf("writing manifest delta: %w", err)
			}
			b.SetInternal([]byte(deltaKey), raw)
			return func() { inPlace(); t.delta = delta }, nil
		}
	}
	full := maps.Clone(t.manifest)
	setStamps(full, changes)
	raw, err := json.Marshal(full)
	if err != nil {
		return nil, fmt.Errorf("writing manifest: %w", err)
	}
	b.SetInternal([]byte(manifestKey), raw)
	b.DeleteInternal([]byte(deltaKey))
	base := fingerprintOf(raw)
	return func() {
		t.manifest, t.delta, t.base, t.stale = full, map[string]string{}, base, false
	}, nil
}
