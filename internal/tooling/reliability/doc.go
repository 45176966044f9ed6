// Package reliability holds daybook's reliability and security proofs: tests
// that run the real daybook binary as a child process and kill it at random
// moments, fill its disk, make its data dir read-only, feed it hostile input,
// write the same day from several writers and an editor at once, and soak
// the daemon under load. It has no code of its own; RELIABILITY.md lists
// each promise, the test that checks it and the last figures.
//
// The short versions run with "go test ./internal/tooling/reliability"; the
// long ones with "go test ./internal/tooling/reliability -long -timeout 60m".
package reliability
