//! Manifests too large to keep (above [`super::inputs::KEEP_LIMIT`] bytes): read object by object
//! while the pipeline merges them, so memory stays bounded by the largest object.
//!
//! Usually they are read only there, once, and checked as they are read: every input error
//! (YAML, a manifest's checks, an object given twice) is still collected and reported together,
//! and once one is found no more objects go to the pipeline, whose output is held until the end
//! and so never printed. Where the checks must all come first (errors already found in other
//! inputs, or text a custom resource definition could hide in), a first pass checks everything
//! and the pipeline's pass only reads again.

use super::inputs::{input_errors, is_crd, object_options, InputArgs, Pair, PairMaker};
use super::pipeline::{in_order_on_threads, worker_count, MAX_BATCH};
use kssa::io::{
    DocumentObjects, DocumentSplit, DocumentSplits, InputError, Object, ObjectKey, Origin,
    SourceText,
};
use kssa::kube::SchemaRegistry;
use std::collections::{HashMap, HashSet};

/// What reading the manifests while merging needs: their bytes, the schemas and the live
/// objects by identity.
pub(super) struct Deferred {
    pub texts: Vec<SourceText>,
    pub registry: SchemaRegistry,
    pub live_index: HashMap<ObjectKey, usize>,
    pub args: InputArgs,
    pub validate: bool,
    /// Whether a first pass already checked every manifest.
    pub checked: bool,
}

/// Whether the manifests may be read in one pass, checked as they go: no `CustomResourceDefinition`
/// can be among them. The byte search before this found no such word; only an escape in a
/// double-quoted YAML or JSON string (`\u0043ustom…`) could still spell one, and those all start
/// with a backslash. (A CRD must be registered before the objects after it are read, which
/// needs a first pass.)
pub(super) fn one_pass_possible(texts: &[SourceText]) -> bool {
    texts
        .iter()
        .all(|t| memchr::memchr(b'\\', &t.bytes).is_none())
}

impl Deferred {
    /// Hands every pair to `f` in order; stops at the first error `f` returns. Unchecked
    /// manifests are checked here (see the module's documentation): their notices are added to
    /// `notices` and `count` becomes the number of objects.
    pub fn each_pair(
        &self,
        notices: &mut Vec<String>,
        count: &mut usize,
        mut f: impl FnMut(Pair) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let maker = PairMaker {
            registry: &self.registry,
            live_index: &self.live_index,
            args: &self.args,
            validate: self.validate,
        };
        let options = object_options(&self.args);
        if self.checked {
            let mut skipped = Vec::new();
            let mut fed = Ok(());
            for text in &self.texts {
                kssa::io::each_object(text, options, &mut skipped, |o| {
                    if fed.is_ok() {
                        fed = o
                            .map_err(|e| vec![e])
                            .and_then(|o| maker.pair(o, true, &mut Vec::new()))
                            .map_err(input_errors)
                            .and_then(|(pair, _)| f(pair));
                    }
                });
                if fed.is_err() {
                    break;
                }
            }
            return fed;
        }
        let mut read = Checks::default();
        let splits = self.texts.iter().enumerate().flat_map(|(source, text)| {
            DocumentSplits::new(text, options).map(move |split| (source, split))
        });
        let workers = worker_count(usize::MAX);
        if workers == 1 {
            for (source, split) in splits {
                read.take(source, read_document(&maker, split), &mut f)?;
            }
        } else {
            // Parsing and checking are most of the reading: they go to threads of their own,
            // and the checks that need the objects before them follow here, in order.
            in_order_on_threads(
                workers,
                MAX_BATCH,
                "kssa-reader",
                |send| splits.into_iter().try_for_each(send),
                &|(source, split)| (source, read_document(&maker, split)),
                &mut |(source, document)| read.take(source, document, &mut f),
            )?;
        }
        *count = read.objects;
        read.finish(notices)
    }
}

/// What reading one document found, before the checks that need the documents before it.
enum DocumentChecked {
    Objects(Vec<ObjectRead>),
    Notice(String),
    /// A YAML error, which ends its source.
    End(InputError),
}

/// One object of a document, paired, or what refused it.
enum ObjectRead {
    /// A document's error.
    Source(InputError),
    Paired(Box<Pair>, ObjectKey, Vec<String>),
    Refused(Vec<InputError>),
}

