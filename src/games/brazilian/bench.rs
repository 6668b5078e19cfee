//! The positions `bashni bench --variant brazilian` searches: its fingerprint.

use crate::games::kit::draughts64::notation::START_FEN;

/// Brazilian draughts' bench positions: the start, and positions of self-play games from every
/// phase (`bashni datagen --variant brazilian --games 8 --nodes 5000 --threads 1 --seed 1
/// --no-book --opening-plies 8`, Russian draughts' linear weights; three of each game, at a
/// tenth, near half and four fifths of it).
pub const POSITIONS: &[&str] = &[
    START_FEN,
    "1b1b1b1b/8/3b3b/w7/3w4/b3w1w1/8/w3w1w1 w 0 14",
    "8/4W3/8/8/8/B7/3b1w1w/8 w 1 35",
    "8/8/8/8/8/B7/1W6/2B5 b 21 52",
    "1b1b1b1b/2b1b3/3b4/2w1b1b1/1w6/w3w3/7w/w1w1w1w1 w 0 10",
    "3b4/8/1b1b4/6b1/1w1w4/2w5/7b/4w1w1 b 0 21",
    "8/w7/8/4b3/7b/8/1b1w1w1b/8 b 0 31",
    "1b1b1b1b/6b1/3b1b1b/b7/7w/w1w1w3/1w1w4/w3w1w1 w 0 8",
    "1b1b3b/8/8/2w1b3/1w3b2/8/8/w3w1w1 b 0 16",
    "1b1b4/8/1w6/2w1b3/5b2/w3b3/8/4w1w1 w 0 21",
    "3b1b1b/b1b5/7b/b7/3b1w1w/w7/1w6/w1w1w1w1 w 0 11",
    "3b4/8/3b4/2b5/1b3w2/w7/3w4/6w1 b 0 22",
    "3B4/W7/1w6/8/8/8/8/8 w 1 32",
    "1b3b2/b1b1b1b1/3b1b1w/8/1w5w/w3b1w1/1w5w/4w1w1 w 0 13",
    "3b1W2/8/8/w7/8/4b3/8/8 w 0 33",
    "5W2/8/8/8/8/4B3/1W6/8 b 22 47",
    "1b1b1b1b/b7/7w/2b1b3/7b/w7/1w3w1w/2w1w1w1 w 0 13",
    "8/w7/8/2b3b1/8/8/1b3w2/8 w 0 34",
    "8/8/8/2B1W3/7b/8/8/8 b 21 50",
    "1b1b1b2/b3b1b1/7b/8/1w5w/w1w1w3/8/4w1w1 b 0 14",
    "8/b7/8/4B3/3B4/W7/8/8 b 3 36",
    "8/8/8/2B5/3B1W2/8/1b6/8 b 1 53",
    "1b1b1b1b/2b5/1b6/2b5/5b1w/w1w3w1/7w/2w1w1w1 b 0 12",
    "8/8/8/2w5/5b1w/8/1b6/8 b 0 34",
    "1W5B/8/7w/8/8/B7/8/8 w 20 52",
];
