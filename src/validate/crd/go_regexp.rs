//! Whether Go's `regexp.Compile` accepts a CRD's `pattern`, and if not, its error text: a port
//! of the parts of Go's regexp/syntax `parse.go` (`parse`, `parser.repeat`, `parsePerlFlags`,
//! `parseRepeat`, `parseEscape`, `parseClass`, `parseUnicodeClass`, the size and height limits)
//! that decide the error and the piece of the expression it quotes. Not a regex engine: a
//! pattern Go accepts is also written in the `regex` crate's syntax with Go's meaning
//! (`rust.rs`), which custom resources are matched with.
//!
//! Not reproduced: the contents of character classes (a one-rune class such as `[a]` stays a
//! class, where Go makes it a literal), `factor` of alternations and the rune-count limit; they
//! only move the thresholds of `expression too large` and `expression nests too deeply`.
//! `invalid UTF-8` cannot happen: a decoded manifest's strings are UTF-8.

use std::collections::HashMap;
use std::fmt;

/// `syntax.Error`: a code and the offending piece of the expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoRegexpError {
    pub code: &'static str,
    pub expr: String,
}

impl fmt::Display for GoRegexpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error parsing regexp: {}: `{}`", self.code, self.expr)
    }
}

const INVALID_CHAR_RANGE: &str = "invalid character class range";
const INVALID_ESCAPE: &str = "invalid escape sequence";
const INVALID_NAMED_CAPTURE: &str = "invalid named capture";
const INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
const INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
const INVALID_REPEAT_SIZE: &str = "invalid repeat count";
const MISSING_BRACKET: &str = "missing closing ]";
const MISSING_PAREN: &str = "missing closing )";
const MISSING_REPEAT_ARGUMENT: &str = "missing argument to repetition operator";
const TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
const UNEXPECTED_PAREN: &str = "unexpected )";
const NESTING_DEPTH: &str = "expression nests too deeply";
const LARGE: &str = "expression too large";

/// `maxHeight` of a parse tree.
const MAX_HEIGHT: usize = 1000;
/// `maxSize`: 128 MiB of 40-byte instructions.
const MAX_SIZE: i64 = (128 << 20) / 40;

// The parse flags (`syntax.Flags`) that matter here; `regexp.Compile` parses with `Perl`.
const FOLD_CASE: u16 = 1;
const CLASS_NL: u16 = 1 << 2;
const DOT_NL: u16 = 1 << 3;
const ONE_LINE: u16 = 1 << 4;
const NON_GREEDY: u16 = 1 << 5;
const PERL_X: u16 = 1 << 6;
const UNICODE_GROUPS: u16 = 1 << 7;
const PERL: u16 = CLASS_NL | ONE_LINE | PERL_X | UNICODE_GROUPS;

/// `syntax.Op`, in Go's order (the order matters when two classes of an alternation merge),
/// with the parser's two pseudo-operators last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Op {
    NoMatch,
    EmptyMatch,
    Literal,
    CharClass,
    AnyCharNotNL,
    AnyChar,
    BeginLine,
    EndLine,
    BeginText,
    EndText,
    WordBoundary,
    NoWordBoundary,
    Capture,
    Star,
    Plus,
    Quest,
    Repeat,
    Concat,
    Alternate,
    LeftParen,
    VerticalBar,
}

#[derive(Debug, Clone)]
struct Node {
    op: Op,
    flags: u16,
    /// A literal's runes.
    runes: Vec<u32>,
    min: i32,
    max: i32,
    cap: usize,
    subs: Vec<usize>,
}

type Parsed<T> = Result<T, GoRegexpError>;

fn error(code: &'static str, expr: &str) -> GoRegexpError {
    GoRegexpError {
        code,
        expr: expr.to_string(),
    }
}

/// The part of `from` before `rest` (Go's `s[:len(s)-len(t)]`).
fn before<'a>(from: &'a str, rest: &str) -> &'a str {
    &from[..from.len() - rest.len()]
}

/// `regexp.Compile(pattern)`'s error, if any, with the `\p{…}` names of `names`.
pub fn compile(pattern: &str, names: UnicodeNames) -> Result<(), GoRegexpError> {
    translate(pattern, names).map(drop)
}

/// The `regex` crate's expression with the meaning of Go's `pattern`: as `translate` writes
/// it, as deep as Go allows (1000); one Go refuses (which the server refuses in a CRD) is
/// compiled as it is.
pub fn regex(pattern: &str) -> Result<regex::Regex, String> {
    let translated = translate(pattern, UnicodeNames::Canonical);
    regex::RegexBuilder::new(translated.as_deref().unwrap_or(pattern))
        .nest_limit(MAX_HEIGHT as u32 + 1)
        .build()
        .map_err(|e| e.to_string())
}

