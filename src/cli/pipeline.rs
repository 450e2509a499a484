//! The apply pipeline over many objects: pairs are merged and rendered on worker threads while
//! the next ones are read, and the results come back in input order, with a progress bar on big
//! runs. Output is held until every object went through, so an error still prints nothing.

use super::apply::{predict_one, Predicted};
use super::inputs::{resolve_now, ApplyArgs, Loaded, Pair};
use kssa::value::{Map, Value};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Read, Seek, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver};
use std::sync::Mutex;

/// Results finished ahead of the one printed next are held back at most this many objects deep
/// (times the worker count), which bounds memory by a few objects rather than by the input.
const WINDOW_PER_WORKER: usize = 16;

fn worker_count() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

/// `f` over every item on up to [`worker_count`] threads (each with the deep stack the
/// library's walks need), the results in the order of the items. Reading many files is the
/// serial part of a run over a directory; this spreads it over the cores.
pub fn map_in_order<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
) -> std::io::Result<Vec<R>> {
    let workers = worker_count().min(items.len());
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

/// Runs every apply request of `loaded`: `work` turns each prediction into its output on a
/// worker thread, `sink` takes the outputs in input order. Errors of the apply step are
/// collected, every one reported together as `predict` does.
pub fn for_each_predicted<R: Send>(
    loaded: &mut Loaded,
    args: &ApplyArgs,
    work: impl Fn(&mut Predicted) -> R + Sync,
    mut sink: impl FnMut(R) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let now = resolve_now(args.now.as_deref())?;
    let bar = (loaded.count > 300 && std::io::stderr().is_terminal())
        .then(|| indicatif::ProgressBar::new(loaded.count as u64));
    let live = std::mem::take(&mut loaded.live);
    let workers = worker_count().min(loaded.count.max(1));
    let window = workers * WINDOW_PER_WORKER;
    let (job_tx, job_rx) = sync_channel::<(usize, Pair)>(workers * 2);
    let job_rx = Mutex::new(job_rx);
    type Done<R> = (usize, Vec<String>, Result<R, String>);
    let (done_tx, done_rx) = channel::<Done<R>>();
    let mut warnings = Held::new();
    let mut errors = Vec::new();
    let result: anyhow::Result<()> = std::thread::scope(|scope| {
        for _ in 0..workers {
            let (job_rx, done_tx) = (&job_rx, done_tx.clone());
            let (live, now, work) = (&live, &now, &work);
            // Each worker gets the stack the library's walks need for the deepest input.
            std::thread::Builder::new()
                .name("kssa-worker".into())
                .stack_size(kssa::stack::DEEP_STACK_BYTES)
                .spawn_scoped(scope, move || loop {
                    let job = job_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok((seq, pair))) = job else { break };
                    let mut warned = Vec::new();
                    let out =
                        predict_one(&pair, live, args, now, &mut warned).map(|mut p| work(&mut p));
                    if done_tx.send((seq, warned, out)).is_err() {
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
        let mut emit = |(warned, out): (Vec<String>, Result<R, String>)| -> anyhow::Result<()> {
            if let Some(b) = &bar {
                b.inc(1);
            }
            for w in warned {
                warnings.push(&format!("{w}\n"))?;
            }
            match out {
                Ok(r) => sink(r),
                Err(e) => {
                    errors.push(e);
                    Ok(())
                }
            }
        };
        let mut sent = 0;
        let fed = loaded.each_pair(|pair| {
            while sent >= order.next + window {
                emit(order.wait()?)?;
            }
            job_tx
                .send((sent, pair))
                .map_err(|_| anyhow::anyhow!("a worker thread stopped"))?;
            sent += 1;
            while let Some(out) = order.ready() {
                emit(out)?;
            }
            Ok(())
        });
        drop(job_tx);
        fed?;
        while order.next < sent {
            emit(order.wait()?)?;
        }
        Ok(())
    });
    loaded.live = live;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    // kubectl's warnings come first, as they do when every object is applied before printing.
    warnings.write_to(&mut std::io::stderr().lock())?;
    result?;
    anyhow::ensure!(errors.is_empty(), "{}", errors.join("\nerror: "));
    Ok(())
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
    rx: &'a Receiver<(usize, Vec<String>, Result<R, String>)>,
    held: BTreeMap<usize, (Vec<String>, Result<R, String>)>,
    next: usize,
}

impl<R> InOrder<'_, R> {
    /// The next result in order if it is already done.
    fn ready(&mut self) -> Option<(Vec<String>, Result<R, String>)> {
        while let Ok((seq, warned, out)) = self.rx.try_recv() {
            self.held.insert(seq, (warned, out));
        }
        let out = self.held.remove(&self.next)?;
        self.next += 1;
        Some(out)
    }

    /// The next result in order, waiting for it.
    fn wait(&mut self) -> anyhow::Result<(Vec<String>, Result<R, String>)> {
        loop {
            if let Some(out) = self.ready() {
                return Ok(out);
            }
            let (seq, warned, out) = self
                .rx
                .recv()
                .map_err(|_| anyhow::anyhow!("a worker thread stopped"))?;
            self.held.insert(seq, (warned, out));
        }
    }
}

/// Output held back until the run succeeded: in memory up to a limit, then in an unnamed
/// temporary file, so a large run does not keep its whole output in memory.
pub struct Held {
    memory: Vec<u8>,
    file: Option<std::fs::File>,
}

const HELD_IN_MEMORY: usize = 16 << 20;

impl Held {
    pub fn new() -> Held {
        Held {
            memory: Vec::new(),
            file: None,
        }
    }

    pub fn push(&mut self, text: &str) -> std::io::Result<()> {
        self.memory.extend_from_slice(text.as_bytes());
        if self.memory.len() > HELD_IN_MEMORY {
            let file = match &mut self.file {
                Some(f) => f,
                None => self.file.insert(tempfile::tempfile()?),
            };
            file.write_all(&self.memory)?;
            self.memory.clear();
        }
        Ok(())
    }

    /// Writes everything held to `out`, in order.
    pub fn write_to(mut self, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(mut file) = self.file.take() {
            file.rewind()?;
            let mut buf = vec![0; 1 << 20];
            loop {
                let n = file.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                out.write_all(&buf[..n])?;
            }
        }
        out.write_all(&self.memory)
    }
}
