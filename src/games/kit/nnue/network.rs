//! The quantised network: its weights, its file format, and the output layer.
//!
//! File format (all little-endian): the 8-byte magic `BSHNNUE2`; `u32` inputs and `u32`
//! hidden width (must equal [`INPUTS`] and [`HIDDEN`]); the first layer's weights as `i16`,
//! input by input ([`INPUTS`] rows of [`HIDDEN`]); its biases (`i16` x [`HIDDEN`]); the output
//! weights (`i16` x 2 x [`HIDDEN`], the side to move's half first); the output bias (`i32`);
//! and an FNV-1a 64-bit checksum of everything before it. A file that is cut, padded, of
//! another shape, altered, or whose weights could overflow the 16-bit accumulator is refused
//! with a [`NetError`].

use super::accumulator::Accumulator;
use super::{HIDDEN, INPUTS, MAX_EVAL, QA, QB, SCALE};
use crate::games::kit::color::Color;
use std::fmt;
use std::sync::{Arc, LazyLock};

/// The network compiled into the engine (its manifest, how to remake it, is beside it).
const EMBEDDED_BYTES: &[u8] = include_bytes!("../../../../nets/bashni-nnue-2.nnue");

/// The embedded network, parsed once (a test checks that it parses).
static EMBEDDED: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(Network::from_bytes(EMBEDDED_BYTES).expect("the embedded network is valid"))
});

const MAGIC: &[u8; 8] = b"BSHNNUE2";
/// Most towers a board holds (24 pieces), so most inputs one accumulator adds up.
const MAX_ACTIVE: i32 = 24;
/// Bytes of a valid file.
pub const FILE_BYTES: usize = 8 + 8 + 2 * INPUTS * HIDDEN + 2 * HIDDEN + 4 * HIDDEN + 4 + 8;

/// What is wrong with a network file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// It could not be read (path, reason).
    Io(String, String),
    /// Not the size a network file has (found, expected).
    Size(usize, usize),
    /// It does not start with the magic bytes.
    Magic,
    /// Made for another shape (inputs, hidden) than this engine's.
    Shape(u32, u32),
    /// The checksum does not match: the file was altered or damaged.
    Checksum,
    /// Weights so large that the 16-bit accumulator could overflow (the hidden unit).
    Overflow(usize),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(path, e) => write!(f, "cannot read network file '{path}': {e}"),
            NetError::Size(found, expected) => write!(
                f,
                "not a network file: {found} bytes, a network file has {expected}"
            ),
            NetError::Magic => write!(f, "not a network file: it does not start with BSHNNUE2"),
            NetError::Shape(i, h) => write!(
                f,
                "network of shape {i}x{h}, this engine runs {INPUTS}x{HIDDEN}"
            ),
            NetError::Checksum => write!(f, "damaged network file: the checksum does not match"),
            NetError::Overflow(j) => write!(
                f,
                "network refused: hidden unit {j}'s weights could overflow the accumulator"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// The network's integer weights.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Network {
    /// First layer, one row per input.
    pub(crate) w1: Box<[[i16; HIDDEN]]>,
    /// First layer's biases.
    pub(crate) b1: [i16; HIDDEN],
    /// Output weights: the side to move's half, then the other side's.
    pub(crate) w2: [[i16; HIDDEN]; 2],
    /// Output bias, in units of `QA * QB`.
    pub(crate) b2: i32,
    /// Whether this CPU has AVX2 (detected when the network is made; the loops then run
    /// twice as wide).
    pub(crate) avx2: bool,
}

/// Whether the CPU running this has AVX2.
pub(crate) fn cpu_has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// FNV-1a, 64 bits.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Reads little-endian numbers off the front of a byte slice (the size is checked first).
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().expect("split at N")
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
}

impl Network {
    /// The network compiled into the engine.
    pub fn embedded() -> Arc<Network> {
        Arc::clone(&EMBEDDED)
    }

    /// Reads and checks a network file: a regular file only (a FIFO would block the engine
    /// until someone writes to it, so it is refused before it is opened), and never more than
    /// [`FILE_BYTES`] of it.
    pub fn load(path: &str) -> Result<Network, NetError> {
        let bytes = crate::files::read_regular_bytes(std::path::Path::new(path), FILE_BYTES as u64)
            .map_err(|e| NetError::Io(path.to_string(), e.to_string()))?;
        Network::from_bytes(&bytes)
    }

