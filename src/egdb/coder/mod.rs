//! The code of a table's blocks: an adaptive binary range coder (LZMA's, with 16-bit
//! probabilities that mix a fast and a slow estimate) and the two models coded with it.
//!
//! - The value layer ([`encode_wdl`]): one of five classes a slot. Each slot first codes
//!   whether its class is the previous slot's (context: the previous class and how long its
//!   run is); if not, which of the four others (context: the previous class and the class
//!   before its run). A slot the table need not hold (no position, or a capture to play) is
//!   given the previous slot's class, the cheapest to code, so that it costs a small fraction
//!   of a bit.
//! - The distance layer ([`encode_distance`]): one distance for each slot whose class (as the
//!   value layer decodes it) is not a draw, coded given that class: whether it is the last
//!   distance of the class, and if not, the distance's bits from the top (a tree of 8 bits
//!   for 0 to 254; 255 is followed by 12 bits for a longer one). A draw costs nothing, and a
//!   slot the table need not hold repeats the last distance of its class.
//!
//! Every block starts from the same model state (the value layer's from probabilities learnt
//! over the whole table and stored in the file: a [`Prior`]), so that a probe decodes one
//! block on its own. Decoding never fails on damaged bytes (a file's checksum is checked when it is
//! opened); it yields some classes and distances, never a panic.

/// A binary probability in 1/65536ths, kept as two estimates that adapt at different speeds.
#[derive(Clone, Copy)]
pub(crate) struct Bit {
    fast: u16,
    slow: u16,
}

impl Bit {
    const HALF: Bit = Bit::new(1 << 15);

    pub(crate) const fn new(p: u16) -> Bit {
        Bit { fast: p, slow: p }
    }

    /// The probability of a 0.
    fn p(self) -> u32 {
        (u32::from(self.fast) + u32::from(self.slow)) >> 1
    }

    fn update(&mut self, bit: bool) {
        if bit {
            self.fast -= self.fast >> 4;
            self.slow -= self.slow >> 7;
        } else {
            self.fast += (u16::MAX - self.fast) >> 4;
            self.slow += (u16::MAX - self.slow) >> 7;
        }
    }
}

/// The part of the interval `range` that a 0 of probability `p` takes: the encoder and the
/// decoder split it alike.
#[inline]
fn bound(range: u32, p: Bit) -> u32 {
    (range >> 16) * p.p()
}

/// Narrows `range` to the part of `bit` (a 0's part being `bound`), learns the bit into `p`,
/// and widens the interval again a byte at a time while it is under 2^24: returns how many
/// bytes, which the encoder shifts out and the decoder in.
#[inline]
fn narrow(range: &mut u32, bound: u32, bit: bool, p: &mut Bit) -> u32 {
    *range = if bit { *range - bound } else { bound };
    p.update(bit);
    let mut bytes = 0;
    while *range < 1 << 24 {
        *range <<= 8;
        bytes += 1;
    }
    bytes
}

/// Writes bits, each with its probability (LZMA's range encoder, carries kept in `cache`).
pub(crate) struct Encoder {
    low: u64,
    range: u32,
    cache: u8,
    pending: u64,
    out: Vec<u8>,
}

