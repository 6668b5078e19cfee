//! A client of the engine protocol (engine-protocol.md): one engine program started as a child
//! process and driven over its stdin/stdout, as `bashni match` and `bashni serve` use it
//! ([`engine`], [`spec`], natively), and the reading of what an engine answers ([`reply`],
//! [`info`]), which the browser's in-process engines share.

#[cfg(feature = "native")]
pub mod engine;
pub mod info;
pub mod reply;
#[cfg(feature = "native")]
pub mod spec;
