//! Kubernetes YAML vectors (testdata/conformance/yaml).
