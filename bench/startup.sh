#!/usr/bin/env bash
# Start-up of the `finanzamt` command on the node first on PATH: how long `finanzamt --help` takes, how long
# `finanzamt serve` takes from its start to its first answer (/healthz 200), and its resident memory then, at
# its peak, after 30 s and after 90 s (when V8 gives memory back depends on when it finds the process idle). Prints the median of RUNS runs of each. Usage: bench/startup.sh <dist> [runs]
# NODE_OPTIONS=--no-experimental-strip-types makes the command take its tsx path on a Node that could strip types.
set -euo pipefail
cd "$(dirname "$0")/.."
dist=${1:?usage: bench/startup.sh <dist containing current/> [runs]}
runs=${2:-5}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
now() { date +%s%N; }
rss() { awk '/^VmRSS/ { printf "%d\n", $2 / 1024 }' "/proc/$1/status"; }
hwm() { awk '/^VmHWM/ { printf "%d\n", $2 / 1024 }' "/proc/$1/status"; }

echo "node $(node --version)"
# Wall time depends on what else the machine runs; CPU time (user + system) much less.
for i in $(seq "$runs"); do
  /usr/bin/time -f '%e %U %S' -o "$scratch/time" node bin/finanzamt.mjs --help >/dev/null
  awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' "$scratch/time" >> "$scratch/help"
done
echo "$(awk '{ print $1 }' "$scratch/help" | median) $(awk '{ print $2 }' "$scratch/help" | median)" \
  | awk '{ printf "finanzamt --help: %s ms, CPU %s ms\n", $1, $2 }'

node bin/finanzamt.mjs keys add --name startup --keys-file "$scratch/keys.json" >/dev/null
for i in $(seq "$runs"); do
  port=$((20000 + RANDOM % 20000))
  start=$(now)
  node bin/finanzamt.mjs serve --dist "$dist" --host 127.0.0.1 --port "$port" --keys-file "$scratch/keys.json" --log-file "$scratch/log" >/dev/null 2>&1 &
  pid=$!
  until curl -sf -o /dev/null "http://127.0.0.1:$port/healthz"; do sleep 0.02; done
  ready=$(( ($(now) - start) / 1000000 ))
  first=$(rss "$pid")
  sleep 30
  at30=$(rss "$pid")
  sleep 60
  echo "$ready $first $(hwm "$pid") $at30 $(rss "$pid")" >> "$scratch/serve"
  kill "$pid"; wait "$pid" || true
done
for col in 1 2 3 4 5; do awk -v c="$col" '{ print $c }' "$scratch/serve" | median; done | paste -sd' ' \
  | awk '{ printf "finanzamt serve: first answer after %s ms; RSS %s MB then, peak %s MB, %s MB after 30 s, %s MB after 90 s\n", $1, $2, $3, $4, $5 }'
