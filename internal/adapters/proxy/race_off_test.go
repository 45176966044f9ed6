//go:build !race

package proxy_test

// raceOn: the race detector is on, and multiplies the memory a process uses.
const raceOn = false
