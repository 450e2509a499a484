//! Manifests too large to keep (above [`super::inputs::KEEP_LIMIT`] bytes): read object by object
//! while the pipeline merges them, so memory stays bounded by the largest object.
//!
//! Usually they are read only there, once, by the threads that merge them
//! ([`Deferred::each_worked`]): each worker parses a document, pairs and checks its objects and
//! merges them; the checks that need the objects before (an object given twice, the order of
//! the errors, the count) follow on the calling thread, in input order. Every input error
//! (YAML, a manifest's checks, an object given twice) is still collected and reported together;
//! once one is found no more results are taken (the workers stop merging), and the output, held
//! until the end, is never printed. Where the checks must all come first (errors already found
//! in other inputs, or text a custom resource definition could hide in), a first pass checks
//! everything and the pipeline's pass only reads again.

use super::inputs::{input_errors, is_crd, object_options, InputArgs, Pair, PairMaker};
use super::pipeline::{in_order_on_threads, map_owned_in_order, worker_count, MAX_BATCH};
use kssa::io::{
    DocumentObjects, DocumentSplit, DocumentSplits, InputError, Object, ObjectKey, Origin,
    SourceText,
};
use kssa::kube::SchemaRegistry;
use rustc_hash::FxHashMap;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

/// What reading the manifests while merging needs: their bytes, the schemas and the live
/// objects by identity.
pub(super) struct Deferred {
    pub texts: Vec<SourceText>,
    pub registry: SchemaRegistry,
    pub live_index: FxHashMap<ObjectKey, usize>,
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
        .all(|t| kssa::search::find_byte(b'\\', &t.bytes).is_none())
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
        if !self.checked {
            return self.each_worked(notices, count, worker_count(usize::MAX), &|pair| pair, f);
        }
        let maker = self.maker();
        let mut skipped = Vec::new();
        let mut fed = Ok(());
        for text in &self.texts {
            kssa::io::each_object(text, object_options(&self.args), &mut skipped, |o| {
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
        fed
    }

    fn maker(&self) -> PairMaker<'_> {
        PairMaker {
            registry: &self.registry,
            live_index: &self.live_index,
            args: &self.args,
            validate: self.validate,
        }
    }

    /// The one pass over unchecked manifests: on `workers` threads, documents are parsed and
    /// their objects paired and handed to `work`; here, in order, the checks that need the
    /// objects before them follow, and `take` gets the results of the objects that pass while
    /// no error has been found. Stops at the first error `take` returns.
    pub fn each_worked<R: Send>(
        &self,
        notices: &mut Vec<String>,
        count: &mut usize,
        workers: usize,
        work: &(impl Fn(Pair) -> R + Sync),
        mut take: impl FnMut(R) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let maker = self.maker();
        let options = object_options(&self.args);
        let mut checks = Checks::default();
        // Set once an error is found: from then on, no result is taken, so none is worked out.
        let refused = AtomicBool::new(false);
        let splits = self.texts.iter().enumerate().flat_map(|(source, text)| {
            DocumentSplits::new(text, options).map(move |split| (source, split))
        });
        let read = |split| read_document(&maker, split, work, &refused);
        let read_items = |items: Vec<Object>| {
            map_owned_in_order(items, |o| read_object(&maker, Ok(o), work, &refused))
        };
        let mut checked =
            |source, document| checks.take(source, document, &read_items, &refused, &mut take);
        if workers <= 1 {
            for (source, split) in splits {
                checked(source, read(split))?;
            }
        } else {
            in_order_on_threads(
                workers,
                MAX_BATCH,
                "kssa-worker",
                |send| splits.into_iter().try_for_each(send),
                &|(source, split)| (source, read(split)),
                &mut |(source, document)| checked(source, document),
            )?;
        }
        *count = checks.objects;
        checks.finish(notices)
    }
}

/// A list's items are paired and worked on this many at a time.
const LIST_PART: usize = 512;

/// What reading one document found, before the checks that need the documents before it.
enum DocumentChecked<R> {
    Objects(Vec<ObjectRead<R>>),
    /// A list's items, not paired yet: they are spread over the cores a part at a time
    /// (one thread would otherwise take all of a large `List`).
    Items(Vec<Object>),
    Notice(String),
    /// A YAML error, which ends its source.
    End(InputError),
}

/// One object of a document, paired and worked on, or what refused it.
enum ObjectRead<R> {
    /// A document's error.
    Source(InputError),
    Paired(Box<Paired<R>>),
    Refused(Vec<InputError>),
}

struct Paired<R> {
    key: ObjectKey,
    origin: Origin,
    crd: bool,
    deduced: Vec<String>,
    /// `None` when an error found before made working it out pointless.
    worked: Option<R>,
}

fn read_document<R>(
    maker: &PairMaker,
    split: DocumentSplit,
    work: &impl Fn(Pair) -> R,
    refused: &AtomicBool,
) -> DocumentChecked<R> {
    let object = |o| read_object(maker, o, work, refused);
    match split.objects() {
        DocumentObjects::Objects(Ok(objects)) if objects.len() > 1 => {
            DocumentChecked::Items(objects)
        }
        DocumentObjects::Objects(Ok(objects)) => {
            DocumentChecked::Objects(objects.into_iter().map(|o| object(Ok(o))).collect())
        }
        DocumentObjects::Objects(Err(e)) => DocumentChecked::Objects(vec![object(Err(e))]),
        DocumentObjects::Notice(n) => DocumentChecked::Notice(n),
        DocumentObjects::End(e) => DocumentChecked::End(e),
    }
}

fn read_object<R>(
    maker: &PairMaker,
    object: Result<Object, InputError>,
    work: &impl Fn(Pair) -> R,
    refused: &AtomicBool,
) -> ObjectRead<R> {
    let object = match object {
        Ok(o) => o,
        Err(e) => return ObjectRead::Source(e),
    };
    let mut deduced = Vec::new();
    match maker.pair(object, false, &mut deduced) {
        Ok((pair, key)) => ObjectRead::Paired(Box::new(Paired {
            key,
            origin: pair.manifest.origin.clone(),
            crd: is_crd(&pair.manifest),
            deduced,
            worked: (!refused.load(Ordering::Relaxed)).then(|| work(pair)),
        })),
        Err(errs) => ObjectRead::Refused(errs),
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
    seen: FxHashMap<ObjectKey, Origin>,
    objects: usize,
    /// The sources a YAML error ended: what was split off them after it is no document.
    ended: HashSet<usize>,
}

impl Checks {
    /// Whether an error has been found.
    fn refused(&self) -> bool {
        !self.source_errors.is_empty() || !self.pair_errors.is_empty()
    }

    /// Checks the objects of a document of source number `source`, in order, and hands
    /// what was worked out of them to `take` while no error has been found (`refused` says
    /// when one has). A list's items are read by `read_items`, a part at a time.
    fn take<R>(
        &mut self,
        source: usize,
        document: DocumentChecked<R>,
        read_items: &impl Fn(Vec<Object>) -> std::io::Result<Vec<ObjectRead<R>>>,
        refused: &AtomicBool,
        take: &mut impl FnMut(R) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        if self.ended.contains(&source) {
            return Ok(());
        }
        match document {
            DocumentChecked::Objects(objects) => self.check_all(objects, refused, take)?,
            DocumentChecked::Items(items) => {
                let mut items = items.into_iter();
                loop {
                    let part: Vec<_> = items.by_ref().take(LIST_PART).collect();
                    if part.is_empty() {
                        break;
                    }
                    self.check_all(read_items(part)?, refused, take)?;
                }
            }
            DocumentChecked::Notice(n) => self.skipped.push(n),
            DocumentChecked::End(e) => {
                self.source_errors.push(e);
                self.ended.insert(source);
                refused.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    }

    fn check_all<R>(
        &mut self,
        objects: Vec<ObjectRead<R>>,
        refused: &AtomicBool,
        take: &mut impl FnMut(R) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        for object in objects {
            if let Some(worked) = self.check(object) {
                take(worked)?;
            }
        }
        if self.refused() {
            refused.store(true, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Checks one object; returns what was worked out of it while no error has been found.
    fn check<R>(&mut self, object: ObjectRead<R>) -> Option<R> {
        let paired = match object {
            ObjectRead::Source(e) => {
                self.source_errors.push(e);
                return None;
            }
            ObjectRead::Refused(errs) => {
                self.pair_errors.extend(errs);
                return None;
            }
            ObjectRead::Paired(paired) => *paired,
        };
        for notice in paired.deduced {
            if !self.deduced.contains(&notice) {
                self.deduced.push(notice);
            }
        }
        let origin = paired.origin;
        if paired.crd {
            // `one_pass_possible` rules this out; should it ever happen, say so rather than
            // resolve the objects after it without their schema.
            self.pair_errors.push(InputError::invalid(
                &origin,
                "",
                "a CustomResourceDefinition in manifests read in one pass",
            ));
            return None;
        }
        let refused = self.refused();
        if let Some(first) = self.seen.insert(paired.key, origin.clone()) {
            self.pair_errors.push(InputError::invalid(
                &origin,
                "",
                format!("the same object is also given at {first}"),
            ));
            return None;
        }
        self.objects += 1;
        if refused {
            return None;
        }
        paired.worked
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
