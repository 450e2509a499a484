//! The limits of Go's regexp/syntax parser (`parse.go`): `checkSize` and `calcSize` (at most
//! `maxSize` instructions, `expression too large`), `checkHeight` and `calcHeight` (a tree at
//! most 1000 deep, `expression nests too deeply`) and `repeatIsValid` (nested counted
//! repetitions of at most 1000 copies).

use super::{error, Op, Parsed, Parser, LARGE, MAX_HEIGHT, MAX_SIZE, NESTING_DEPTH};
use std::collections::HashMap;

impl Parser<'_> {
    pub(super) fn check_limits(&mut self, id: usize) -> Parsed<()> {
        self.check_size(id)?;
        self.check_height(id)
    }

    /// `checkSize`: sizes are tracked once the node count times the repeat product could
    /// exceed the limit; cached sizes are kept as Go keeps them (a literal's may be stale).
    fn check_size(&mut self, id: usize) -> Parsed<()> {
        if self.size.is_none() {
            if self.repeats == 0 {
                self.repeats = 1;
            }
            let node = &self.nodes[id];
            if node.op == Op::Repeat {
                let mut n = if node.max == -1 { node.min } else { node.max };
                if n <= 0 {
                    n = 1;
                }
                if i64::from(n) > MAX_SIZE / self.repeats {
                    self.repeats = MAX_SIZE;
                } else {
                    self.repeats *= i64::from(n);
                }
            }
            if (self.num_regexp as i64) < MAX_SIZE / self.repeats {
                return Ok(());
            }
            self.size = Some(HashMap::new());
            for below in self.stack.clone() {
                self.check_size(below)?;
            }
        }
        if self.calc_size(id, true) > MAX_SIZE {
            return Err(error(LARGE, self.whole));
        }
        Ok(())
    }

    fn calc_size(&mut self, id: usize, force: bool) -> i64 {
        if !force {
            if let Some(size) = self.size.as_ref().and_then(|m| m.get(&id)) {
                return *size;
            }
        }
        let node = self.nodes[id].clone();
        let sub = |p: &mut Self| p.calc_size(node.subs[0], false);
        let size = match node.op {
            Op::Literal => node.runes.len() as i64,
            Op::Capture | Op::Star => 2 + sub(self),
            Op::Plus | Op::Quest => 1 + sub(self),
            Op::Concat | Op::Alternate => {
                let mut size: i64 = node.subs.iter().map(|s| self.calc_size(*s, false)).sum();
                if node.op == Op::Alternate && node.subs.len() > 1 {
                    size += node.subs.len() as i64 - 1;
                }
                size
            }
            Op::Repeat => {
                let sub = sub(self);
                match (node.min, node.max) {
                    (0, -1) => 2 + sub,
                    (min, -1) => 1 + i64::from(min) * sub,
                    (min, max) => i64::from(max) * sub + i64::from(max - min),
                }
            }
            _ => 0,
        }
        .max(1);
        if let Some(m) = &mut self.size {
            m.insert(id, size);
        }
        size
    }

    fn check_height(&mut self, id: usize) -> Parsed<()> {
        if self.num_regexp < MAX_HEIGHT {
            return Ok(());
        }
        if self.height.is_none() {
            self.height = Some(HashMap::new());
            for below in self.stack.clone() {
                self.check_height(below)?;
            }
        }
        if self.calc_height(id, true) > MAX_HEIGHT {
            return Err(error(NESTING_DEPTH, self.whole));
        }
        Ok(())
    }

    fn calc_height(&mut self, id: usize, force: bool) -> usize {
        if !force {
            if let Some(h) = self.height.as_ref().and_then(|m| m.get(&id)) {
                return *h;
            }
        }
        let subs = self.nodes[id].subs.clone();
        let h = subs
            .iter()
            .map(|s| 1 + self.calc_height(*s, false))
            .fold(1, usize::max);
        if let Some(m) = &mut self.height {
            m.insert(id, h);
        }
        h
    }

    /// `repeatIsValid`: nested counted repetitions give at most `n` copies.
    pub(super) fn repeat_is_valid(&self, id: usize, mut n: i32) -> bool {
        let node = &self.nodes[id];
        if node.op == Op::Repeat {
            let m = match node.max {
                0 => return true,
                m if m < 0 => node.min,
                m => m,
            };
            if m > n {
                return false;
            }
            if m > 0 {
                n /= m;
            }
        }
        node.subs.iter().all(|s| self.repeat_is_valid(*s, n))
    }
}
