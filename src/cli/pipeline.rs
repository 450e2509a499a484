//! The apply pipeline over many objects: pairs are merged and rendered on worker threads while
//! the next ones are read, and the results come back in input order, with a progress bar on big
//! runs. Output is held until every object went through, so an error still prints nothing.

use super::apply::{predict_one, Predicted};
use super::inputs::{resolve_now, ApplyArgs, Loaded, Pair};
use kssa::value::{Map, Value};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Seek, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver};
use std::sync::Mutex;

/// Results finished ahead of the one printed next are held back at most this many objects deep
/// (times the worker count), which bounds memory by a few objects rather than by the input.
const WINDOW_PER_WORKER: usize = 16;

/// The threads to run `jobs` jobs on: one per core, at most 8. One job needs no count of the
/// cores (which reads the cgroup's CPU quota files: more system calls than a one-object run
/// makes otherwise).
pub(super) fn worker_count(jobs: usize) -> usize {
    if jobs <= 1 {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8).min(jobs))
}

/// `f` over every item on up to [`worker_count`] threads (each with the deep stack the
/// library's walks need), the results in the order of the items. Reading many files is the
/// serial part of a run over a directory; this spreads it over the cores.
pub fn map_in_order<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
) -> std::io::Result<Vec<R>> {
    let workers = worker_count(items.len());
    if workers <= 1 {
        return Ok(items.iter().map(f).collect());
    }
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (next, slots, f) = (&next, &slots, &f);
            std::thread::Builder::new()
                .name("kssa-reader".into())
                .stack_size(kssa::stack::DEEP_STACK_BYTES)
                .spawn_scoped(scope, move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let out = f(item);
                    *slots[i].lock().unwrap_or_else(|p| p.into_inner()) = Some(out);
                })?;
        }
        Ok::<_, std::io::Error>(())
    })?;
    // A worker that panicked has already ended the scope with its panic: every slot is filled.
    Ok(slots
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()))
        .collect())
}

/// [`map_in_order`] over items it takes: each goes to `f` by value.
pub fn map_owned_in_order<T: Send, R: Send>(
    items: Vec<T>,
    f: impl Fn(T) -> R + Sync,
) -> std::io::Result<Vec<R>> {
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|i| Mutex::new(Some(i))).collect();
    map_in_order(&slots, |slot| {
        let item = slot.lock().unwrap_or_else(|p| p.into_inner()).take();
        f(item.expect("each item is taken once"))
    })
}

/// Runs every apply request of `loaded`: `work` turns each prediction into its output on a
/// worker thread, `sink` takes the outputs in input order. Errors of the apply step are
/// collected, every one reported together as `predict` does. The input's notices are printed
/// here, at the end (manifests read while merging add theirs as they are read).
pub fn for_each_predicted<R: Send>(
    loaded: &mut Loaded,
    args: &ApplyArgs,
    work: impl Fn(&mut Predicted) -> R + Sync,
    sink: impl FnMut(R) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let now = resolve_now(args.now.as_deref())?;
    let known = loaded.known_count();
    let bar = std::io::stderr()
        .is_terminal()
        .then(|| progress_bar(known))
        .flatten();
    let mut outcomes = Outcomes {
        bar,
        warnings: Held::new(),
        errors: Vec::new(),
        sink,
    };
    let live = std::mem::take(&mut loaded.live);
    // Objects not counted yet come from manifests of more than 8 MB: many of them.
    let workers = worker_count(known.unwrap_or(usize::MAX));
    let predict = |pair: &Pair| {
        let mut warned = Vec::new();
        let out = predict_one(pair, &live, args, &now, &mut warned).map(|mut p| work(&mut p));
        (warned, out)
    };
    let result = if workers == 1 {
        // A worker thread would only add its start-up to the run.
        loaded.each_pair(|pair| outcomes.take(predict(&pair)))
    } else {
        // Manifests read while merging are read by the workers too, each object merged by
        // the thread that read it.
        let one_pass =
            loaded.work_in_one_pass(workers, &|pair| predict(&pair), |out| outcomes.take(out));
        match one_pass {
            Some(result) => result,
            None => run_on_workers(loaded, known, workers, &predict, &mut outcomes),
        }
    };
    loaded.live = live;
    outcomes.finish(result, &loaded.notices)
}

