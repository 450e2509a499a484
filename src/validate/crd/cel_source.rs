//! Where a CEL rule's tokens are, and cel-go's rendering of compile errors at them
//! (`common/errors.go` `Errors.ToDisplayString`, `common/error.go` `Error.ToDisplayString`):
//! the `cel` crate's parser keeps no source positions for an expression that parses, so the
//! positions of identifiers, field selections and call parentheses are found by lexing.

/// A compile error at a position: `line` from 1, `column` in code points from 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Located {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// cel-go's `Errors.ToDisplayString`: the errors sorted (stably) by line and column, each as
/// `ERROR: <input>:L:C: message`, the source line and a caret under the column.
pub(super) fn display(source: &str, errors: &[Located]) -> String {
    let mut sorted: Vec<&Located> = errors.iter().collect();
    sorted.sort_by_key(|e| (e.line, e.column));
    let lines: Vec<&str> = source.split('\n').collect();
    let rendered: Vec<String> = sorted
        .iter()
        .map(|e| {
            let mut out = format!("ERROR: <input>:{}:{}: {}", e.line, e.column + 1, e.message);
            if let Some(line) = e.line.checked_sub(1).and_then(|i| lines.get(i)) {
                let snippet = line.replace('\t', " ");
                out.push_str("\n | ");
                out.push_str(&snippet);
                out.push_str("\n | ");
                let mut chars = snippet.chars();
                for c in chars.by_ref().take(e.column) {
                    out.push(if c.len_utf8() > 1 { '\u{ff0e}' } else { '.' });
                }
                let wide = chars.next().is_some_and(|c| c.len_utf8() > 1);
                out.push(if wide { '\u{ff3e}' } else { '^' });
            }
            out
        })
        .collect();
    rendered.join("\n")
}

/// The tokens that matter for locating errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    Ident(String),
    Dot,
    Question,
    LParen,
    LBrace,
    /// Literals, operators and other punctuation.
    Other,
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub tok: Tok,
    pub line: usize,
    pub column: usize,
}

/// Splits a rule into tokens (strings, numbers and comments become `Other` or vanish); `None`
/// when the text has something the lexer does not know (then nothing is located).
pub(super) fn tokens(source: &str) -> Option<Vec<Token>> {
    let chars: Vec<char> = source.chars().collect();
    let (mut i, mut line, mut line_start) = (0, 1, 0);
    let mut out = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        let at = |tok: Tok, i: usize, line: usize, line_start: usize| Token {
            tok,
            line,
            column: i - line_start,
        };
        if c == '\n' {
            i += 1;
            line += 1;
            line_start = i;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        let string_start = match c {
            '"' | '\'' => Some(i),
            'r' | 'R' | 'b' | 'B' if matches!(chars.get(i + 1), Some('"' | '\'')) => Some(i + 1),
            'r' | 'R' | 'b' | 'B'
                if matches!(chars.get(i + 1), Some('r' | 'R' | 'b' | 'B'))
                    && matches!(chars.get(i + 2), Some('"' | '\'')) =>
            {
                Some(i + 2)
            }
            _ => None,
        };
        if let Some(q) = string_start {
            out.push(at(Tok::Other, i, line, line_start));
            let raw = chars[i..q].iter().any(|c| matches!(c, 'r' | 'R'));
            let quote = chars[q];
            let triple = chars.get(q + 1) == Some(&quote) && chars.get(q + 2) == Some(&quote);
            let mut j = q + if triple { 3 } else { 1 };
            loop {
                let ch = *chars.get(j)?;
                if ch == '\n' {
                    if !triple {
                        return None;
                    }
                    line += 1;
                    line_start = j + 1;
                }
                if ch == '\\' && !raw {
                    j += 2;
                    continue;
                }
                if ch == quote
                    && (!triple
                        || (chars.get(j + 1) == Some(&quote) && chars.get(j + 2) == Some(&quote)))
                {
                    j += if triple { 3 } else { 1 };
                    break;
                }
                j += 1;
            }
            i = j;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let tok = match word.as_str() {
                "true" | "false" | "null" | "in" => Tok::Other,
                _ => Tok::Ident(word),
            };
            out.push(at(tok, start, line, line_start));
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                // A field selection after a number (`1.size()`) is not CEL anyway.
                i += 1;
            }
            out.push(at(Tok::Other, start, line, line_start));
            continue;
        }
        if c == '`' {
            return None;
        }
        let tok = match c {
            '.' => Tok::Dot,
            '?' => Tok::Question,
            '(' => Tok::LParen,
            '{' => Tok::LBrace,
            _ => Tok::Other,
        };
        out.push(at(tok, i, line, line_start));
        i += 1;
    }
    Some(out)
}

