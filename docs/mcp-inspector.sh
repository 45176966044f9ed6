#!/usr/bin/env bash
# Drives every daybook MCP tool through the official MCP Inspector's CLI
# (npm @modelcontextprotocol/inspector), as a client daybook's tests did not
# write: tools/list, each tool with good arguments, and bad arguments, which
# must come back as tool errors in daybook's one shape ("ARG: what is wrong");
# then the context block as resources (daybook://context, per period) and as
# the prompt remember-context.
#
#   docs/mcp-inspector.sh [DAYBOOK_BINARY]
#
# INSPECTOR names the inspector's binary (default: "npx -y
# @modelcontextprotocol/inspector@0.15.0", which downloads it). The data dir
# is a fresh temporary one; nothing of yours is read or written. Exits 0 when
# every check passes, 1 naming the first that fails. internal/adapters/mcp/inspector_test.go
# runs it when the inspector is installed (.ci/install-inspector).
set -euo pipefail

DAYBOOK=${1:-daybook}
INSPECTOR=${INSPECTOR:-npx -y @modelcontextprotocol/inspector@0.15.0}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# Nothing of the machine's: no config, no daemon socket, and no daemon
# started by "daybook mcp" (DAYBOOK_AUTOSTART=0): the tools on the files.
export HOME=$TMP XDG_CONFIG_HOME=$TMP XDG_RUNTIME_DIR=$TMP XDG_DATA_HOME=$TMP DAYBOOK_CONFIG= DAYBOOK_DIR= DAYBOOK_AUTOSTART=0
DATA=$TMP/data
TODAY=$(date +%Y-%m-%d)
YEAR=$(date +%Y)
checks=0

# inspect ARGS...: the inspector's JSON answer on stdout.
inspect() {
	$INSPECTOR --cli "$DAYBOOK" mcp --dir "$DATA" "$@" 2>&1
}

fail() {
	echo "FAIL: $1" >&2
	echo "$2" >&2
	exit 1
}

# ok TOOL WANT [--tool-arg K=V]...: the call succeeds and its answer holds WANT.
ok() {
	local tool=$1 want=$2
	shift 2
	local out
	out=$(inspect --method tools/call --tool-name "$tool" "$@") || fail "$tool $*: the inspector failed" "$out"
	if grep -q '"isError": true' <<<"$out"; then
		fail "$tool $*: a tool error" "$out"
	fi
	grep -qF -- "$want" <<<"$out" || fail "$tool $*: the answer does not hold $want" "$out"
	checks=$((checks + 1))
	echo "ok   $tool $*"
}

# bad TOOL WANT [--tool-arg K=V]...: the call is a tool error that says WANT
# (as it stands in the JSON answer: no double quotes in WANT).
bad() {
	local tool=$1 want=$2
	shift 2
	local out
	out=$(inspect --method tools/call --tool-name "$tool" "$@") || fail "$tool $*: the inspector failed" "$out"
	grep -q '"isError": true' <<<"$out" || fail "$tool $*: want a tool error" "$out"
	grep -qF -- "$want" <<<"$out" || fail "$tool $*: the error does not say $want" "$out"
	if grep -qE 'reflect|validating|/properties/' <<<"$out"; then
		fail "$tool $*: the error shows Go internals" "$out"
	fi
	checks=$((checks + 1))
	echo "bad  $tool $*"
}

list=$(inspect --method tools/list) || fail "tools/list" "$list"
for tool in recall remember expand find browse context stats; do
	grep -qF "\"name\": \"$tool\"" <<<"$list" || fail "tools/list lacks $tool" "$list"
done
grep -qF '"readOnlyHint": true' <<<"$list" || fail "tools/list: no readOnlyHint" "$list"
# Integer arguments carry their ranges: recall's limit, browse's budget.
grep -qF '"maximum": 1000' <<<"$list" || fail "tools/list: no maximum on limit" "$list"
grep -qF '"maximum": 32000' <<<"$list" || fail "tools/list: no maximum on budget_tokens" "$list"
checks=$((checks + 1))
echo "ok   tools/list"

