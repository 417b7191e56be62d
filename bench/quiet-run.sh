#!/usr/bin/env bash
# Issue 15's table in one run (bench/README.md, the top table): every benchmark of the table in its order,
# then the Tee ups list, Impact and Smart Match again alone, once the load the others left has settled.
# About 35 minutes on 2 cores; run it on a quiet machine. Each command's output: bench/results/quiet/<name>.log,
# and the report it wrote (bench/results/*-latest.json, which the next run of that bench overwrites): <name>.json.
# RATES: the pipeline's offered rates (default 300 400 450 500; lower them on a slower machine, whose ceiling
# is lower: the run past the ceiling says nothing more).
set -uo pipefail
cd "$(dirname "$0")/.."
out=bench/results/quiet
mkdir -p "$out"
log() { echo "=== $(date -u +%H:%M:%S) $* (load average $(cut -d' ' -f1 /proc/loadavg))"; }
run() {
  local name=$1
  shift
  log "$name: $*"
  touch "$out/.started"
  env "$@" >"$out/$name.log" 2>&1
  echo "exit $?" >>"$out/$name.log"
  for report in bench/results/*-latest.json; do
    if [[ $report -nt $out/.started ]]; then cp "$report" "$out/$name.json"; fi
  done
  grep -hE 'target|NOT met|: met' "$out/$name.log" | sed 's/^/    /'
}
run gateway npm run bench:gateway
for rate in ${RATES:-300 400 450 500}; do
  run "pipeline-$rate" BENCH_POOL_MAX=20 BENCH_RATE=$rate BENCH_WARMUP=5 BENCH_DURATION=30 BENCH_DRAIN=60 npm run bench:pipeline
done
run round-trip npm run bench:round-trip
run referrals BENCH_SAVE_ANSWERS=bench/results/answers npm run bench:referrals
run impact npm run bench:impact
for i in 1 2 3 4; do run "smart-match-$i" npm run bench:smart-match; done
run product-search npm run bench:product-search
run bundle bash -c 'npm run build -w web && npm run bundle:budget'
run compression npm run bench:compression
run memory npm run bench:memory
run pipeline-memory BENCH_POOL_MAX=20 BENCH_RATE=80 BENCH_WARMUP=30 BENCH_DURATION=600 npm run bench:pipeline
# Alone: the rows the pipeline's wake moves most.
sleep 60
run referrals-alone npm run bench:referrals
run impact-alone npm run bench:impact
sleep 30
for i in 1 2 3 4; do run "smart-match-alone-$i" npm run bench:smart-match; done
log done
