//! Ctrl-C and SIGTERM during a match: the first one stops it like a fault would (games under
//! way are abandoned) so that the score so far is still reported and `--result` written;
//! a second one ends the process at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

/// Which stop signal arrived first, if any; shared with the thread that waits for them.
#[derive(Clone, Debug, Default)]
pub struct Interrupt(Arc<AtomicU8>);

/// Exit status of a process ended by a second signal: 128 + SIGINT's number, the shells'.
const FORCED_EXIT: i32 = 130;

impl Interrupt {
    /// Starts a thread that waits for Ctrl-C (SIGINT) and SIGTERM. Where signals cannot be
    /// caught, nothing changes: they end the process as before.
    pub fn listen() -> Interrupt {
        let flag = Interrupt::default();
        let shared = flag.clone();
        let _ = std::thread::Builder::new()
            .name("bashni-signals".into())
            .spawn(move || shared.wait());
        flag
    }

    /// The first signal's name once one has arrived.
    pub fn arrived(&self) -> Option<&'static str> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            1 => Some("Ctrl-C (SIGINT)"),
            _ => Some("SIGTERM"),
        }
    }

    /// Records signals for the match to see; a second one exits.
    fn wait(self) {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
        else {
            return;
        };
        rt.block_on(async move {
            loop {
                let which = match stop_signal().await {
                    "SIGTERM" => 2,
                    _ => 1,
                };
                if self.0.swap(which, Ordering::SeqCst) != 0 {
                    std::process::exit(FORCED_EXIT);
                }
            }
        });
    }
}

/// Waits for Ctrl-C or SIGTERM (only the one that can be caught; forever if neither can);
/// the one that came: `"Ctrl-C (SIGINT)"` or `"SIGTERM"`. Shared with `bashni serve`, which stops on it.
pub async fn stop_signal() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    const SIGINT: &str = "Ctrl-C (SIGINT)";
    match signal(SignalKind::terminate()) {
        // A Ctrl-C handler that cannot be installed never fires (its branch is disabled).
        Ok(mut term) => tokio::select! {
            Ok(()) = tokio::signal::ctrl_c() => SIGINT,
            _ = term.recv() => "SIGTERM",
        },
        Err(_) => match tokio::signal::ctrl_c().await {
            Ok(()) => SIGINT,
            Err(_) => std::future::pending().await,
        },
    }
}
