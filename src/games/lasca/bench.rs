//! The positions `bashni bench --variant lasca` searches: its fingerprint.

use crate::games::lasca::notation::START_FEN;

/// Lasca's bench positions: the start, and 24 positions of self-play games (`bashni datagen
/// --variant lasca --nodes 2000 --seed 2 --opening-plies 16`, hand-set evaluation) from every
/// phase, by move number: soldiers still on their ranks, tall columns, officers on both sides.
pub const POSITIONS: &[&str] = &[
    START_FEN,
    "b5b/7/b1(Wbbb)1(bw)2/3(bw)3/2(bw)1(bw)1(bw)/1w5/w1w1w1w w 1 11",
    "b1b1(Wbb)1b/1b5/2(wb)1(wb)2/3b1w1/(Bwww)1(bw)4/5w1/w3w2 w 0 12",
    "6b/1(wb)1(wbb)3/b1b1b1b/1(bw)3(bw)1/(bw)3w1w/1w1(ww)3/2w4 w 3 17",
    "(Wb)1(Wb)1b1(Wbb)/7/(bw)5b/1b5/(Bw)1(bw)4/7/w1(Bww)1w1w w 10 21",
    "b3(Wbb)2/1(WWww)3b1/(WbB)5(bw)/3b3/6(wb)/7/w1(Bww)1B2 w 5 26",
    "6b/5(wbb)1/(Wbbbb)3(ww)2/1w5/7/1(bww)1(bw)3/4(Bw)1(Bww) w 3 27",
    "2(Wb)1(Wbbbbb)2/7/6W/1b5/(Bwwww)6/7/2(Bw)1(Bwww)1B b 21 34",
    "2(BbbBww)3(WwWw)/3(wbb)1(wb)1/4(WBbb)2/7/7/7/4(Bww)2 b 5 34",
    "2(WbbbbB)4/1(wb)3(BwW)1/6b/1(Wwb)5/6w/3(Bw)3/4(Bwww)2 w 0 35",
    "2(Wb)3(Wbbbb)/1W1(Wwb)1(wb)1/7/5B1/(wb)1w4/5(Bww)1/2(Bw)4 b 22 36",
    "(Wb)3(Wb)2/3(Wb)3/2W3(Wbbb)/7/(Bw)1b3(Bww)/3(Bw)3/2(Bww)4 w 26 39",
    "2(Wb)3(WbB)/3(WwWwwW)3/7/7/7/1(BbBwW)1(BbBB)3/4(Bw)2 b 9 44",
    "6b/3(Wb)1(Bbw)1/(wbb)5(Bww)/5(bW)1/6b/7/(Bwwww)1(BW)4 b 5 45",
    "(Wb)6/7/(Bw)3w2/5(Wwwb)1/4(bbBb)1(WbBB)/3(bwwwW)3/7 b 0 46",
    "2b1W2/3W3/4w1(Wbb)/1(Bw)1b3/4(Bw)2/1(bB)5/(Bwww)1(Bw)1(BW)2 w 26 48",
    "2(WbB)4/5(WwwWW)1/(WbbbBb)1(WwW)4/7/2(BB)1(Bw)2/5B1/7 w 19 49",
    "b3(Wb)2/5(Wb)1/2(WB)4/1(Wb)3(Bw)1/(Bwwww)5(WbBb)/7/4(Bw)2 b 0 50",
    "(BwwWW)6/5W1/(wWBbB)6/1(bWWW)5/6(BBW)/3(BBBb)3/7 w 1 64",
    "W1(WbB)1(Wbb)2/7/2(WwW)3(Bw)/7/2(wb)1(Bw)1(Bw)/7/(Bb)1(Bw)4 b 6 65",
    "4(WbBB)2/7/7/7/4(WbbB)1(BwwWwww)/1B1(Bww)3/B1(BW)4 w 1 70",
    "7/1(WBB)3(WWWW)1/7/7/2B3(BB)/3(BBbbWWw)3/(Bww)3(BW)2 w 11 82",
    "7/1(WbBB)5/6(BWwWWW)/7/2(BBW)3(WWWWB)/3(BBBb)3/7 b 8 87",
    "(WbB)6/1(WWBbB)5/6(BWW)/1(WWw)1(BBBb)3/7/7/2(BWWW)4 b 9 91",
    "2(BbW)4/3(WWBBB)3/4(WbB)2/7/2(BbWWWW)4/1(BW)5/4(BWW)2 b 1 102",
];
