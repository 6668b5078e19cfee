//! JSON for the HTTP API: `serde_json`'s [`Value`] (the crate the match result files use too),
//! with the two things the server adds: building an object from `(key, value)` pairs, and a
//! parse error worded for a one-line HTTP 400 answer.

use crate::search::DECISIVE_CP;
use std::fmt;

pub use serde_json::Value;

/// A body that is not JSON: where and what, as serde_json says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError(String);

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed JSON: {}", self.0)
    }
}

impl std::error::Error for JsonError {}

/// Parses a request body (serde_json bounds nesting at 128 levels).
pub fn parse(text: &str) -> Result<Value, JsonError> {
    serde_json::from_str(text).map_err(|e| JsonError(e.to_string()))
}

/// A score as the page reads it: `{"cp": n}` (see [`cp`]) or `{"mate": n}`, from the
/// mover's view.
pub fn score(s: crate::record::game_record::EngineScore) -> Value {
    use crate::record::game_record::EngineScore;
    match s {
        EngineScore::Cp(c) => cp(c),
        EngineScore::Mate(m) => object([("mate", Value::from(m))]),
    }
}

/// A score in centi-men as the page reads it: `{"cp": n}`, with `"decisive": true` from
/// [`DECISIVE_CP`] on either way, which the page shows as "White winning" or "Black
/// winning" rather than a figure.
pub fn cp(c: i32) -> Value {
    if c.abs() >= DECISIVE_CP {
        object([("cp", Value::from(c)), ("decisive", Value::from(true))])
    } else {
        object([("cp", Value::from(c))])
    }
}

/// An object from its members in order.
pub fn object<K: Into<String>>(members: impl IntoIterator<Item = (K, Value)>) -> Value {
    Value::Object(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_and_errors() {
        let v = object([("a", Value::from(1u64)), ("b", Value::from("x"))]);
        assert_eq!(v.to_string(), r#"{"a":1,"b":"x"}"#);
        assert_eq!(parse(&v.to_string()).unwrap(), v);
        let e = parse(r#"{"move":"#).unwrap_err().to_string();
        assert!(e.starts_with("malformed JSON: EOF while parsing"), "{e}");
    }
}