/// The positions of the tokens the checker reports at, in source order.
#[derive(Debug, Default)]
pub(super) struct Positions {
    /// Identifiers in primary position (not after `.`, not before `(`), by name.
    pub idents: Vec<(String, Token)>,
    /// `.name` selections (not calls): the `.`; `optional` for `.?name`.
    pub selects: Vec<(String, bool, Token)>,
    /// The `(` of calls of `name` (global or member).
    pub calls: Vec<(String, Token)>,
    /// Whether a `Name{` message construction appears.
    pub messages: bool,
}

pub(super) fn positions(tokens: &[Token]) -> Positions {
    let mut p = Positions::default();
    for (i, t) in tokens.iter().enumerate() {
        let Tok::Ident(name) = &t.tok else { continue };
        let prev = i.checked_sub(1).map(|j| &tokens[j].tok);
        let prev2 = i.checked_sub(2).map(|j| &tokens[j].tok);
        let next = tokens.get(i + 1);
        if let Some(open) = next.filter(|n| n.tok == Tok::LParen) {
            p.calls.push((name.clone(), open.clone()));
            continue;
        }
        if next.is_some_and(|n| n.tok == Tok::LBrace) {
            p.messages = true;
        }
        match (prev2, prev) {
            (Some(Tok::Dot), Some(Tok::Question)) => {
                p.selects.push((name.clone(), true, tokens[i - 2].clone()));
            }
            (_, Some(Tok::Dot)) => {
                p.selects.push((name.clone(), false, tokens[i - 1].clone()));
            }
            _ => p.idents.push((name.clone(), t.clone())),
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_like_cel_go() {
        let errors = [
            Located {
                line: 1,
                column: 9,
                message: "b".into(),
            },
            Located {
                line: 1,
                column: 4,
                message: "a".into(),
            },
        ];
        assert_eq!(
            display("self.foo > ü1", &errors),
            "ERROR: <input>:1:5: a\n | self.foo > ü1\n | ....^\nERROR: <input>:1:10: b\n | self.foo > ü1\n | .........^"
        );
        let wide = [Located {
            line: 1,
            column: 2,
            message: "c".into(),
        }];
        assert_eq!(
            display("'ü'", &wide),
            "ERROR: <input>:1:3: c\n | 'ü'\n | .．^"
        );
    }

    #[test]
    fn finds_identifiers_selections_and_calls() {
        let t = tokens("has(self.a) && x.?b.size() > 0 // c.d\n|| 'e.f' == y").unwrap();
        let p = positions(&t);
        let idents: Vec<_> = p
            .idents
            .iter()
            .map(|(n, t)| (n.as_str(), t.line, t.column))
            .collect();
        assert_eq!(idents, [("self", 1, 4), ("x", 1, 15), ("y", 2, 12)]);
        let selects: Vec<_> = p
            .selects
            .iter()
            .map(|(n, o, t)| (n.as_str(), *o, t.column))
            .collect();
        assert_eq!(selects, [("a", false, 8), ("b", true, 16)]);
        let calls: Vec<_> = p
            .calls
            .iter()
            .map(|(n, t)| (n.as_str(), t.column))
            .collect();
        assert_eq!(calls, [("has", 3), ("size", 24)]);
    }
}
