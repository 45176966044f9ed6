package index

import "sync"

// genCache holds answers of one generation of the text index (TextIndex.gen,
// which every write moves on): Count's counts, the longer words of query
// words. An answer of another generation is not given; past most answers,
// or at a new generation, it starts over.
type genCache[K comparable, V any] struct {
	mu   sync.Mutex
	gen  uint64
	most int
	m    map[K]V
}

// get returns the answer for key kept at generation gen.
func (c *genCache[K, V]) get(gen uint64, key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		var zero V
		return zero, false
	}
	v, ok := c.m[key]
	return v, ok
}

// set keeps the answer for key at generation gen.
func (c *genCache[K, V]) set(gen uint64, key K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || c.m == nil || len(c.m) >= c.most {
		c.m, c.gen = map[K]V{}, gen
	}
	c.m[key] = v
}
