#!/usr/bin/env python3
"""Derive the internal Go struct layouts kssa quotes from Kubernetes sources.

Usage: gen-internal-types.py INTERNAL_TYPES_GO V1_TYPES_GO ROOT...

Reads pkg/apis/core/types.go (the internal, untagged structs) and
staging/src/k8s.io/api/core/v1/types.go (the same structs with their JSON tags) of one
release and prints, for every struct reachable from the ROOT types, one line per field:

    STRUCT  GoField  jsonName  GoType

in declaration order (the order encoding/json writes them). jsonName is the v1 tag's name,
`-` for a field v1 does not have, `^` for an embedded struct (its fields are promoted).
A named non-struct type reached on the way is printed as `@type  Name  -  Underlying`.
The output, for the roots PodTemplateSpec, PersistentVolumeSpec and PersistentVolumeClaimSpec, is one of the tables
src/validate/internal_go/core-1.MINOR.txt (from the release-4.21, 4.22 and 4.23 branches of
openshift/microshift, which carry Kubernetes 1.34, 1.35 and 1.36); the sources are not
committed.
"""
import re
import sys

STRUCT = re.compile(r'^type (\w+) struct \{')
FIELD = re.compile(r'^\s+(\w+)\s+([^\s`]+)(?:\s+`([^`]*)`)?')
EMBED = re.compile(r'^\s+([\w.]+)(?:\s+`([^`]*)`)?\s*$')


NAMED = re.compile(r'^type (\w+) ([^{]+)$')


def named_types(path):
    out = {}
    for line in open(path, encoding='utf-8'):
        m = NAMED.match(line.split('//', 1)[0].rstrip())
        if m and not m.group(2).startswith(('struct', 'interface', '=')):
            out[m.group(1)] = m.group(2).strip()
    return out


def structs(path):
    out, current = {}, None
    for line in open(path, encoding='utf-8'):
        code = line.split('//', 1)[0].rstrip()
        m = STRUCT.match(code)
        if m:
            current = out.setdefault(m.group(1), [])
            continue
        if current is None:
            continue
        if code.startswith('}'):
            current = None
            continue
        m = FIELD.match(code)
        if m:
            current.append((m.group(1), m.group(2), m.group(3) or ''))
            continue
        m = EMBED.match(code)
        if m and m.group(1):
            current.append(('', m.group(1), m.group(2) or ''))
    return out


def json_name(tag):
    m = re.search(r'json:"([^",]*)', tag)
    return m.group(1) if m else None


def main():
    internal, v1 = structs(sys.argv[1]), structs(sys.argv[2])
    named = named_types(sys.argv[1])
    seen, queue = set(), list(sys.argv[3:])
    while queue:
        name = queue.pop(0)
        if name in seen:
            continue
        seen.add(name)
        if name in named:
            underlying = named[name]
            print(f'@type\t{name}\t-\t{underlying}')
            for part in re.split(r'[\[\]*]+', underlying):
                queue.append(part)
            continue
        if name not in internal:
            continue
        tags = {f[0]: json_name(f[2]) for f in v1.get(name, []) if f[0]}
        for go, typ, _ in internal[name]:
            base = typ.lstrip('*[]')
            if base.startswith('map['):
                base = base.split(']', 1)[1].lstrip('*[]')
            if go == '':
                print(f'{name}\t{typ}\t^\t{typ}')
                queue.append(base)
                continue
            print(f'{name}\t{go}\t{tags.get(go) or "-"}\t{typ}')
            queue.append(base)


main()
