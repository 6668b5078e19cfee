//! The server's one error type, below every other part of it: a refused request (or a refused
//! step inside one) is an [`ApiError`], a kind and one line saying why. Only the HTTP layer
//! turns a kind into a status code ([`ErrorKind::status`]); the games and sessions name the
//! kind of refusal, not a number.
//!
//! Every message is one line and bounded ([`bounded_line`]): input quoted in it is cut to
//! [`crate::protocol::quote::QUOTE_CHARS`] characters (by [`quote`] where the server words
//! it, and again for any quoted stretch a lower layer's error holds), and the whole message
//! to [`MAX_MESSAGE_CHARS`], the ellipsis included, with any line break or other control
//! character made a space.

use std::fmt;

use crate::protocol::quote::bounded_line;
pub use crate::protocol::quote::quote;

/// The longest message an error carries, in characters, an ellipsis included (a list of
/// legal moves fits).
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// What kind of refusal it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Malformed: the JSON, a field, a move's text, the request itself (400).
    BadRequest,
    /// Another site's page, or a `Host` this server is not (403).
    Forbidden,
    /// No such game or path (404).
    NotFound,
    /// The path exists for another method (405).
    MethodNotAllowed,
    /// The body came too slowly (408).
    Timeout,
    /// Not now: the engine's turn, the game is over (409).
    Conflict,
    /// The body is over the limit (413).
    TooLarge,
    /// A body that is not `application/json` (415).
    UnsupportedMediaType,
    /// A well-formed move that is illegal or ambiguous (422).
    Unprocessable,
    /// The server failed: it could not start an engine or a thread (500).
    Internal,
    /// A limit is reached: games, event streams, connections (503).
    Busy,
}

impl ErrorKind {
    /// Every kind.
    pub const ALL: [ErrorKind; 11] = [
        ErrorKind::BadRequest,
        ErrorKind::Forbidden,
        ErrorKind::NotFound,
        ErrorKind::MethodNotAllowed,
        ErrorKind::Timeout,
        ErrorKind::Conflict,
        ErrorKind::TooLarge,
        ErrorKind::UnsupportedMediaType,
        ErrorKind::Unprocessable,
        ErrorKind::Internal,
        ErrorKind::Busy,
    ];

    /// The HTTP status code.
    pub fn status(self) -> u16 {
        match self {
            ErrorKind::BadRequest => 400,
            ErrorKind::Forbidden => 403,
            ErrorKind::NotFound => 404,
            ErrorKind::MethodNotAllowed => 405,
            ErrorKind::Timeout => 408,
            ErrorKind::Conflict => 409,
            ErrorKind::TooLarge => 413,
            ErrorKind::UnsupportedMediaType => 415,
            ErrorKind::Unprocessable => 422,
            ErrorKind::Internal => 500,
            ErrorKind::Busy => 503,
        }
    }
}

/// A refused request: its kind and one line saying why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// What kind of refusal.
    pub kind: ErrorKind,
    /// Why, in one line of at most [`MAX_MESSAGE_CHARS`] characters.
    pub message: String,
}

impl ApiError {
    /// An error of `kind` saying `message` (made one line and bounded).
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> ApiError {
        ApiError {
            kind,
            message: bounded_line(&message.into(), MAX_MESSAGE_CHARS),
        }
    }

    /// The HTTP status code.
    pub fn status(&self) -> u16 {
        self.kind.status()
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ApiError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_bounded_line() {
        let e = ApiError::new(ErrorKind::BadRequest, "a\nb\r\tc");
        assert_eq!(e.message, "a b  c");
        assert_eq!(e.status(), 400);
        let long = "x".repeat(100_000);
        let e = ApiError::new(ErrorKind::NotFound, format!("no game '{}'", quote(&long)));
        assert!(e.message.chars().count() <= MAX_MESSAGE_CHARS);
        assert!(
            e.message.contains("(100000 characters in all)"),
            "{}",
            e.message
        );
        let e = ApiError::new(ErrorKind::Conflict, "y".repeat(5000));
        assert_eq!(e.message.chars().count(), MAX_MESSAGE_CHARS);
        assert!(e.message.ends_with("y..."));
        // A lower layer's error that quotes its input whole is cut too.
        let e = ApiError::new(ErrorKind::BadRequest, format!("bad move '{long}': no"));
        assert!(!e.message.contains(&"x".repeat(201)), "{}", e.message);
    }

    #[test]
    fn every_kind_is_a_distinct_4xx_or_5xx() {
        let mut seen = std::collections::HashSet::new();
        for k in ErrorKind::ALL {
            assert!((400..600).contains(&k.status()), "{k:?}");
            assert!(seen.insert(k.status()), "{k:?} shares its status");
        }
    }
}