    /// Parses and checks a network file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() >= 8 && &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        if bytes.len() >= 16 {
            let mut r = Reader(&bytes[8..16]);
            let (inputs, hidden) = (r.u32(), r.u32());
            if (inputs, hidden) != (INPUTS as u32, HIDDEN as u32) {
                return Err(NetError::Shape(inputs, hidden));
            }
        }
        if bytes.len() != FILE_BYTES {
            return Err(NetError::Size(bytes.len(), FILE_BYTES));
        }
        let (body, sum) = bytes.split_at(FILE_BYTES - 8);
        if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(NetError::Checksum);
        }
        let mut r = Reader(&body[16..]);
        let mut w1 = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
        for row in w1.iter_mut() {
            row.iter_mut().for_each(|w| *w = r.i16());
        }
        let mut b1 = [0i16; HIDDEN];
        b1.iter_mut().for_each(|w| *w = r.i16());
        let mut w2 = [[0i16; HIDDEN]; 2];
        w2.iter_mut().flatten().for_each(|w| *w = r.i16());
        let b2 = r.u32() as i32;
        let avx2 = cpu_has_avx2();
        let net = Network {
            w1,
            b1,
            w2,
            b2,
            avx2,
        };
        net.check_range()?;
        Ok(net)
    }

    /// Refuses weights whose sum over any board could leave the `i16` range.
    fn check_range(&self) -> Result<(), NetError> {
        for j in 0..HIDDEN {
            let widest = self.w1.iter().map(|row| (row[j] as i32).abs()).max();
            let bound = (self.b1[j] as i32).abs() + MAX_ACTIVE * widest.unwrap_or(0);
            if bound > i16::MAX as i32 {
                return Err(NetError::Overflow(j));
            }
        }
        Ok(())
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let weights = self
            .w1
            .iter()
            .flatten()
            .chain(&self.b1)
            .chain(self.w2.iter().flatten());
        for w in weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The evaluation, centi-men from `side`'s view, of the position whose first layer is
    /// `acc`.
    #[inline]
    pub fn output(&self, acc: &Accumulator, side: Color) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `output_avx2` needs only that the CPU has AVX2, and `self.avx2` is true
            // only where `is_x86_feature_detected!("avx2")` said so (`Network::from_bytes`).
            return unsafe { self.output_avx2(acc, side) };
        }
        self.output_portable(acc, side)
    }

    /// [`Network::output`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn output_avx2(&self, acc: &Accumulator, side: Color) -> i32 {
        self.output_portable(acc, side)
    }

    /// [`Network::output`] for any CPU.
    #[inline(always)]
    fn output_portable(&self, acc: &Accumulator, side: Color) -> i32 {
        let us = acc.half(side);
        let them = acc.half(side.opponent());
        // Each half is at most HIDDEN * QA * i16::MAX, inside an i32; their sum may not be.
        let sum = dot_clipped(us, &self.w2[0]) as i64
            + dot_clipped(them, &self.w2[1]) as i64
            + self.b2 as i64;
        (sum * SCALE as i64 / (QA * QB) as i64).clamp(-MAX_EVAL as i64, MAX_EVAL as i64) as i32
    }
}

/// `sum clamp(a, 0, QA) * w` over a hidden layer (a loop the compiler vectorises).
#[inline(always)]
fn dot_clipped(a: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    a.iter()
        .zip(w)
        .map(|(&a, &w)| a.clamp(0, QA as i16) as i32 * w as i32)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::movegen::legal_moves;
    use crate::games::bashni::notation::{parse_fen, to_fen};
    use crate::games::bashni::position::Position;
    use crate::games::kit::fen::mirrored as mirrored_fen;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn a_position_and_its_colour_swapped_twin_evaluate_alike_for_the_side_to_move() {
        // So from White's view the two scores are opposite.
        let net = Network::embedded();
        let mut rng = StdRng::seed_from_u64(17);
        let mut nonzero = 0;
        for _ in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..rng.random_range(0..90) {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.play(&moves[rng.random_range(0..moves.len())]);
            }
            let twin = parse_fen(&mirrored_fen(&to_fen(&pos))).unwrap();
            let eval = |p: &Position| net.output(&Accumulator::new(&net, p), p.side());
            assert_eq!(eval(&pos), eval(&twin), "{}", to_fen(&pos));
            nonzero += (eval(&pos) != 0) as usize;
        }
        assert!(nonzero > 100, "the network says something: {nonzero}");
    }

    #[test]
    fn the_embedded_network_parses_and_round_trips() {
        let net = Network::embedded();
        assert_eq!(EMBEDDED_BYTES.len(), FILE_BYTES);
        assert_eq!(net.to_bytes(), EMBEDDED_BYTES);
    }

    #[test]
    fn damaged_files_are_refused() {
        let good = EMBEDDED_BYTES.to_vec();
        let mut flipped = good.clone();
        flipped[1000] ^= 0x10;
        assert_eq!(Network::from_bytes(&flipped), Err(NetError::Checksum));
        assert_eq!(
            Network::from_bytes(&good[..good.len() - 1]),
            Err(NetError::Size(FILE_BYTES - 1, FILE_BYTES))
        );
        let mut magic = good.clone();
        magic[0] = b'X';
        assert_eq!(Network::from_bytes(&magic), Err(NetError::Magic));
        let mut shape = good.clone();
        shape[12] = 7;
        assert!(matches!(
            Network::from_bytes(&shape),
            Err(NetError::Shape(_, 7))
        ));
        assert!(Network::from_bytes(b"").is_err());
        // A valid checksum over weights that could overflow the accumulator.
        let mut net = (*Network::embedded()).clone();
        net.w1[5][3] = 3000;
        assert_eq!(
            Network::from_bytes(&net.to_bytes()),
            Err(NetError::Overflow(3))
        );
    }
}
