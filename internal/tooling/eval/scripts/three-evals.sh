#!/usr/bin/env bash
# The three recall evals, as BENCHMARKS.md and docs/recall.md report them:
# REALTALK dialogue (LoCoMo format, never committed), the hand-written set and
# the 50 planted facts of a generated 5-year corpus. Offline models, limit 10.
#
#   internal/tooling/eval/scripts/three-evals.sh BIN_DIR [REALTALK_DIR] [OUT_DIR]
#
# BIN_DIR holds daybook and daybook-core (go build -o BIN_DIR/ ./cmd/...).
# Each eval gets a data dir and a config of its own; nothing of the user's is read.
set -euo pipefail
bin=${1:?usage: three-evals.sh BIN_DIR [REALTALK_DIR] [OUT_DIR]}
realtalk=${2:-$(cd "$(dirname "$0")/../../../../.." && pwd)/shared/bench/realtalk}
out=${3:-$(mktemp -d)}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
export DAYBOOK_CONFIG=/dev/null XDG_CONFIG_HOME="$out/config" XDG_RUNTIME_DIR="$out/run"
db="$bin/daybook-core"

echo "== REALTALK ($realtalk)"
"$db" --dir "$out/realtalk" eval --dialogue "$realtalk" | tee "$out/realtalk.txt"

echo "== hand-written"
rm -rf "$out/hand"; cp -r "$here/testdata/corpus" "$out/hand"
"$db" --dir "$out/hand" consolidate >/dev/null
"$db" --dir "$out/hand" eval "$here/testdata/questions.jsonl" --now 2026-11-22 | tee "$out/hand.txt"

echo "== planted"
if [ ! -d "$out/planted" ]; then
  "$db" gen --years 5 --seed 3 --end 2026-06-30 "$out/planted" >/dev/null
  "$db" --dir "$out/planted" consolidate >/dev/null
fi
"$db" --dir "$out/planted" eval "$out/planted/facts.jsonl" --now 2026-07-01 | tee "$out/planted.txt"
echo "reports in $out"
