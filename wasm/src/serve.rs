//! `bashni serve`'s back end in the page's Web Worker ([`bashni::serve::browser`]):
//! `bashni-serve.js` queues the page's messages, calls [`bashni_serve_run`] whenever it is
//! not running, and posts every message the host writes (`bashni_serve_post`) to the page.
//! A search gives the worker's event loop a turn through `bashni_yield`, as the engine
//! module's searches do.

use bashni::serve::browser::{self, Page};

/// Longest message taken from the page, bytes: the page refuses bodies over the API's
/// limit itself, so only a bug of the page is ever cut here.
const MAX_MESSAGE_BYTES: usize = 16 << 20;

#[link(wasm_import_module = "bashni")]
unsafe extern "C" {
    /// Posts one message (UTF-8 JSON) to the page.
    fn bashni_serve_post(ptr: *const u8, len: usize);
    /// The length in bytes of the next message from the page waiting, or -1 when none is.
    fn bashni_serve_next_len() -> i32;
    /// Writes the next waiting message's first `cap` bytes at `ptr` and drops it from the
    /// queue.
    fn bashni_serve_next_take(ptr: *mut u8, cap: usize);
}

/// Posts `message` to the page.
fn post(message: &str) {
    // SAFETY: the pointer and length describe `message`, which lives while the import reads
    // it (the import copies the bytes before it returns and keeps no reference).
    unsafe { bashni_serve_post(message.as_ptr(), message.len()) };
}

/// The page of this worker.
struct WorkerPage;

impl Page for WorkerPage {
    fn next(&mut self) -> Option<String> {
        // SAFETY: the import takes nothing and returns a number.
        let len = unsafe { bashni_serve_next_len() };
        let len = usize::try_from(len).ok()?;
        let cap = len.min(MAX_MESSAGE_BYTES);
        let mut buf = vec![0u8; cap];
        // SAFETY: `buf` is `cap` bytes long and initialised; the import writes at most `cap`
        // bytes into it and keeps no reference after it returns.
        unsafe { bashni_serve_next_take(buf.as_mut_ptr(), cap) };
        Some(String::from_utf8_lossy(&buf).into_owned())
    }

    fn post(&mut self, message: &str) {
        post(message);
    }

    fn turn(&mut self, waiting: bool) {
        crate::give_turn(waiting);
    }

    fn can_turn(&self) -> bool {
        crate::can_yield()
    }
}

/// Starts the back end (no games yet); a panic (a bug) posts `{"crash": ...}`, and the
/// worker script starts a fresh instance.
#[unsafe(no_mangle)]
pub extern "C" fn bashni_serve_start() {
    std::panic::set_hook(Box::new(|_| {
        post(r#"{"crash":"internal error: the page's engine stopped; reload the page"}"#);
    }));
    browser::start(Box::new(WorkerPage));
}

/// Answers the waiting messages and runs the work they made, until nothing is left.
#[unsafe(no_mangle)]
pub extern "C" fn bashni_serve_run() {
    browser::run();
}
