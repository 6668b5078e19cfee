//! The positions `bashni bench --variant lasca` searches: its fingerprint.

use crate::games::lasca::notation::START_FEN;

/// Lasca's bench positions: the start, and positions of self-play games (`bashni datagen
/// --variant lasca --nodes 2000`, hand-set evaluation) from every phase: soldiers still on
/// their ranks, tall columns, officers on both sides.
pub const POSITIONS: &[&str] = &[
    START_FEN,
    "2b1b1b/3b1b1/4b1b/3w1(wb)1/(wb)1w1w1w/1w5/w1(Bbww)3w b 1 10",
    "(Wwbbbb)6/1(Wbb)1(wb)3/4w1(Wbb)/3W3/7/3(Bw)3/(Bwww)6 b 4 41",
    "2(Wb)4/7/4(Wbb)2/1b5/(bw)1(Bww)3(bw)/5(Wbb)1/w1(Bw)1(Bw)1w w 1 33",
    "(Wbb)1(Wb)4/7/4w2/5b1/4b2/3(bww)1(Bwwww)1/(Wbbb)1w3B b 5 29",
    "(Wbb)3(WB)2/3(Wb)3/7/5(WW)1/4b2/3(Bw)3/(WbbbB)5(Bwwww) w 31 56",
    "(Wb)3b2/5(Bb)1/(wb)1(wwwb)1(bw)1b/3b3/6w/3(bwW)3/(Bw)5w b 1 21",
    "2b1W1b/7/(wb)1w1(wb)1(Wb)/5(Wwbb)1/2(Bww)4/5(Bww)1/2B3B b 41 41",
    "7/3(wwWW)3/W1(WW)1(WbB)1(WbbbBB)/7/2b4/7/(WWB)3B1B w 1 93",
    "2(WbB)3(WbB)/5(wBBB)1/2(BbWW)4/5(Wb)1/(BwwWwW)6/7/7 b 17 57",
    "(Www)1(Wbb)1(WbB)1b/7/2(bw)3b/7/(bww)5(wb)/3b3/6(Bww) w 2 19",
    "b1b1b2/3b1(bb)1/(wb)1b1(bw)1b/3(bw)3/w5w/1w1w1w1/w1w3w w 0 7",
    "4(Wb)2/5b1/b1w3b/1(Wbb)1(bbw)3/(wb)1w3w/1(bw)5/(Bwww)6 b 2 26",
    "W1b1(Wbb)2/5(Wb)1/6(bw)/1b5/6(wb)/5(Bww)1/(Bw)1(Bw)1(Bww)2 b 1 30",
];
