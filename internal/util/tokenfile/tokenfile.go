// Package tokenfile keeps a listener's secret in a file of the data dir:
// 256 random bits in hex, made once, mode 0600 in a 0700 folder, read back
// by the owner's clients that present it. The web page and the memory
// proxy each keep theirs this way.
package tokenfile

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MinLen is the shortest token taken from a file: 128 bits in hex.
const MinLen = 32

// Ensure returns the token stored at path, creating the file (mode 0600,
// its folder 0700) with 256 random bits when it is absent. A file that
// others may read is not a secret any more: it is replaced by a new token,
// and replaced says so. Two processes that race to create it get the same
// token. what names the token in errors ("web", "proxy").
func Ensure(path, what string) (tok string, replaced bool, err error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		if err := os.Remove(path); err != nil {
			return "", false, fmt.Errorf("removing %s token %s, which others may read (mode %04o): %w", what, path, fi.Mode().Perm(), err)
		}
		replaced = true
	}
	tok, err = Read(path, what)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return tok, replaced, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", replaced, fmt.Errorf("creating the folder of %s token %s: %w", what, path, err)
	}
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand's documentation)
	tok = hex.EncodeToString(b[:])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) { // another process made it first: use theirs
		tok, err = Read(path, what)
		return tok, replaced, err
	}
	if err != nil {
		return "", replaced, fmt.Errorf("creating %s token %s: %w", what, path, err)
	}
	_, err = f.WriteString(tok + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", replaced, fmt.Errorf("writing %s token %s: %w", what, path, err)
	}
	return tok, replaced, nil
}

// Read returns the token stored at path. A missing file is an error that
// wraps fs.ErrNotExist; a file that does not hold one token of at least
// MinLen characters on one line is an error naming it and saying how to
// make a new one.
func Read(path, what string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading %s token: %w", what, err)
	}
	tok := strings.TrimSpace(string(data))
	if len(tok) < MinLen || strings.ContainsAny(tok, " \t\r\n/") {
		return "", fmt.Errorf("%s token %s: %d characters on one line wanted at least %d; remove the file and restart the daemon to make a new one",
			what, path, len(tok), MinLen)
	}
	return tok, nil
}

// Equal reports whether got is the token want, in time that does not
// depend on where they differ.
func Equal(got string, want []byte) bool {
	return subtle.ConstantTimeCompare([]byte(got), want) == 1
}
