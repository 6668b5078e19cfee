//! The positions `bashni bench --variant turkish` searches: its fingerprint.

use crate::games::turkish::notation::START_FEN;

/// Turkish draughts' bench positions: the start, and positions of self-play games (`bashni
/// datagen --variant turkish`, hand-set evaluation, 5000 nodes a move) from every phase,
/// with kings from the middlegame on.
pub const POSITIONS: &[&str] = &[
    START_FEN,
    "8/bbbbb1bb/bbb1bbbb/3b1b2/1ww4w/w2wwww1/wwwwwwww/8 w 0 4",
    "8/2bb1bbb/bbb1bbb1/b7/1w2ww2/www1www1/www2ww1/3B4 w 0 15",
    "8/bbbb1bbb/bbbb1b2/3bb2w/1w6/w1www3/wwwwwwww/8 b 0 7",
    "8/2bb2bb/2bbbb1b/w1b1bb1b/4www1/2w1wwww/ww1w1ww1/8 b 0 18",
    "7W/1b1b2b1/1bb1bb2/4bb2/1wwbwwb1/1ww1ww1w/b1w1w1w1/8 b 0 22",
    "8/b4bb1/bbb2b1b/b3bb1b/b4w2/w1wwwwww/w1ww1w1w/8 w 0 20",
    "8/3bb1b1/bb1b1bb1/bbbb1b2/ww3w2/wwww1wbb/1ww3b1/8 w 0 23",
    "8/3b2bb/1b2bbbb/3b1b2/b3wwww/2w1wwww/2w2w2/8 w 0 34",
    "8/5b2/bb2bb1b/bb2bbb1/4ww1w/wwwwww1w/5w2/8 w 0 40",
    "8/2b1bb1b/b1bb1b2/b7/2ww1w1b/w1w1ww2/3www2/8 w 0 22",
    "8/b4b2/2bb2bb/w1b3bb/1ww1w1w1/2ww2ww/6w1/8 w 0 38",
    "8/2b4b/b2bbb2/1b1b1b2/w1w4b/1www2w1/2w3ww/8 b 0 26",
    "3B4/1b3b1b/4bb1b/b7/1ww1ww1w/w4w1w/6w1/8 w 0 35",
    "8/5b2/bbb2bbb/5B1b/2b2ww1/3w1ww1/5w2/8 w 0 43",
    "W7/2bb1w2/3bbb2/8/7w/ww3w1w/w7/3B2B1 w 0 51",
    "2W5/5b2/5b1b/b6b/b4b2/3w2ww/w6w/8 b 0 37",
    "3W1W1W/1b6/6w1/2w1w1b1/8/3w1w2/3ww3/7B b 0 40",
    "8/6bb/2bb2bb/8/5w2/8/7w/W7 b 0 20",
    "8/b1b5/5b2/3b4/2w2w1b/2w2w2/7w/8 w 0 43",
    "8/8/8/1W5b/7b/w1w1w2w/w1w4w/8 b 0 47",
    "6WW/8/b7/b1b5/8/8/2b2B2/8 b 0 63",
    "8/8/1bbb1b2/3B3b/1w4w1/4w3/8/8 w 0 53",
    "8/b4bb1/2b1bbbb/7b/4w1w1/5w2/8/1B6 b 0 34",
    "8/4b3/4b1w1/8/2w5/8/7B/5B2 w 0 39",
];