/// A pattern Go accepts, in the `regex` crate's syntax with the same meaning (`rust.rs`); or
/// Go's error.
pub fn translate(pattern: &str, names: UnicodeNames) -> Result<String, GoRegexpError> {
    let mut p = Parser {
        out: String::new(),
        flags: PERL,
        nodes: Vec::new(),
        stack: Vec::new(),
        free: Vec::new(),
        num_cap: 0,
        whole: pattern,
        num_regexp: 0,
        repeats: 0,
        size: None,
        height: None,
        names,
    };
    p.parse()?;
    Ok(p.out)
}

struct Parser<'a> {
    /// The pattern for the `regex` crate, so far.
    out: String,
    flags: u16,
    /// Every node allocated; an index stands for Go's pointer.
    nodes: Vec<Node>,
    stack: Vec<usize>,
    /// Nodes given back for reuse (Go's free list).
    free: Vec<usize>,
    num_cap: usize,
    whole: &'a str,
    num_regexp: usize,
    /// The product of the repeat counts seen, until sizes are tracked.
    repeats: i64,
    size: Option<HashMap<usize, i64>>,
    height: Option<HashMap<usize, usize>>,
    names: UnicodeNames,
}

impl<'a> Parser<'a> {
    fn new_node(&mut self, op: Op) -> usize {
        let node = Node {
            op,
            flags: 0,
            runes: Vec::new(),
            min: 0,
            max: 0,
            cap: 0,
            subs: Vec::new(),
        };
        if let Some(id) = self.free.pop() {
            self.nodes[id] = node;
            id
        } else {
            self.num_regexp += 1;
            self.nodes.push(node);
            self.nodes.len() - 1
        }
    }

    fn reuse(&mut self, id: usize) {
        if let Some(h) = &mut self.height {
            h.remove(&id);
        }
        self.free.push(id);
    }

    fn op_of(&self, id: usize) -> Op {
        self.nodes[id].op
    }

    /// `push`, with the incremental concatenation of literals (`maybeConcat`).
    fn push(&mut self, id: usize) -> Parsed<usize> {
        self.maybe_concat();
        self.stack.push(id);
        self.check_limits(id)?;
        Ok(id)
    }

    /// `maybeConcat(-1, 0)`: merges the two literals on top of the stack.
    fn maybe_concat(&mut self) {
        let n = self.stack.len();
        if n < 2 {
            return;
        }
        let (re1, re2) = (self.stack[n - 1], self.stack[n - 2]);
        let (a, b) = (&self.nodes[re1], &self.nodes[re2]);
        if a.op != Op::Literal || b.op != Op::Literal || a.flags & FOLD_CASE != b.flags & FOLD_CASE
        {
            return;
        }
        let runes = std::mem::take(&mut self.nodes[re1].runes);
        self.nodes[re2].runes.extend(runes);
        self.stack.pop();
        self.reuse(re1);
    }

    fn literal(&mut self, c: u32) -> Parsed<()> {
        let id = self.new_node(Op::Literal);
        self.nodes[id].flags = self.flags;
        self.nodes[id].runes = vec![c];
        self.push(id).map(drop)
    }

    fn op(&mut self, op: Op) -> Parsed<usize> {
        let id = self.new_node(op);
        self.nodes[id].flags = self.flags;
        self.push(id)
    }

