#!/bin/sh
# The plugin's hooks and MCP server run this: the daybook on the PATH, with
# the arguments given. Without one, it says in one line how to install it:
# a hook exits 0 all the same (a hook never fails the agent), the MCP server
# exits 1.
if command -v daybook >/dev/null 2>&1; then
	exec daybook "$@"
fi
msg='daybook is not installed: run go install github.com/daybook/daybook/cmd/...@latest and put $(go env GOPATH)/bin on the PATH Claude Code runs with (see https://github.com/daybook/daybook#start)'
echo "daybook plugin: $msg" >&2
case "$1 $2" in
"hook session-start")
	# systemMessage is shown to the user, not to the model.
	printf '{"systemMessage":"%s"}\n' "$msg"
	exit 0
	;;
"hook "*) exit 0 ;;
esac
exit 1
