// Package daybook holds the words every part of daybook speaks: the request
// and response types of its operations, the Service contract that the App
// carries out on the files and the socket client over the daemon, and the
// error codes. It imports nothing of daybook's but dayfiles/date, so the
// core (recall, the App) and every adapter (the socket API, MCP, the hooks,
// the proxy) stand on it rather than on one another.
package daybook
