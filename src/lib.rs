//! kssa: Kubernetes Server-Side Apply, offline.
//!
//! The engine follows sigs.k8s.io/structured-merge-diff: [`value`] is the object model,
//! [`schema`] the type topology, [`fieldpath`] paths and field sets, [`typed`] the operations
//! over a value and its schema, and [`merge`] the updater (apply, update, conflicts).
//! [`yaml`] reads and writes Kubernetes YAML, [`patch`] applies the API server's patch types.
//! [`client_apply`] predicts `kubectl apply` without `--server-side`.
//! [`kube`] knows kinds and their schemas, [`managed`] keeps `metadata.managedFields` by the API
//! server's rules, [`io`] loads and matches objects, [`render`] turns results into diffs and
//! reports, and [`replay`] runs scenario files. [`defaults`] turns a merged object into what the API
//! server stores (typed round trip, defaulting).
//!
//! Several walks recurse once per nesting level, and input may nest up to
//! [`yaml::MAX_DEPTH`] levels: run the library on a thread from [`stack::with_deep_stack`] (or
//! one with a [`stack::DEEP_STACK_BYTES`] stack) when input is not trusted to be shallow.

pub mod changes;
pub mod client_apply;
pub mod csa;
pub mod defaults;
pub mod fieldpath;
pub mod ignore;
pub mod io;
pub mod kube;
mod lines;
pub mod managed;
pub mod merge;
mod names;
pub mod patch;
pub mod render;
pub mod replay;
pub mod schema;
pub mod search;
pub mod stack;
pub mod typed;
pub mod validate;
pub mod value;
pub mod yaml;
