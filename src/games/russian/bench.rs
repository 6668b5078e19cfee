//! The positions `bashni bench --variant russian` searches: its fingerprint.

use crate::games::russian::notation::START_FEN;

/// Russian draughts' bench positions: the start, and positions of self-play games (`bashni
/// datagen --variant russian`, hand-set evaluation, 5000 nodes a move) from every phase.
pub const POSITIONS: &[&str] = &[
    START_FEN,
    "1b1b1b1b/b1b1b1b1/3b3b/b7/5w1w/w1w5/1w3w1w/w1w1w1w1 w 0 4",
    "1b3b1b/b1b1b1b1/1b1b3b/6b1/1w6/w5w1/1w1w1w1w/w1w1w1w1 w 0 4",
    "1b1b1b1b/2b1b1b1/3b3b/2b5/5w2/w3w3/3w1w1w/w1w1w1w1 w 0 5",
    "1b1b1b1b/6b1/1b3b1b/b1b5/8/w1w1w3/1w3w1w/w1w1w1w1 w 0 6",
    "1b1b1b1b/b1b3b1/7b/8/3b4/w5w1/3w1w1w/w1w1w1w1 w 0 6",
    "1b1b1b1b/b3b3/5b2/b5w1/1b5w/2w1w3/1w1w4/w3w1w1 w 0 10",
    "3b1b1b/2b1b3/3b1b1b/w1b5/8/4w1w1/1w5w/w1w1w1w1 w 0 8",
    "1b1b3b/4b3/1b1b3b/b7/5w2/w1w1w3/3w4/w1w1w3 b 0 10",
    "1b1b1b1b/b1b5/7b/2b5/5w2/w1w1w3/8/w1w1w1w1 b 0 8",
    "1b1b1b1b/b1b5/8/2b3b1/8/w1w1w3/1w6/w1w1w1w1 w 0 8",
    "1b3b1b/b5b1/5b1b/8/5w2/w7/5w2/w1w1w1w1 b 0 9",
    "1b3b2/2b3b1/5b1b/2w5/7w/6w1/7w/w3w1w1 b 0 15",
    "1b1b4/w5b1/3b3b/8/7w/b5w1/1w6/2w3w1 b 0 20",
    "5b2/2b3b1/3b3b/8/1b1w1w1b/4w1w1/5w2/w5w1 b 0 16",
    "5b1b/2b3b1/3b4/4b3/1w5w/w1w5/3w3w/8 w 0 18",
    "1b3b2/4b3/5b2/b7/7w/2w1w3/3w4/2w5 b 0 20",
    "5b2/8/1b3b2/b7/5w1w/6w1/8/w1w5 b 0 20",
    "8/2b5/3b1b2/6b1/8/4w3/1w3w2/4w3 w 0 24",
    "1b6/8/8/b3b3/7b/8/3w1w1w/2w5 b 0 25",
    "8/8/7b/b7/3W4/8/8/2B1B3 w 0 34",
    "5b2/b7/5w1w/8/8/8/1b6/2B5 w 0 33",
    "3b4/8/5b1b/b5B1/8/8/7w/6w1 w 0 32",
    "1W6/8/5B1w/8/8/8/8/4w3 b 0 30",
    "8/8/8/4W3/8/8/3B4/6W1 b 0 39",
];
