#!/usr/bin/env bash
# Generates the large inputs scripts/bench-cli.sh measures (never committed as data):
#   DIR/stream.yaml  a ~50 MB multi-document file of distinct Deployments (default 86,000)
#   DIR/list.yaml    a `List` of distinct ConfigMaps (default 100,000)
# Usage: scripts/gen-big-inputs.sh DIR [deployments] [configmaps]
set -euo pipefail
dir=${1:?usage: gen-big-inputs.sh DIR [deployments] [configmaps]}
deployments=${2:-86000}
configmaps=${3:-100000}
mkdir -p "$dir"

awk -v n="$deployments" 'BEGIN {
  for (i = 0; i < n; i++) {
    if (i > 0) print "---"
    printf "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-%d\n  namespace: team-%d\n", i, i % 50
    printf "  labels:\n    app.kubernetes.io/name: app-%d\n", i
    printf "spec:\n  replicas: %d\n", i % 5 + 1
    printf "  selector:\n    matchLabels:\n      app.kubernetes.io/name: app-%d\n", i
    printf "  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: app-%d\n", i
    printf "    spec:\n      containers:\n      - name: app\n        image: registry.example.com/shop/app-%d:1.%d.0\n", i, i % 20
    printf "        ports:\n        - containerPort: 8080\n          name: http\n          protocol: TCP\n"
    printf "        resources:\n          requests:\n            cpu: 100m\n            memory: 128Mi\n"
  }
}' >"$dir/stream.yaml"

awk -v n="$configmaps" 'BEGIN {
  print "apiVersion: v1\nkind: List\nitems:"
  for (i = 0; i < n; i++) {
    printf "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: settings-%d\n    namespace: team-%d\n", i, i % 50
    printf "  data:\n    mode: production\n    index: \"%d\"\n", i
  }
}' >"$dir/list.yaml"