ok remember '"line": 3' --tool-arg 'text=Chose Caddy over nginx for the home server' --tool-arg kind=decision \
	--tool-arg 'tags=["homelab","web"]' --tool-arg "at=$TODAY 09:00"
ok remember '"line": 4' --tool-arg 'text=Replaced the fan of the router' --tool-arg "at=$TODAY 10:00"
ok recall '**Caddy**' --tool-arg 'query=caddy nginx' --tool-arg limit=5
ok recall '"results": []' --tool-arg 'query=caddy' --tool-arg 'from=-30d' --tool-arg 'to=-7d'
ok find 'Replaced the fan' --tool-arg 'pattern=(?i)router$' --tool-arg limit=10
ok expand '#homelab #web' --tool-arg "id=day:$TODAY"
ok expand 'still open' --tool-arg "id=year:$YEAR"
ok expand '"next_from_line": 2' --tool-arg "id=day:$TODAY" --tool-arg budget_tokens=1
long=$(printf 'The retrospective went over the storage migration in detail once more. %.0s' $(seq 40))
ok remember '"line": 5' --tool-arg "text=$long" --tool-arg "at=$TODAY 11:00"
ok expand 'line cut to fit budget_tokens 300' --tool-arg "id=day:$TODAY" --tool-arg from_line=5 --tool-arg budget_tokens=300
ok browse '"summaries": []' --tool-arg level=day
ok browse '"summaries": []' --tool-arg level=month --tool-arg budget_tokens=500
ok context '# daybook context' --tool-arg 'query=home server' --tool-arg budget_tokens=500
ok stats '"entries": 3'

bad recall 'query: is missing'
bad recall 'limit: -1 is out of range' --tool-arg query=x --tool-arg limit=-1
bad recall 'limit: 1000000 is out of range' --tool-arg query=x --tool-arg limit=1000000
bad recall 'is not one of the values: want year, month' --tool-arg query=x --tool-arg level=week
bad recall 'from: bad date' --tool-arg query=x --tool-arg from=someday
bad remember 'kind: unknown kind' --tool-arg text=x --tool-arg kind=rumour
bad remember 'is not a tag' --tool-arg text=x --tool-arg 'tags=["9lives"]'
bad remember 'at: date outside the accepted window' --tool-arg text=x --tool-arg 'at=9999-12-31 10:00'
bad expand 'is not an entry id' --tool-arg id=nonsense
bad find 'pattern: bad regex' --tool-arg 'pattern=('
bad browse 'level: is missing'
bad context 'budget_tokens: -1 is out of range' --tool-arg budget_tokens=-1
bad browse 'budget_tokens: 40000 is out of range' --tool-arg level=day --tool-arg budget_tokens=40000

# The context block without a tool call: resources, a template, a prompt,
# and instructions that say when to recall and when to remember.
method() {
	local m=$1 want=$2
	shift 2
	local out
	out=$(inspect --method "$m" "$@") || fail "$m $*: the inspector failed" "$out"
	grep -qF -- "$want" <<<"$out" || fail "$m $*: the answer does not hold $want" "$out"
	checks=$((checks + 1))
	echo "ok   $m $*"
}
method resources/list '"uri": "daybook://context"'
method resources/templates/list '"uriTemplate": "daybook://context/{period}"'
method resources/read 'Chose Caddy over nginx' --uri daybook://context
method resources/read "Query: $YEAR" --uri "daybook://context/$YEAR"
method prompts/list '"name": "remember-context"'
method prompts/get 'holds about: home server' --prompt-name remember-context --prompt-args 'query=home server'
out=$(inspect --method resources/read --uri daybook://context/someday) && fail "resources/read daybook://context/someday: want an error" "$out"
grep -qF 'is not a year' <<<"$out" || fail "resources/read daybook://context/someday: the error does not name the period" "$out"
checks=$((checks + 1))
echo "bad  resources/read daybook://context/someday"

echo "all $checks checks passed"