fn read_document(maker: &PairMaker, split: DocumentSplit) -> DocumentChecked {
    let object = |o: Result<Object, InputError>| match o {
        Err(e) => ObjectRead::Source(e),
        Ok(o) => {
            let mut deduced = Vec::new();
            match maker.pair(o, false, &mut deduced) {
                Ok((pair, key)) => ObjectRead::Paired(Box::new(pair), key, deduced),
                Err(errs) => ObjectRead::Refused(errs),
            }
        }
    };
    match split.objects() {
        DocumentObjects::Objects(Ok(objects)) => {
            DocumentChecked::Objects(objects.into_iter().map(|o| object(Ok(o))).collect())
        }
        DocumentObjects::Objects(Err(e)) => DocumentChecked::Objects(vec![object(Err(e))]),
        DocumentObjects::Notice(n) => DocumentChecked::Notice(n),
        DocumentObjects::End(e) => DocumentChecked::End(e),
    }
}

/// The checks of an unchecked pass, in the order the first pass would report them.
#[derive(Default)]
struct Checks {
    /// YAML and document errors, then the manifests' own.
    source_errors: Vec<InputError>,
    pair_errors: Vec<InputError>,
    deduced: Vec<String>,
    skipped: Vec<String>,
    /// Origins, not their text: printing one locates it, which re-reads its document.
    seen: HashMap<ObjectKey, Origin>,
    objects: usize,
    /// The sources a YAML error ended: what was split off them after it is no document.
    ended: HashSet<usize>,
}

impl Checks {
    /// Checks the objects of a document of source number `source`, in order, and hands
    /// them to `f` while no error has been found.
    fn take(
        &mut self,
        source: usize,
        document: DocumentChecked,
        f: &mut impl FnMut(Pair) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        if self.ended.contains(&source) {
            return Ok(());
        }
        match document {
            DocumentChecked::Objects(objects) => {
                for object in objects {
                    if let Some(pair) = self.check(object) {
                        f(pair)?;
                    }
                }
            }
            DocumentChecked::Notice(n) => self.skipped.push(n),
            DocumentChecked::End(e) => {
                self.source_errors.push(e);
                self.ended.insert(source);
            }
        }
        Ok(())
    }

    /// Checks one object; returns its pair while no error has been found.
    fn check(&mut self, object: ObjectRead) -> Option<Pair> {
        let (pair, key) = match object {
            ObjectRead::Source(e) => {
                self.source_errors.push(e);
                return None;
            }
            ObjectRead::Refused(errs) => {
                self.pair_errors.extend(errs);
                return None;
            }
            ObjectRead::Paired(pair, key, deduced) => {
                for notice in deduced {
                    if !self.deduced.contains(&notice) {
                        self.deduced.push(notice);
                    }
                }
                (*pair, key)
            }
        };
        let origin = &pair.manifest.origin;
        if is_crd(&pair.manifest) {
            // `one_pass_possible` rules this out; should it ever happen, say so rather than
            // resolve the objects after it without their schema.
            self.pair_errors.push(InputError::invalid(
                origin,
                "",
                "a CustomResourceDefinition in manifests read in one pass",
            ));
            return None;
        }
        if let Some(first) = self.seen.insert(key, origin.clone()) {
            self.pair_errors.push(InputError::invalid(
                origin,
                "",
                format!("the same object is also given at {first}"),
            ));
            return None;
        }
        self.objects += 1;
        let clean = self.source_errors.is_empty() && self.pair_errors.is_empty();
        clean.then_some(pair)
    }

    /// The errors, all together; else the notices (kinds with a deduced schema, then skipped
    /// documents) go to `notices`.
    fn finish(self, notices: &mut Vec<String>) -> anyhow::Result<()> {
        let mut errors = self.source_errors;
        errors.extend(self.pair_errors);
        if !errors.is_empty() {
            return Err(input_errors(errors));
        }
        notices.extend(self.deduced);
        notices.extend(self.skipped);
        anyhow::ensure!(
            self.objects > 0 || !notices.is_empty(),
            "no objects passed to apply"
        );
        Ok(())
    }
}
