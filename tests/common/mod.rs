//! Helpers shared by the integration tests.

#![allow(dead_code)]

pub mod deadline;
pub mod docs;
pub mod gui;
pub mod latency;
pub mod rules;
pub mod serve;
pub mod terminal;
