#!/usr/bin/env bash
# CLI-level benchmark: times whole `kssa` runs on files shipped in the repository, so anyone can
# reproduce the README's numbers. Uses hyperfine when installed (apt-get install hyperfine),
# else a plain loop. Usage: scripts/bench-cli.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
cargo build --release --quiet
kssa=target/release/kssa
export SOURCE_DATE_EPOCH=1700000000 NO_COLOR=1

cases=(
  "startup (--version)|$kssa --version"
  "diff, 1 object, create|$kssa diff -f examples/manifests/app-config.yaml"
  "diff, 3 manifests vs live (conflicts)|$kssa diff -f examples/manifests --live examples/live"
  "apply, Deployment onto live snapshot|$kssa apply -f testdata/bench/deployment.yaml --live testdata/bench/deployment-live.yaml --force-conflicts"
  "diff, 131 kube-prometheus manifests|$kssa diff -R -f testdata/bench/kube-prometheus"
  "diff, 131 manifests vs themselves|$kssa diff -R -f testdata/bench/kube-prometheus --live testdata/bench/kube-prometheus"
)

if command -v hyperfine >/dev/null 2>&1; then
  args=()
  for c in "${cases[@]}"; do args+=(-n "${c%%|*}" "${c#*|}"); done
  table=$(mktemp)
  hyperfine --warmup 3 --runs "$runs" -i --export-markdown "$table" "${args[@]}" >/dev/null
  cat "$table"
  rm -f "$table"
  exit 0
fi

printf '| %-40s | %12s |\n' "case" "mean (ms)"
printf '|%s|%s|\n' "------------------------------------------" "--------------"
for c in "${cases[@]}"; do
  name=${c%%|*} cmd=${c#*|}
  start=$(date +%s%N)
  for _ in $(seq "$runs"); do $cmd >/dev/null 2>&1 || true; done
  end=$(date +%s%N)
  printf '| %-40s | %12.2f |\n' "$name" "$(echo "($end - $start) / $runs / 1000000" | bc -l)"
done
