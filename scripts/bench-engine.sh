#!/usr/bin/env bash
# Engine and managedFields-layer benchmark (benches/engine.rs: the 30 smd-real cells and the five
# layer operations over testdata/bench/kube-prometheus). With --baseline REV, also builds REV (an
# export of it in /tmp, with this checkout's benches/engine.rs so both run the same cases), runs
# the two binaries interleaved and prints each case's median per side and the ratio
# baseline/current (> 1: this checkout is faster), plus the geometric mean of the smd-real cells.
# Usage: scripts/bench-engine.sh [--baseline REV] [--rounds N] [--ms MS] [FILTER]
set -euo pipefail
cd "$(dirname "$0")/.."
baseline="" rounds=5 ms=300 filter=""
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline) baseline=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --ms) ms=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) filter=$1; shift ;;
  esac
done
export KSSA_BENCH_MS=$ms

# The bench executable cargo builds for the checkout in $1.
bench_binary() {
  (cd "$1" && cargo bench --bench engine --no-run --message-format=json 2>/dev/null) |
    python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "engine":
        print(m["executable"])' | tail -1
}

current=$(bench_binary .)
if [ -z "$baseline" ]; then
  exec "$current" $filter
fi
# Both checkouts build into one target directory, where their artifacts may share names: keep a
# copy of this checkout's binary before building the baseline.
out=$(mktemp -d)
cp "$current" "$out/current-bench"
current=$out/current-bench

rev=$(git rev-parse --short "$baseline")
tree=/tmp/kssa-bench-$rev
if [ ! -f "$tree/Cargo.toml" ]; then
  mkdir -p "$tree"
  git archive "$rev" | tar -x -C "$tree"
fi
cp benches/engine.rs "$tree/benches/engine.rs"
# Revisions before validation (issue 14) have no `WriteRequest::validation`.
grep -q 'pub validation' "$tree/src/managed/server.rs" ||
  sed -i '/validation: None,/d' "$tree/benches/engine.rs"
# Nor, before the create shortcut, `WriteRequest::managed_fields`.
grep -q 'pub managed_fields:' "$tree/src/managed/server.rs" ||
  sed -i '/managed_fields: true,/d' "$tree/benches/engine.rs"
# Same target directory: the dependencies are built once; each checkout gets its own kssa.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
base=$(bench_binary "$tree")
echo "current: $(git rev-parse --short HEAD) ($current)"
echo "baseline: $rev ($base)"

for round in $(seq "$rounds"); do
  "$current" $filter >"$out/current.$round"
  "$base" $filter >"$out/baseline.$round"
done
python3 - "$out" "$rounds" <<'PY'
import math, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def read(side):
    times = {}
    for r in range(1, rounds + 1):
        for line in open(f"{out}/{side}.{r}"):
            m = re.match(r"(\S+).*?([\d.]+) µs$", line.strip())
            if m:
                times.setdefault(m.group(1), []).append(float(m.group(2)))
    return {k: statistics.median(v) for k, v in times.items()}
cur, base = read("current"), read("baseline")
print(f"{'case':<40} {'baseline µs':>12} {'current µs':>12} {'ratio':>7}")
cells = []
for name, c in cur.items():
    if name not in base:
        continue
    ratio = base[name] / c
    if not name.startswith("layer/"):
        cells.append(ratio)
    print(f"{name:<40} {base[name]:>12.1f} {c:>12.1f} {ratio:>6.2f}x")
if cells:
    gm = math.exp(sum(map(math.log, cells)) / len(cells))
    print(f"{'geometric mean of ' + str(len(cells)) + ' engine cells':<66} {gm:>6.2f}x")
PY
rm -rf "$out"