    /// `repeat`: `from` starts at the operator, `after` follows it; `last` is the previous
    /// operator's text when it came right before.
    fn repeat(
        &mut self,
        op: Op,
        (min, max): (i32, i32),
        from: &'a str,
        mut after: &'a str,
        last: &'a str,
    ) -> Parsed<&'a str> {
        let mut flags = self.flags;
        if self.flags & PERL_X != 0 {
            if let Some(rest) = after.strip_prefix('?') {
                after = rest;
                flags ^= NON_GREEDY;
            }
            if !last.is_empty() {
                return Err(error(INVALID_REPEAT_OP, before(last, after)));
            }
        }
        let Some(&sub) = self.stack.last() else {
            return Err(error(MISSING_REPEAT_ARGUMENT, before(from, after)));
        };
        if self.op_of(sub) >= Op::LeftParen {
            return Err(error(MISSING_REPEAT_ARGUMENT, before(from, after)));
        }
        let re = self.new_node(op);
        let node = &mut self.nodes[re];
        (node.min, node.max, node.flags, node.subs) = (min, max, flags, vec![sub]);
        *self.stack.last_mut().expect("checked above") = re;
        self.check_limits(re)?;
        if op == Op::Repeat && (min >= 2 || max >= 2) && !self.repeat_is_valid(re, 1000) {
            return Err(error(INVALID_REPEAT_SIZE, before(from, after)));
        }
        Ok(after)
    }

    fn parse(&mut self) -> Parsed<()> {
        let whole = self.whole;
        let mut t = whole;
        let mut last_repeat = "";
        while let Some(first) = t.chars().next() {
            let mut repeat = "";
            let start = t;
            let mut emit = Emit::Verbatim;
            match first {
                '(' if t.as_bytes().get(1) == Some(&b'?') => t = self.parse_perl_flags(t)?,
                '(' => {
                    self.num_cap += 1;
                    let id = self.op(Op::LeftParen)?;
                    self.nodes[id].cap = self.num_cap;
                    t = &t[1..];
                }
                '|' => {
                    self.parse_vertical_bar()?;
                    t = &t[1..];
                }
                ')' => {
                    self.parse_right_paren()?;
                    t = &t[1..];
                }
                '^' | '$' | '.' => {
                    let one_line = self.flags & ONE_LINE != 0;
                    self.op(match first {
                        '^' if one_line => Op::BeginText,
                        '^' => Op::BeginLine,
                        '$' if one_line => Op::EndText,
                        '$' => Op::EndLine,
                        _ if self.flags & DOT_NL != 0 => Op::AnyChar,
                        _ => Op::AnyCharNotNL,
                    })?;
                    t = &t[1..];
                }
                '[' => {
                    t = self.parse_class(t)?;
                    emit = Emit::Done;
                }
                '*' | '+' | '?' => {
                    let op = match first {
                        '*' => Op::Star,
                        '+' => Op::Plus,
                        _ => Op::Quest,
                    };
                    let from = t;
                    t = self.repeat(op, (0, 0), from, &from[1..], last_repeat)?;
                    repeat = from;
                }
                '{' => match parse_repeat(t) {
                    None => {
                        self.literal(u32::from('{'))?;
                        t = &t[1..];
                        emit = Emit::Literal('{');
                    }
                    Some((min, max, after)) => {
                        if !(0..=1000).contains(&min) || max > 1000 || (max >= 0 && min > max) {
                            return Err(error(INVALID_REPEAT_SIZE, before(t, after)));
                        }
                        let from = t;
                        t = self.repeat(Op::Repeat, (min, max), from, after, last_repeat)?;
                        repeat = from;
                    }
                },
                '\\' => {
                    t = self.parse_backslash(t)?;
                    emit = Emit::Done;
                }
                c => {
                    self.literal(u32::from(c))?;
                    t = &t[c.len_utf8()..];
                    emit = Emit::Literal(c);
                }
            }
            let text = before(start, t);
            match emit {
                // Names do not change what matches, and the crate refuses repeated ones.
                Emit::Verbatim if text.starts_with("(?P<") || text.starts_with("(?<") => {
                    self.out.push('(');
                }
                Emit::Verbatim => self.out.push_str(text),
                Emit::Literal(c) => rust::literal(&mut self.out, u32::from(c)),
                Emit::Done => {}
            }
            last_repeat = repeat;
        }
        self.concat()?;
        if self.swap_vertical_bar() {
            self.stack.pop();
        }
        self.alternate()?;
        if self.stack.len() != 1 {
            return Err(error(MISSING_PAREN, whole));
        }
        Ok(())
    }
}

/// How a token of `parse` goes into the crate's pattern: as written (operators, groups and
/// flags mean the same in both), as an escaped literal, or already written by its parser.
enum Emit {
    Verbatim,
    Literal(char),
    Done,
}

/// `parseRepeat`: `{min}`, `{min,}` (max -1) or `{min,max}` and the rest; `None` when `s` is
/// not of that form; a min of -1 for numbers too large.
fn parse_repeat(s: &str) -> Option<(i32, i32, &str)> {
    let s = s.strip_prefix('{')?;
    let (mut min, s) = parse_int(s)?;
    let (max, s) = match s.strip_prefix(',') {
        None if s.is_empty() => return None,
        None => (min, s),
        Some("") => return None,
        Some(rest) if rest.starts_with('}') => (-1, rest),
        Some(rest) => {
            let (max, rest) = parse_int(rest)?;
            if max < 0 {
                min = -1;
            }
            (max, rest)
        }
    };
    let rest = s.strip_prefix('}')?;
    Some((min, max, rest))
}

/// `parseInt`: decimal digits without a leading zero; -1 past 10^8.
fn parse_int(s: &str) -> Option<(i32, &str)> {
    let b = s.as_bytes();
    if !b.first()?.is_ascii_digit() || (b.len() >= 2 && b[0] == b'0' && b[1].is_ascii_digit()) {
        return None;
    }
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut n: i32 = 0;
    for d in &b[..digits] {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i32::from(d - b'0');
    }
    Some((n, &s[digits..]))
}

mod classes;
mod limits;
mod names;
mod rust;
mod stack;
#[cfg(test)]
mod tests;

pub use names::UnicodeNames;
