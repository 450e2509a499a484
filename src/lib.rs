//! kssa: Kubernetes Server-Side Apply, offline.
//!
//! The engine follows sigs.k8s.io/structured-merge-diff: [`value`] is the object model,
//! [`schema`] the type topology, [`fieldpath`] paths and field sets, [`typed`] the operations
//! over a value and its schema, and [`merge`] the updater (apply, update, conflicts).
//! [`yaml`] reads and writes Kubernetes YAML, [`patch`] applies the API server's patch types.
//! [`kube`] knows kinds and their schemas, [`managed`] keeps `metadata.managedFields` by the API
//! server's rules, [`io`] loads and matches objects, [`render`] turns results into diffs and
//! reports, and [`replay`] runs scenario files. [`defaults`] turns a merged object into what the API
//! server stores (typed round trip, defaulting).

pub mod changes;
pub mod csa;
pub mod defaults;
pub mod fieldpath;
pub mod ignore;
pub mod io;
pub mod kube;
pub mod managed;
pub mod merge;
pub mod patch;
pub mod render;
pub mod replay;
pub mod schema;
pub mod typed;
pub mod value;
pub mod yaml;
