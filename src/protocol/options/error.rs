//! What is wrong with a `setoption`, in the one line the engine answers with.

use crate::games::kit::nnue::NetError;
use crate::protocol::quote::bounded_line;
use std::fmt;

/// What is wrong with a `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No such option.
    Unknown(String),
    /// A spin or check option without `value`.
    MissingValue(&'static str),
    /// A value that is not of the option's type (option, value, what is expected).
    BadValue(&'static str, String, &'static str),
    /// A number outside the option's range (option, value as given, min, max).
    OutOfRange(&'static str, String, u64, u64),
    /// More hash than the machine has available (asked, available, MiB).
    NotEnoughMemory(u64, u64),
    /// The `EvalFile` could not be used.
    Net(NetError),
    /// The `EGDBPath` could not be read (why, in one line).
    Egdb(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => {
                write!(
                    f,
                    "setoption: unknown option '{}'",
                    crate::protocol::command::quote(n)
                )
            }
            OptionError::MissingValue(n) => write!(f, "setoption: option '{n}' needs 'value <x>'"),
            OptionError::BadValue(n, v, what) => {
                let v = crate::protocol::command::quote(v);
                write!(
                    f,
                    "setoption: option '{n}' needs {what}, got '{v}'; not changed"
                )
            }
            OptionError::OutOfRange(n, v, lo, hi) => {
                write!(f, "setoption: {n} {v} is outside {lo}..{hi}; not changed")
            }
            OptionError::NotEnoughMemory(asked, avail) => write!(
                f,
                "setoption: Hash {asked} MiB is more than the {avail} MiB of memory available; \
                 not changed"
            ),
            // A network's error quotes its file's name: cut there if long.
            OptionError::Net(e) => {
                let e = bounded_line(&e.to_string(), usize::MAX);
                write!(f, "setoption: EvalFile: {e}; network not changed")
            }
            OptionError::Egdb(e) => write!(f, "setoption: EGDBPath: {e}; not changed"),
        }
    }
}

impl std::error::Error for OptionError {}