/// A bar over the objects of a big run, or a count of them where their number is not known.
fn progress_bar(known: Option<usize>) -> Option<indicatif::ProgressBar> {
    match known {
        Some(n) => (n > 300).then(|| indicatif::ProgressBar::new(n as u64)),
        None => {
            let bar = indicatif::ProgressBar::new_spinner();
            if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {pos} objects") {
                bar.set_style(style);
            }
            Some(bar)
        }
    }
}

/// Objects go to the workers this many at a time at most, so that a run over many small
/// objects does not wake a thread per object.
pub(super) const MAX_BATCH: usize = 32;

type Outcome<R> = (Vec<String>, Result<R, String>);

fn run_on_workers<R: Send, S: FnMut(R) -> anyhow::Result<()>>(
    loaded: &mut Loaded,
    known: Option<usize>,
    workers: usize,
    predict: &(impl Fn(&Pair) -> Outcome<R> + Sync),
    outcomes: &mut Outcomes<S>,
) -> anyhow::Result<()> {
    let batch = known.map_or(MAX_BATCH, |n| (n / (workers * 4)).clamp(1, MAX_BATCH));
    in_order_on_threads(
        workers,
        batch,
        "kssa-worker",
        |send| loaded.each_pair(send),
        &|pair| predict(&pair),
        &mut |out| outcomes.take(out),
    )
}

/// `work` over every item `feed` hands out, on `workers` threads (each with the deep stack the
/// library's walks need) in batches of `batch_size` items, while `feed` goes on; `take` gets the
/// results on this thread in feed order. Results done ahead of the next one in order are held
/// at most [`WINDOW_PER_WORKER`] items per worker deep, which bounds memory by a few items
/// rather than by the input. Feeding stops at the first error of `feed` or `take`.
pub fn in_order_on_threads<T: Send, R: Send>(
    workers: usize,
    batch_size: usize,
    name: &str,
    feed: impl FnOnce(&mut dyn FnMut(T) -> anyhow::Result<()>) -> anyhow::Result<()>,
    work: &(impl Fn(T) -> R + Sync),
    take: &mut dyn FnMut(R) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let window = workers * WINDOW_PER_WORKER + batch_size;
    let (job_tx, job_rx) = sync_channel::<Vec<(usize, T)>>(workers * 2);
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = channel::<Vec<(usize, R)>>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (job_rx, done_tx) = (&job_rx, done_tx.clone());
            std::thread::Builder::new()
                .name(name.into())
                .stack_size(kssa::stack::DEEP_STACK_BYTES)
                .spawn_scoped(scope, move || loop {
                    let job = job_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok(batch)) = job else { break };
                    let done = batch.into_iter().map(|(seq, item)| (seq, work(item)));
                    if done_tx.send(done.collect()).is_err() {
                        break;
                    }
                })?;
        }
        drop(done_tx);
        let mut order = InOrder {
            rx: &done_rx,
            held: BTreeMap::new(),
            next: 0,
        };
        let (mut batch, mut sent) = (Vec::with_capacity(batch_size), 0);
        let send = |batch: Vec<(usize, T)>| {
            job_tx
                .send(batch)
                .map_err(|_| anyhow::anyhow!("a worker thread stopped"))
        };
        let fed = feed(&mut |item| {
            batch.push((sent + batch.len(), item));
            if batch.len() < batch_size {
                return Ok(());
            }
            // Only what was sent is waited for: the items of a batch still being filled
            // would never come back.
            sent += batch.len();
            send(std::mem::replace(
                &mut batch,
                Vec::with_capacity(batch_size),
            ))?;
            while sent >= order.next + window {
                take(order.wait()?)?;
            }
            while let Some(out) = order.ready() {
                take(out)?;
            }
            Ok(())
        });
        if fed.is_ok() && !batch.is_empty() {
            sent += batch.len();
            send(batch)?;
        }
        drop(job_tx);
        fed?;
        while order.next < sent {
            take(order.wait()?)?;
        }
        Ok(())
    })
}

/// Where the outcomes go, in input order: outputs to the sink, kubectl's warnings held for
/// the end, errors collected.
struct Outcomes<S> {
    bar: Option<indicatif::ProgressBar>,
    warnings: Held,
    errors: Vec<String>,
    sink: S,
}

