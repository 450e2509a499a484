//! The parse stack of Go's regexp/syntax parser (`parse.go`): `concat`, `alternate`,
//! `collapse` (without `factor`, which only changes sizes), `swapVerticalBar` and
//! `mergeCharClass` for alternatives, `parseVerticalBar` and `parseRightParen`.

use super::{error, Op, Parsed, Parser, UNEXPECTED_PAREN};

impl Parser<'_> {
    /// The stack above the topmost pseudo-operator, taken off.
    fn take_operands(&mut self) -> Vec<usize> {
        let mut i = self.stack.len();
        while i > 0 && self.op_of(self.stack[i - 1]) < Op::LeftParen {
            i -= 1;
        }
        self.stack.split_off(i)
    }

    pub(super) fn concat(&mut self) -> Parsed<()> {
        self.maybe_concat();
        let subs = self.take_operands();
        let id = if subs.is_empty() {
            self.new_node(Op::EmptyMatch)
        } else {
            self.collapse(subs, Op::Concat)
        };
        self.push(id).map(drop)
    }

    pub(super) fn alternate(&mut self) -> Parsed<()> {
        let subs = self.take_operands();
        let id = if subs.is_empty() {
            self.new_node(Op::NoMatch)
        } else {
            self.collapse(subs, Op::Alternate)
        };
        self.push(id).map(drop)
    }

    /// `collapse` (without `factor`): one node of `op` over `subs`, flattening nested ones.
    fn collapse(&mut self, subs: Vec<usize>, op: Op) -> usize {
        if subs.len() == 1 {
            return subs[0];
        }
        let re = self.new_node(op);
        let mut all = Vec::new();
        for sub in subs {
            if self.op_of(sub) == op {
                all.extend(self.nodes[sub].subs.clone());
                self.reuse(sub);
            } else {
                all.push(sub);
            }
        }
        self.nodes[re].subs = all;
        re
    }

    fn is_char_class(&self, id: usize) -> bool {
        let node = &self.nodes[id];
        (node.op == Op::Literal && node.runes.len() == 1)
            || matches!(node.op, Op::CharClass | Op::AnyCharNotNL | Op::AnyChar)
    }

    /// `swapVerticalBar`: merges `x|y` of two single characters or classes, or moves the
    /// vertical bar above the alternative just parsed.
    pub(super) fn swap_vertical_bar(&mut self) -> bool {
        let n = self.stack.len();
        if n >= 3
            && self.op_of(self.stack[n - 2]) == Op::VerticalBar
            && self.is_char_class(self.stack[n - 1])
            && self.is_char_class(self.stack[n - 3])
        {
            let (mut re1, mut re3) = (self.stack[n - 1], self.stack[n - 3]);
            if self.op_of(re1) > self.op_of(re3) {
                (re1, re3) = (re3, re1);
                self.stack[n - 3] = re3;
            }
            self.merge_char_class(re3, re1);
            self.reuse(re1);
            self.stack.pop();
            return true;
        }
        if n >= 2 && self.op_of(self.stack[n - 2]) == Op::VerticalBar {
            self.stack.swap(n - 1, n - 2);
            return true;
        }
        false
    }

    /// `mergeCharClass`, as far as the node's kind goes (class contents are not kept).
    fn merge_char_class(&mut self, dst: usize, src: usize) {
        let (d, s) = (&self.nodes[dst], &self.nodes[src]);
        match d.op {
            Op::AnyCharNotNL if s.op == Op::Literal && s.runes == [10] => {
                self.nodes[dst].op = Op::AnyChar;
            }
            Op::Literal if !(s.runes.first() == d.runes.first() && s.flags == d.flags) => {
                self.nodes[dst].op = Op::CharClass;
                self.nodes[dst].runes.clear();
            }
            _ => {}
        }
    }

    pub(super) fn parse_vertical_bar(&mut self) -> Parsed<()> {
        self.concat()?;
        if !self.swap_vertical_bar() {
            self.op(Op::VerticalBar)?;
        }
        Ok(())
    }

    pub(super) fn parse_right_paren(&mut self) -> Parsed<()> {
        self.concat()?;
        if self.swap_vertical_bar() {
            self.stack.pop();
        }
        self.alternate()?;
        let n = self.stack.len();
        if n < 2 {
            return Err(error(UNEXPECTED_PAREN, self.whole));
        }
        let re1 = self.stack.pop().expect("two on the stack");
        let re2 = self.stack.pop().expect("two on the stack");
        if self.op_of(re2) != Op::LeftParen {
            return Err(error(UNEXPECTED_PAREN, self.whole));
        }
        self.flags = self.nodes[re2].flags;
        if self.nodes[re2].cap == 0 {
            self.push(re1)?;
        } else {
            self.nodes[re2].op = Op::Capture;
            self.nodes[re2].subs = vec![re1];
            self.push(re2)?;
        }
        Ok(())
    }
}
