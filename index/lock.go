package index

// lockWrite takes x.mu for writing and starts a new generation: what the
// cache holds of the contents (orphans, counts) is older from then on. Every
// write to what x.mu guards goes through it, paired with unlockWrite.
func (x *Index) lockWrite() {
	x.mu.Lock()
	x.gen++
}

// unlockWrite lets go of what lockWrite took.
func (x *Index) unlockWrite() { x.mu.Unlock() }
