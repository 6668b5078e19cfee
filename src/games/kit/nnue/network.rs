//! The quantised network: its weights, its file format, and the output layer.
//!
//! File format (all little-endian): the 8-byte magic `BSHNNUE3`; the game's name, ASCII,
//! zero-padded to 16 bytes; `u32` inputs and `u32` hidden width (must equal the game's
//! [`NetShape`] and [`HIDDEN`]); the first layer's weights as `i16`, input by input (inputs
//! rows of [`HIDDEN`]); its biases (`i16` x [`HIDDEN`]); the output weights (`i16` x 2 x
//! [`HIDDEN`], the side to move's half first); the output bias (`i32`); and an FNV-1a 64-bit
//! checksum of everything before it. A file that is cut, padded, of another game or shape,
//! altered, or whose weights could overflow the 16-bit accumulator is refused with a
//! [`NetError`].

use super::{HIDDEN, MAX_EVAL, NetShape, QA, QB, SCALE};
use std::fmt;

const MAGIC: &[u8; 8] = b"BSHNNUE3";
/// Bytes of the game's name in the header.
const NAME_BYTES: usize = 16;
/// Bytes before the weights: magic, name, inputs, hidden.
const HEADER_BYTES: usize = 8 + NAME_BYTES + 8;

/// Bytes of a valid file of a network of `inputs` inputs.
pub const fn file_bytes(inputs: usize) -> usize {
    HEADER_BYTES + 2 * inputs * HIDDEN + 2 * HIDDEN + 4 * HIDDEN + 4 + 8
}

/// What is wrong with a network file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// It could not be read (path, reason).
    Io(String, String),
    /// Not the size a network file has (found, expected).
    Size(usize, usize),
    /// It does not start with the magic bytes.
    Magic,
    /// A network of another game (its name, the game's).
    Game(String, &'static str),
    /// A network of a game that has none in this engine (its name).
    NoSuchGame(String),
    /// Made for another shape (inputs, hidden) than this engine's network of the game.
    Shape(u32, u32, NetShape),
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
            NetError::Magic => write!(f, "not a network file: it does not start with BSHNNUE3"),
            NetError::Game(found, game) => {
                write!(f, "a network of {found}, not of {game}")
            }
            NetError::NoSuchGame(found) => {
                write!(f, "a network of '{found}', a game without a network here")
            }
            NetError::Shape(i, h, shape) => write!(
                f,
                "network of shape {i}x{h}, this engine runs {}x{HIDDEN} for {}",
                shape.inputs, shape.game
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
    /// Whose network it is and its inputs.
    pub(crate) shape: NetShape,
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

/// The name of the game a network file's bytes say they are for (its magic checked).
pub fn game_of(bytes: &[u8]) -> Result<String, NetError> {
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(NetError::Magic);
    }
    if bytes.len() < HEADER_BYTES {
        return Err(NetError::Size(bytes.len(), HEADER_BYTES));
    }
    let name = &bytes[8..8 + NAME_BYTES];
    let end = name.iter().position(|&b| b == 0).unwrap_or(NAME_BYTES);
    Ok(String::from_utf8_lossy(&name[..end]).into_owned())
}

/// The largest network file of any shape this engine reads (a bound on what a read takes).
pub const MAX_FILE_BYTES: usize = file_bytes(4096);

impl Network {
    /// Parses and checks a network file's bytes as a network of `shape`'s game.
    pub fn from_bytes(bytes: &[u8], shape: NetShape) -> Result<Network, NetError> {
        let game = game_of(bytes)?;
        if game != shape.game {
            return Err(NetError::Game(game, shape.game));
        }
        let mut r = Reader(&bytes[8 + NAME_BYTES..HEADER_BYTES]);
        let (inputs, hidden) = (r.u32(), r.u32());
        if (inputs, hidden) != (shape.inputs as u32, HIDDEN as u32) {
            return Err(NetError::Shape(inputs, hidden, shape));
        }
        let size = file_bytes(shape.inputs);
        if bytes.len() != size {
            return Err(NetError::Size(bytes.len(), size));
        }
        let (body, sum) = bytes.split_at(size - 8);
        if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(NetError::Checksum);
        }
        let mut r = Reader(&body[HEADER_BYTES..]);
        let mut w1 = vec![[0i16; HIDDEN]; shape.inputs].into_boxed_slice();
        for row in w1.iter_mut() {
            row.iter_mut().for_each(|w| *w = r.i16());
        }
        let mut b1 = [0i16; HIDDEN];
        b1.iter_mut().for_each(|w| *w = r.i16());
        let mut w2 = [[0i16; HIDDEN]; 2];
        w2.iter_mut().flatten().for_each(|w| *w = r.i16());
        let b2 = r.u32() as i32;
        let net = Network {
            shape,
            w1,
            b1,
            w2,
            b2,
            avx2: cpu_has_avx2(),
        };
        net.check_range()?;
        Ok(net)
    }

    /// Whose network this is and its inputs.
    pub fn shape(&self) -> NetShape {
        self.shape
    }

    /// Refuses weights whose sum over any board could leave the `i16` range.
    fn check_range(&self) -> Result<(), NetError> {
        for j in 0..HIDDEN {
            let widest = self.w1.iter().map(|row| (row[j] as i32).abs()).max();
            let bound =
                (self.b1[j] as i32).abs() + self.shape.max_active as i32 * widest.unwrap_or(0);
            if bound > i16::MAX as i32 {
                return Err(NetError::Overflow(j));
            }
        }
        Ok(())
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_bytes(self.shape.inputs));
        out.extend_from_slice(MAGIC);
        let mut name = [0u8; NAME_BYTES];
        let game = self.shape.game.as_bytes();
        name[..game.len().min(NAME_BYTES)].copy_from_slice(&game[..game.len().min(NAME_BYTES)]);
        out.extend_from_slice(&name);
        out.extend_from_slice(&(self.shape.inputs as u32).to_le_bytes());
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

    /// The evaluation, internal units from the view of the side whose half of the first
    /// layer is `us` (`them` the other half; [`super::accumulator::Accumulator::evaluate`]
    /// passes an accumulator's two halves).
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `output_avx2` needs only that the CPU has AVX2, and `self.avx2` is true
            // only where `is_x86_feature_detected!("avx2")` said so (`Network::from_bytes`).
            return unsafe { self.output_avx2(us, them) };
        }
        self.output_portable(us, them)
    }

    /// [`Network::output`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn output_avx2(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        self.output_portable(us, them)
    }

    /// [`Network::output`] for any CPU.
    #[inline(always)]
    fn output_portable(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        // Each half is at most HIDDEN * QA * i16::MAX, inside an i32; their sum may not be.
        let sum = dot_clipped(us, &self.w2[0]) as i64
            + dot_clipped(them, &self.w2[1]) as i64
            + self.b2 as i64;
        (sum * SCALE as i64 / (QA * QB) as i64).clamp(-MAX_EVAL as i64, MAX_EVAL as i64) as i32
    }
}

