#!/usr/bin/env python3
"""Seeds fuzz/corpus/<target>/ from testdata/: manifests and snapshots for loading and
managedFields decoding, (live, object) and (original, patch) pairs from the conformance vectors
for apply and update/patch, small CRDs (each followed by an instance) for CRD loading.
Run from anywhere; rewrites the seed files only (corpus entries the fuzzer found are kept)."""
import glob
import hashlib
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTDATA = os.path.join(ROOT, "testdata")
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
MAX_SEED = 16 * 1024


def save(target, data):
    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX_SEED:
        return
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def stream(*values):
    return "\n---\n".join(json.dumps(v) for v in values) + "\n"


def files(*patterns):
    for pattern in patterns:
        yield from sorted(glob.glob(os.path.join(TESTDATA, pattern), recursive=True))


for path in files("**/*.yaml", "**/*.yml", "**/*.json"):
    with open(path, "rb") as f:
        data = f.read()
    save("load", data)
    if b"managedFields" in data:
        save("managed_fields", data)
    if b"CustomResourceDefinition" in data or b"openAPIV3Schema" in data:
        save("crd", data)

for path in files("conformance/server/*.json", "conformance/unions/*.json"):
    with open(path) as f:
        vector = json.load(f)
    live = vector.get("live")
    for step in vector.get("steps", []):
        obj = step.get("object")
        if not isinstance(obj, dict):
            continue
        save("apply", stream(live, obj) if live else stream(obj))
        if live:
            save("update_patch", stream(live, obj))
            save("managed_fields", stream(live))

for path in files("conformance/patch/*.json"):
    with open(path) as f:
        vector = json.load(f)
    original, patch = vector.get("original"), vector.get("patch")
    if isinstance(original, dict) and patch is not None:
        save("update_patch", stream(original, patch))

for path in files("conformance/yaml/*.json"):
    with open(path) as f:
        vectors = json.load(f)
    for vector in vectors if isinstance(vectors, list) else [vectors]:
        if isinstance(vector, dict) and isinstance(vector.get("yaml"), str):
            save("load", vector["yaml"])

# A small CRD and an instance, so the crd target starts from documents that load.
save("crd", """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, default: 3}
              tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: {type: object, properties: {name: {type: string}, port: {type: integer}}}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec: {tags: [a, b], ports: [{name: http, port: 80}]}
""")

for target in sorted(os.listdir(CORPUS)):
    print(f"{target}: {len(os.listdir(os.path.join(CORPUS, target)))} seeds")
