#!/usr/bin/env bash
# The updates eval, as docs/context.md reports it: the changed facts of two
# generated corpora (daybook gen --updates), the hand-written changes put on
# busy generated days in testdata/updates-busy, and the hand-written held-out
# set in testdata/updates. Offline models.
#
#   internal/tooling/eval/scripts/updates-evals.sh BIN_DIR [OUT_DIR]
#
# BIN_DIR holds daybook and daybook-core (go build -o BIN_DIR/ ./cmd/...).
# Each set gets a data dir and a config of its own; nothing of the user's is read.
set -euo pipefail
bin=${1:?usage: updates-evals.sh BIN_DIR [OUT_DIR]}
out=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
export DAYBOOK_CONFIG=/dev/null XDG_CONFIG_HOME="$out/config" XDG_RUNTIME_DIR="$out/run"
db="$bin/daybook-core"

for set in "2 3" "3 7"; do
  read -r years seed <<<"$set"
  dir="$out/gen-$years-$seed"
  echo "== gen --years $years --seed $seed --updates 38"
  if [ ! -d "$dir" ]; then
    "$db" gen --years "$years" --seed "$seed" --end 2026-06-30 --updates 38 "$dir" >/dev/null
    "$db" --dir "$dir" consolidate >/dev/null
  fi
  "$db" --dir "$dir" eval --updates "$dir/updates.jsonl" --now 2026-07-01 | tee "$out/gen-$years-$seed.txt"
done

echo "== held-out on busy days"
# testdata/updates-busy: ten changed facts written after the rules, put on
# busy days of the seed-19 corpus (entries.jsonl), three of them echoed.
dir="$out/busy-3-19"
if [ ! -d "$dir" ]; then
  "$db" gen --years 3 --seed 19 --end 2026-06-30 --updates 38 "$dir" >/dev/null
  "$db" --dir "$dir" import "$here/testdata/updates-busy/entries.jsonl" >/dev/null
  "$db" --dir "$dir" consolidate >/dev/null
fi
"$db" --dir "$dir" eval --updates "$here/testdata/updates-busy/updates.jsonl" --now 2026-07-01 | tee "$out/busy-3-19.txt"

echo "== held-out"
rm -rf "$out/held-out"; cp -r "$here/testdata/updates/corpus" "$out/held-out"
"$db" --dir "$out/held-out" consolidate >/dev/null
"$db" --dir "$out/held-out" eval --updates "$here/testdata/updates/updates.jsonl" --now 2026-08-10 | tee "$out/held-out.txt"
echo "reports in $out"