/// Reads and checks a network file of any game: a regular file only (a FIFO would block
/// the engine until someone writes to it, so it is refused before it is opened), and never
/// more than [`MAX_FILE_BYTES`] of it. `shape_of` names the shape of each game that has a
/// network.
pub fn load(path: &str, shape_of: impl Fn(&str) -> Option<NetShape>) -> Result<Network, NetError> {
    let bytes = crate::files::read_regular_bytes(std::path::Path::new(path), MAX_FILE_BYTES as u64)
        .map_err(|e| NetError::Io(path.to_string(), e.to_string()))?;
    let game = game_of(&bytes)?;
    let shape = shape_of(&game).ok_or(NetError::NoSuchGame(game))?;
    Network::from_bytes(&bytes, shape)
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
    use crate::games::bashni::position::Position;
    use crate::games::kit::nnue::FeatureSet;

    #[test]
    fn damaged_files_are_refused() {
        let net = Position::embedded_network();
        let shape = net.shape();
        let good = net.to_bytes();
        assert_eq!(Network::from_bytes(&good, shape).as_ref(), Ok(&*net));
        let mut flipped = good.clone();
        flipped[1000] ^= 0x10;
        assert_eq!(
            Network::from_bytes(&flipped, shape),
            Err(NetError::Checksum)
        );
        let size = file_bytes(shape.inputs);
        assert_eq!(
            Network::from_bytes(&good[..good.len() - 1], shape),
            Err(NetError::Size(size - 1, size))
        );
        let mut magic = good.clone();
        magic[0] = b'X';
        assert_eq!(Network::from_bytes(&magic, shape), Err(NetError::Magic));
        let mut inputs = good.clone();
        inputs[HEADER_BYTES - 8] = 7;
        assert!(matches!(
            Network::from_bytes(&inputs, shape),
            Err(NetError::Shape(_, 128, _))
        ));
        assert!(Network::from_bytes(b"", shape).is_err());
        // A valid checksum over weights that could overflow the accumulator.
        let mut big = (*net).clone();
        big.w1[5][3] = 3000;
        assert_eq!(
            Network::from_bytes(&big.to_bytes(), shape),
            Err(NetError::Overflow(3))
        );
    }

    #[test]
    fn a_network_of_another_game_is_refused_by_name() {
        let net = Position::embedded_network();
        let other = NetShape {
            game: "turkish",
            ..net.shape()
        };
        let err = Network::from_bytes(&net.to_bytes(), other).unwrap_err();
        assert_eq!(err, NetError::Game("bashni".into(), "turkish"));
        assert_eq!(err.to_string(), "a network of bashni, not of turkish");
        assert_eq!(game_of(&net.to_bytes()), Ok("bashni".to_string()));
    }
}
