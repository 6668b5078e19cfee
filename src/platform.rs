//! What the engine core needs of its platform that WebAssembly in a browser gives
//! differently: a monotonic clock, the wall-clock time, a fresh random seed and the folder
//! where the user's data is kept.
//!
//! Natively these are the standard library's (and the operating system's random source).
//! On `wasm32-unknown-unknown` the standard library has no clock (`Instant::now` panics
//! there), so the page that runs the module gives its own: the module imports
//! `bashni_now_ms` (a monotonic time in milliseconds, `performance.now()`) and
//! `bashni_unix_ms` (`Date.now()`) from its host (`wasm/bashni-worker.js`). Everything in the
//! crate that reads a clock reads it through this module.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use wasm_clock::Instant;

/// Milliseconds since 1970-01-01 UTC, as the system (or the page) tells it; 0 when it
/// cannot.
pub fn unix_ms() -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        wasm_clock::unix_ms()
    }
}

/// A seed for choices that need not be repeatable (the weaker levels' random choices,
/// temporary file names): from the operating system natively; in WebAssembly from the
/// clocks, mixed so that two seeds taken in one millisecond still differ.
pub fn fresh_seed() -> u64 {
    #[cfg(feature = "native")]
    {
        rand::random()
    }
    #[cfg(not(feature = "native"))]
    {
        use std::sync::atomic::{AtomicU64, Ordering};
        // A counter, not a state: each call gets a different input to the mix.
        static CALLS: AtomicU64 = AtomicU64::new(0);
        let n = CALLS.fetch_add(1, Ordering::Relaxed);
        let t = Instant::now().elapsed().as_nanos() as u64;
        splitmix64(unix_ms() ^ t.rotate_left(32) ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }
}

/// The folder where bashni keeps what a user makes once for every later run (the endgame
/// databases): `$XDG_DATA_HOME/bashni`, else `$HOME/.local/share/bashni`, on Linux and other
/// Unix systems; `$HOME/Library/Application Support/bashni` on macOS; `%LOCALAPPDATA%\bashni`
/// on Windows. None in WebAssembly, or where the variable that names it is unset or not an
/// absolute path.
pub fn data_dir() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let var = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let base = if cfg!(not(feature = "native")) {
        None
    } else if cfg!(windows) {
        var("LOCALAPPDATA")
    } else if cfg!(target_os = "macos") {
        var("HOME").map(|h| h.join("Library").join("Application Support"))
    } else {
        var("XDG_DATA_HOME").or_else(|| var("HOME").map(|h| h.join(".local").join("share")))
    };
    base.map(|b| b.join("bashni"))
}

/// SplitMix64's finaliser: spreads every input bit over the output.
#[cfg_attr(feature = "native", allow(dead_code))]
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(target_arch = "wasm32")]
mod wasm_clock {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "bashni")]
    unsafe extern "C" {
        /// Monotonic milliseconds (`performance.now()`), from the host page.
        fn bashni_now_ms() -> f64;
        /// Milliseconds since 1970-01-01 UTC (`Date.now()`), from the host page.
        fn bashni_unix_ms() -> f64;
    }

    /// A point of the page's monotonic clock (the time since the page's own origin), with
    /// the part of `std::time::Instant`'s API the crate uses.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number; the host provides it
            // when it instantiates the module (an instance cannot exist without it).
            let ms = unsafe { bashni_now_ms() };
            let ms = if ms.is_finite() { ms.max(0.0) } else { 0.0 };
            Instant(Duration::from_secs_f64(ms / 1000.0))
        }

        /// Time since `self` (zero if the clock went back).
        pub fn elapsed(&self) -> Duration {
            Instant::now() - *self
        }

        /// Time from `earlier` to `self`, zero if `earlier` is later.
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            *self - earlier
        }

        /// Time from `earlier` to `self`, zero if `earlier` is later.
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            *self - earlier
        }
    }

    impl Sub for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0.saturating_add(d))
        }
    }

    /// Milliseconds since 1970-01-01 UTC from the host page.
    pub fn unix_ms() -> u64 {
        // SAFETY: as for `bashni_now_ms` above.
        let ms = unsafe { bashni_unix_ms() };
        if ms.is_finite() && ms > 0.0 {
            ms as u64
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wall_clock_is_after_2020() {
        assert!(unix_ms() > 1_577_836_800_000);
    }

    #[test]
    fn seeds_differ() {
        assert_ne!(fresh_seed(), fresh_seed());
    }

    #[test]
    fn splitmix_spreads_neighbours() {
        let (a, b) = (splitmix64(1), splitmix64(2));
        assert!((a ^ b).count_ones() > 16);
    }
}