impl<S> Outcomes<S> {
    fn take<R>(&mut self, (warned, out): Outcome<R>) -> anyhow::Result<()>
    where
        S: FnMut(R) -> anyhow::Result<()>,
    {
        if let Some(b) = &self.bar {
            b.inc(1);
        }
        for w in warned {
            self.warnings.push(&format!("{w}\n"))?;
        }
        match out {
            Ok(r) => (self.sink)(r),
            Err(e) => {
                self.errors.push(e);
                Ok(())
            }
        }
    }

    /// Ends the run: on an input error, that error alone; else the input's notices and
    /// kubectl's warnings (first, as when every object is applied before printing), then the
    /// apply errors.
    fn finish(self, result: anyhow::Result<()>, notices: &[String]) -> anyhow::Result<()> {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
        result?;
        let mut stderr = std::io::stderr().lock();
        for n in notices {
            writeln!(stderr, "{n}")?;
        }
        self.warnings.write_to(&mut stderr)?;
        anyhow::ensure!(self.errors.is_empty(), "{}", self.errors.join("\nerror: "));
        Ok(())
    }
}

/// Calls `f` on `v` as if it had no `metadata.managedFields`, without copying it: the field is
/// taken out for the call and put back in its place.
pub fn without_managed_fields_in_place<R>(v: &mut Value, f: impl FnOnce(&Value) -> R) -> R {
    fn metadata(v: &mut Value) -> Option<&mut Map> {
        match v.as_map_mut()?.get_mut("metadata")? {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }
    let taken = metadata(v).and_then(|m| m.shift_remove_full("managedFields"));
    let out = f(v);
    if let (Some((i, k, field)), Some(m)) = (taken, metadata(v)) {
        m.shift_insert(i, k, field);
    }
    out
}

/// Puts the workers' results back into input order.
struct InOrder<'a, R> {
    rx: &'a Receiver<Vec<(usize, R)>>,
    held: BTreeMap<usize, R>,
    next: usize,
}

impl<R> InOrder<'_, R> {
    /// The next result in order if it is already done.
    fn ready(&mut self) -> Option<R> {
        while let Ok(done) = self.rx.try_recv() {
            self.held.extend(done);
        }
        let out = self.held.remove(&self.next)?;
        self.next += 1;
        Some(out)
    }

    /// The next result in order, waiting for it.
    fn wait(&mut self) -> anyhow::Result<R> {
        loop {
            if let Some(out) = self.ready() {
                return Ok(out);
            }
            let done = self
                .rx
                .recv()
                .map_err(|_| anyhow::anyhow!("a worker thread stopped"))?;
            self.held.extend(done);
        }
    }
}

/// Output held back until the run succeeded: in memory up to a limit, then in an unnamed
/// temporary file, so a large run does not keep its whole output in memory.
pub struct Held {
    memory: Vec<u8>,
    file: Option<std::fs::File>,
}

const HELD_IN_MEMORY: usize = 4 << 20;

impl Held {
    pub fn new() -> Held {
        Held {
            memory: Vec::new(),
            file: None,
        }
    }

    pub fn push(&mut self, text: &str) -> std::io::Result<()> {
        // What is held goes to the file before the buffer would grow past the limit: a
        // buffer that only grows is memory the system must clear page by page first.
        if self.memory.len() + text.len() > HELD_IN_MEMORY {
            let file = match &mut self.file {
                Some(f) => f,
                None => self.file.insert(tempfile::tempfile()?),
            };
            file.write_all(&self.memory)?;
            self.memory.clear();
        }
        self.memory.extend_from_slice(text.as_bytes());
        Ok(())
    }

    /// Writes everything held to `out`, in order. Through `std::io::copy`, a file held goes to
    /// standard output by the kernel (`copy_file_range`, `sendfile`, `splice`), not through a
    /// buffer here: the copy is the one part of a large run no other core shares.
    pub fn write_to<W: Write>(mut self, out: &mut W) -> std::io::Result<()> {
        if let Some(mut file) = self.file.take() {
            file.rewind()?;
            std::io::copy(&mut file, out)?;
        }
        out.write_all(&self.memory)
    }
}