impl Encoder {
    pub(crate) fn new() -> Encoder {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            pending: 1,
            out: Vec::new(),
        }
    }

    pub(crate) fn bit(&mut self, p: &mut Bit, bit: bool) {
        let bound = bound(self.range, *p);
        if bit {
            self.low += u64::from(bound);
        }
        for _ in 0..narrow(&mut self.range, bound, bit, p) {
            self.shift_low();
        }
    }

    fn shift_low(&mut self) {
        if self.low < 0xFF00_0000 || self.low >= 1 << 32 {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            while self.pending > 0 {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.pending -= 1;
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.pending += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    /// The bytes: the first (always 0) left out, and the final value chosen in the last
    /// interval with as many trailing zero bits as possible, which are then left out too
    /// (the decoder reads zeros past the end).
    pub(crate) fn finish(mut self) -> Vec<u8> {
        let top = self.low + u64::from(self.range);
        for k in (0..=32).rev() {
            let mask = (1u64 << k) - 1;
            let v = (self.low + mask) & !mask;
            if v < top {
                self.low = v;
                break;
            }
        }
        for _ in 0..5 {
            self.shift_low();
        }
        let mut out = self.out.split_off(1);
        while out.last() == Some(&0) {
            out.pop();
        }
        out
    }
}

/// A [`Decoder`]'s place in its bytes, kept while the bytes are not borrowed.
#[derive(Clone, Copy)]
struct DecoderState {
    at: usize,
    code: u32,
    range: u32,
}

/// Reads the bits an [`Encoder`] wrote.
struct Decoder<'a> {
    bytes: &'a [u8],
    at: usize,
    code: u32,
    range: u32,
}

impl<'a> Decoder<'a> {
    fn new(bytes: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder {
            bytes,
            at: 0,
            code: 0,
            range: u32::MAX,
        };
        for _ in 0..4 {
            d.code = (d.code << 8) | u32::from(d.next());
        }
        d
    }

    /// A decoder of `bytes` that goes on from `state` (taken from a decoder of the same bytes).
    fn resume(bytes: &'a [u8], state: DecoderState) -> Decoder<'a> {
        Decoder {
            bytes,
            at: state.at,
            code: state.code,
            range: state.range,
        }
    }

    /// Where this decoder is, to go on from later.
    fn state(&self) -> DecoderState {
        DecoderState {
            at: self.at,
            code: self.code,
            range: self.range,
        }
    }

    fn next(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    #[inline]
    fn bit(&mut self, p: &mut Bit) -> bool {
        let bound = bound(self.range, *p);
        let bit = self.code >= bound;
        if bit {
            self.code -= bound;
        }
        for _ in 0..narrow(&mut self.range, bound, bit, p) {
            self.code = (self.code << 8) | u32::from(self.next());
        }
        bit
    }
}

/// The classes of the value layer, 0 to 4: win, cursed win, draw, blessed loss, loss.
pub const CLASSES: u8 = 5;
/// The class of a draw.
pub const DRAW: u8 = 2;

/// Run lengths told apart in the context of "the same class again".
fn run_bucket(run: u32) -> usize {
    match run {
        0..=1 => 0,
        2..=3 => 1,
        4..=15 => 2,
        _ => 3,
    }
}

/// The value layer's model: the state both coder and decoder keep.
struct WdlModel {
    same: [[Bit; 4]; CLASSES as usize],
    other: [[[Bit; 3]; CLASSES as usize]; CLASSES as usize],
    prev: u8,
    before: u8,
    run: u32,
}

/// Bytes of a [`Prior`].
pub const PRIOR: usize = (CLASSES as usize) * 4 + (CLASSES as usize) * (CLASSES as usize) * 3;

/// The value layer model's starting probabilities, one byte each, learnt from the whole
/// table ([`Counts::prior`]) and stored in its file: every block starts from them, so that a
/// block does not pay to learn the table's statistics again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prior(pub [u8; PRIOR]);

impl Default for Prior {
    /// Every probability one half.
    fn default() -> Prior {
        Prior([128; PRIOR])
    }
}

/// How often each of the value layer model's bits was 0 and 1, over a table's blocks.
pub struct Counts([[u64; 2]; PRIOR]);

impl Default for Counts {
    fn default() -> Counts {
        Counts([[0; 2]; PRIOR])
    }
}

impl Counts {
    /// The probabilities of the counts, in 256ths (a bit never seen stays at one half).
    pub fn prior(&self) -> Prior {
        let mut p = [128u8; PRIOR];
        for (q, &[zeros, ones]) in p.iter_mut().zip(&self.0) {
            if let Some(p) = (zeros * 256).checked_div(zeros + ones) {
                *q = p.min(255) as u8;
            }
        }
        Prior(p)
    }
}

/// The index of a "same class" bit in a [`Prior`], and of a tree of the "other class" bits.
fn same_at(prev: u8, bucket: usize) -> usize {
    usize::from(prev) * 4 + bucket
}

fn other_at(prev: u8, before: u8) -> usize {
    (CLASSES as usize) * 4 + (usize::from(prev) * (CLASSES as usize) + usize::from(before)) * 3
}

impl WdlModel {
    fn new(prior: &Prior) -> WdlModel {
        let bit = |q: u8| Bit::new(u16::from(q) * 256 + 128);
        let mut m = WdlModel {
            same: [[Bit::HALF; 4]; CLASSES as usize],
            other: [[[Bit::HALF; 3]; CLASSES as usize]; CLASSES as usize],
            prev: DRAW,
            before: DRAW,
            run: 0,
        };
        for c in 0..CLASSES {
            for b in 0..4 {
                m.same[usize::from(c)][b] = bit(prior.0[same_at(c, b)]);
            }
            for d in 0..CLASSES {
                for k in 0..3 {
                    m.other[usize::from(c)][usize::from(d)][k] = bit(prior.0[other_at(c, d) + k]);
                }
            }
        }
        m
    }

    /// Moves the context past a slot of class `c`.
    fn push(&mut self, c: u8) {
        if c == self.prev {
            self.run += 1;
        } else {
            self.before = self.prev;
            self.prev = c;
            self.run = 1;
        }
    }

    /// The rank of `c` among the classes other than the previous one (0 to 3), and back.
    fn rank(&self, c: u8) -> u8 {
        c - u8::from(c > self.prev)
    }

    fn unrank(&self, r: u8) -> u8 {
        r + u8::from(r >= self.prev)
    }
}

/// The class of each slot as coded: `classes[i]`, or the previous slot's where `optional[i]`.
fn filled(classes: &[u8], optional: &[bool]) -> Vec<u8> {
    let mut prev = DRAW;
    classes
        .iter()
        .zip(optional)
        .map(|(&c, &opt)| {
            prev = if opt { prev } else { c };
            prev
        })
        .collect()
}

/// Adds one block's bits to `counts` (the block as [`encode_wdl`] codes it).
pub fn count_wdl(classes: &[u8], optional: &[bool], counts: &mut Counts) {
    let mut m = WdlModel::new(&Prior::default());
    for c in filled(classes, optional) {
        let diff = c != m.prev;
        counts.0[same_at(m.prev, run_bucket(m.run))][usize::from(diff)] += 1;
        if diff {
            let r = m.rank(c);
            let at = other_at(m.prev, m.before);
            counts.0[at][usize::from(r >= 2)] += 1;
            counts.0[at + 1 + usize::from(r >= 2)][usize::from(r & 1)] += 1;
        }
        m.push(c);
    }
}

/// Codes one block of the value layer: `classes[i]` for each slot, or any class where
/// `optional[i]`. Returns the bytes and the classes as decoded (the optional slots filled).
pub fn encode_wdl(classes: &[u8], optional: &[bool], prior: &Prior) -> (Vec<u8>, Vec<u8>) {
    let mut m = WdlModel::new(prior);
    let mut enc = Encoder::new();
    let filled = filled(classes, optional);
    for &c in &filled {
        let same = &mut m.same[m.prev as usize][run_bucket(m.run)];
        enc.bit(same, c != m.prev);
        if c != m.prev {
            let r = m.rank(c);
            let tree = &mut m.other[m.prev as usize][m.before as usize];
            enc.bit(&mut tree[0], r >= 2);
            enc.bit(&mut tree[1 + usize::from(r >= 2)], r & 1 == 1);
        }
        m.push(c);
    }
    (enc.finish(), filled)
}

/// Decodes `n` slots of a block of the value layer into `out`.
pub fn decode_wdl(bytes: &[u8], n: usize, prior: &Prior, out: &mut Vec<u8>) {
    out.clear();
    WdlCursor::new(bytes, prior).decode_to(bytes, n, out);
}

/// A block of the value layer decoded as far as it was needed: a probe decodes up to the
/// slot it reads, and a later probe of the same block goes on from there (on average half a
/// block a probe instead of a whole one).
pub struct WdlCursor {
    model: WdlModel,
    dec: DecoderState,
}

impl WdlCursor {
    /// At the start of the block coded in `bytes`.
    pub fn new(bytes: &[u8], prior: &Prior) -> WdlCursor {
        WdlCursor {
            model: WdlModel::new(prior),
            dec: Decoder::new(bytes).state(),
        }
    }

    /// Decodes the block's next slots into `out` until it holds `n` (the block's `bytes`
    /// are those the cursor started on, and `out` holds what it decoded before).
    pub fn decode_to(&mut self, bytes: &[u8], n: usize, out: &mut Vec<u8>) {
        let m = &mut self.model;
        let mut dec = Decoder::resume(bytes, self.dec);
        while out.len() < n {
            let same = &mut m.same[m.prev as usize][run_bucket(m.run)];
            let c = if dec.bit(same) {
                let tree = &mut m.other[m.prev as usize][m.before as usize];
                let hi = dec.bit(&mut tree[0]);
                let lo = dec.bit(&mut tree[1 + usize::from(hi)]);
                m.unrank(u8::from(hi) * 2 + u8::from(lo))
            } else {
                m.prev
            };
            m.push(c);
            out.push(c);
        }
        self.dec = dec.state();
    }
}

/// Distances below this are coded in the 8-bit tree; the rest escape to 12 bits.
const SHORT: u16 = 255;
/// Bits of an escaped distance.
const LONG_BITS: u32 = 12;

/// The distance layer's model, one part for each class but the draw.
struct DistanceModel {
    same: [Bit; CLASSES as usize],
    tree: Vec<[Bit; 256]>,
    long: [Bit; LONG_BITS as usize],
    last: [u16; CLASSES as usize],
}

impl DistanceModel {
    fn new() -> DistanceModel {
        DistanceModel {
            same: [Bit::HALF; CLASSES as usize],
            tree: vec![[Bit::HALF; 256]; CLASSES as usize],
            long: [Bit::HALF; LONG_BITS as usize],
            last: [0; CLASSES as usize],
        }
    }
}

/// Codes one block of the distance layer: for each slot whose class in `classes` (the value
/// layer's, as decoded) is not a draw, `distances[i]`, or any distance where `optional[i]`.
pub fn encode_distance(classes: &[u8], distances: &[u16], optional: &[bool]) -> Vec<u8> {
    let mut m = DistanceModel::new();
    let mut enc = Encoder::new();
    for ((&c, &d), &opt) in classes.iter().zip(distances).zip(optional) {
        if c == DRAW {
            continue;
        }
        let c = c as usize;
        let d = if opt {
            m.last[c]
        } else {
            d.min((1 << LONG_BITS) - 1)
        };
        enc.bit(&mut m.same[c], d != m.last[c]);
        if d == m.last[c] {
            continue;
        }
        let short = d.min(SHORT);
        let mut node = 1usize;
        for i in (0..8).rev() {
            let b = (short >> i) & 1 == 1;
            enc.bit(&mut m.tree[c][node], b);
            node = node * 2 + usize::from(b);
        }
        if short == SHORT {
            for i in (0..LONG_BITS).rev() {
                enc.bit(&mut m.long[i as usize], (d >> i) & 1 == 1);
            }
        }
        m.last[c] = d;
    }
    enc.finish()
}

/// Decodes the distances of a block into `out`, one a slot (0 for a draw), given the
/// block's classes.
pub fn decode_distance(bytes: &[u8], classes: &[u8], out: &mut Vec<u16>) {
    out.clear();
    DistanceCursor::new(bytes).decode_to(bytes, classes, out);
}

/// A block of the distance layer decoded as far as it was needed (as [`WdlCursor`]).
pub struct DistanceCursor {
    model: DistanceModel,
    dec: DecoderState,
}

impl DistanceCursor {
    /// At the start of the block coded in `bytes`.
    pub fn new(bytes: &[u8]) -> DistanceCursor {
        DistanceCursor {
            model: DistanceModel::new(),
            dec: Decoder::new(bytes).state(),
        }
    }

    /// Decodes the distances of the block's next slots into `out` until it holds one for
    /// each of `classes` (the block's classes from its first slot on, as decoded; `bytes`
    /// and `out` as in [`WdlCursor::decode_to`]); a draw's is 0.
    pub fn decode_to(&mut self, bytes: &[u8], classes: &[u8], out: &mut Vec<u16>) {
        let m = &mut self.model;
        let mut dec = Decoder::resume(bytes, self.dec);
        for &c in classes.iter().skip(out.len()) {
            if c == DRAW {
                out.push(0);
                continue;
            }
            let c = c as usize;
            if dec.bit(&mut m.same[c]) {
                let mut node = 1usize;
                for _ in 0..8 {
                    node = node * 2 + usize::from(dec.bit(&mut m.tree[c][node]));
                }
                let mut d = (node - 256) as u16;
                if d == SHORT {
                    d = 0;
                    for i in (0..LONG_BITS).rev() {
                        d |= u16::from(dec.bit(&mut m.long[i as usize])) << i;
                    }
                }
                m.last[c] = d;
            }
            out.push(m.last[c]);
        }
        self.dec = dec.state();
    }
}

#[cfg(test)]
mod tests;
