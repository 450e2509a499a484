//! A safe, owned view of libyaml's event stream (via `unsafe-libyaml`, the Rust port of the C
//! library that go-yaml v2 was itself ported from). All `unsafe` in the YAML reader lives here.

use std::ffi::CStr;
use std::mem::MaybeUninit;
use std::ptr::addr_of_mut;
use unsafe_libyaml as unsafe_sys;

/// How a scalar was written; only plain scalars are typed implicitly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScalarStyle {
    Plain,
    Quoted,
    Block,
}

#[derive(Debug)]
pub(crate) enum Event {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(String),
    Scalar {
        anchor: Option<String>,
        tag: Option<String>,
        value: String,
        style: ScalarStyle,
    },
    SequenceStart {
        anchor: Option<String>,
    },
    SequenceEnd,
    MappingStart {
        anchor: Option<String>,
    },
    MappingEnd,
}

/// A place in the input: 0-based line and column (in characters), as libyaml counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Mark {
    pub line: usize,
    pub column: usize,
}

/// A scanner or parser error: libyaml's problem text and the place it points at.
#[derive(Debug)]
pub(crate) struct SyntaxError {
    pub message: String,
    pub mark: Mark,
}

/// Pulls events out of one UTF-8 input. The libyaml parser is boxed so it never moves.
pub(crate) struct EventReader<'a> {
    parser: Box<MaybeUninit<unsafe_sys::yaml_parser_t>>,
    input: &'a [u8],
    failed: bool,
}

impl<'a> EventReader<'a> {
    pub fn new(input: &'a [u8]) -> Self {
        let mut parser = Box::new(MaybeUninit::<unsafe_sys::yaml_parser_t>::uninit());
        // SAFETY: initialise in place, then point the parser at `input`, which outlives it.
        unsafe {
            let p = parser.as_mut_ptr();
            if unsafe_sys::yaml_parser_initialize(p).fail {
                panic!("libyaml could not allocate a parser");
            }
            unsafe_sys::yaml_parser_set_input_string(p, input.as_ptr(), input.len() as u64);
        }
        EventReader {
            parser,
            input,
            failed: false,
        }
    }

    /// The next event and the place where it starts.
    pub fn next_event(&mut self) -> Result<(Event, Mark), SyntaxError> {
        if self.failed {
            return Err(SyntaxError {
                message: "parser already failed".into(),
                mark: Mark::default(),
            });
        }
        let mut event = MaybeUninit::<unsafe_sys::yaml_event_t>::uninit();
        // SAFETY: the parser was initialised in `new`; the event is only read after a
        // successful parse and is deleted before returning.
        unsafe {
            let p = self.parser.as_mut_ptr();
            let e = event.as_mut_ptr();
            if unsafe_sys::yaml_parser_parse(p, e).fail {
                self.failed = true;
                return Err(parser_error(p));
            }
            let mark = Mark {
                line: (*e).start_mark.line as usize,
                column: (*e).start_mark.column as usize,
            };
            let raw = &self.input[(*e).start_mark.index as usize..(*e).end_mark.index as usize];
            let double_quoted = (*e).type_ == unsafe_sys::YAML_SCALAR_EVENT
                && (*e).data.scalar.style == unsafe_sys::YAML_DOUBLE_QUOTED_SCALAR_STYLE;
            let converted = convert(&*e);
            unsafe_sys::yaml_event_delete(e);
            if double_quoted {
                if let Some(at) = slash_escape(raw) {
                    self.failed = true;
                    let before = &raw[..at];
                    let lines = before.iter().filter(|&&b| b == b'\n').count();
                    let line_start = before
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |i| i + 1);
                    let chars = String::from_utf8_lossy(&before[line_start..])
                        .chars()
                        .count();
                    return Err(SyntaxError {
                        message: "found unknown escape character '/' (YAML 1.1 has no \\/)".into(),
                        mark: Mark {
                            line: mark.line + lines,
                            column: if lines == 0 {
                                mark.column + chars
                            } else {
                                chars
                            },
                        },
                    });
                }
            }
            Ok((converted, mark))
        }
    }
}

impl Drop for EventReader<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` and deleted exactly once.
        unsafe { unsafe_sys::yaml_parser_delete(addr_of_mut!(*self.parser.as_mut_ptr())) }
    }
}

/// libyaml 0.2.5 accepts YAML 1.2's `\/` escape; go-yaml v2 (YAML 1.1) rejects it.
fn slash_escape(raw: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' {
            if raw.get(i + 1) == Some(&b'/') {
                return Some(i);
            }
            i += 1;
        }
        i += 1;
    }
    None
}

unsafe fn parser_error(p: *mut unsafe_sys::yaml_parser_t) -> SyntaxError {
    let prefix = &*p;
    let problem = c_string(prefix.problem.cast()).unwrap_or_else(|| "unknown error".into());
    let message = match c_string(prefix.context.cast()) {
        Some(context) => format!("{problem} ({context})"),
        None => problem,
    };
    SyntaxError {
        message,
        mark: Mark {
            line: prefix.problem_mark.line as usize,
            column: prefix.problem_mark.column as usize,
        },
    }
}

unsafe fn c_string(ptr: *const u8) -> Option<String> {
    if ptr.is_null() {
        return None;
    }
    Some(CStr::from_ptr(ptr.cast()).to_string_lossy().into_owned())
}

unsafe fn convert(e: &unsafe_sys::yaml_event_t) -> Event {
    match e.type_ {
        unsafe_sys::YAML_STREAM_START_EVENT => Event::StreamStart,
        unsafe_sys::YAML_STREAM_END_EVENT => Event::StreamEnd,
        unsafe_sys::YAML_DOCUMENT_START_EVENT => Event::DocumentStart,
        unsafe_sys::YAML_DOCUMENT_END_EVENT => Event::DocumentEnd,
        unsafe_sys::YAML_ALIAS_EVENT => {
            Event::Alias(c_string(e.data.alias.anchor).unwrap_or_default())
        }
        unsafe_sys::YAML_SCALAR_EVENT => {
            let s = &e.data.scalar;
            let bytes = std::slice::from_raw_parts(s.value, s.length as usize);
            Event::Scalar {
                anchor: c_string(s.anchor),
                tag: c_string(s.tag),
                value: String::from_utf8_lossy(bytes).into_owned(),
                style: match s.style {
                    unsafe_sys::YAML_PLAIN_SCALAR_STYLE => ScalarStyle::Plain,
                    unsafe_sys::YAML_LITERAL_SCALAR_STYLE
                    | unsafe_sys::YAML_FOLDED_SCALAR_STYLE => ScalarStyle::Block,
                    _ => ScalarStyle::Quoted,
                },
            }
        }
        unsafe_sys::YAML_SEQUENCE_START_EVENT => Event::SequenceStart {
            anchor: c_string(e.data.sequence_start.anchor),
        },
        unsafe_sys::YAML_SEQUENCE_END_EVENT => Event::SequenceEnd,
        unsafe_sys::YAML_MAPPING_START_EVENT => Event::MappingStart {
            anchor: c_string(e.data.mapping_start.anchor),
        },
        unsafe_sys::YAML_MAPPING_END_EVENT => Event::MappingEnd,
        _ => Event::StreamEnd,
    }
}
