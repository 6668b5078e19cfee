//! The integration tests: one test crate, so that one binary is built and linked for all of
//! them (45 separate crates took most of the test build in linking). Each module is one
//! concern and drives the real `bashni` binary, or the library, as its users would.
//! Run one module with `cargo test --profile suite -- <module>::`.

mod common;
mod differential_kit;
mod reference;

mod analyse;
mod architecture;
mod bench;
mod books;
mod closed_pipe;
mod datagen;
mod differential;
mod differential_lasca;
mod differential_russian;
mod differential_turkish;
mod doc_examples;
mod doc_facts;
mod doc_links;
mod egdb;
mod egdb_hostile;
mod egdb_search;
mod engine_resources;
mod files;
mod fuzz_readers;
mod help_examples;
mod hostile_pdn;
mod hub;
mod hub_pydraughts;
mod levels;
mod match_hub;
mod matchrun;
mod mates;
mod nnue;
mod play;
mod protocol;
mod protocol_game_state;
mod protocol_order;
mod protocol_stress;
mod protocol_variants;
mod reference_selftest;
mod review;
mod rules;
mod rules_lasca;
mod rules_russian;
mod rules_turkish;
mod score_units;
mod search;
mod serve;
mod serve_abuse;
mod serve_comments;
mod serve_egdb;
mod serve_hostile;
mod serve_play;
mod serve_review;
mod serve_review_fixed;
mod serve_tabs;
mod shards;
mod slurm;
mod sparring;
mod standard_fen;
mod tune;
mod turkish_kish;
mod variants_cli;
