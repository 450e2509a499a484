//! Kubernetes YAML: reading manifests exactly as kubectl does, and writing YAML that reads back.
