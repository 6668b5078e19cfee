// `bashni serve` in a Web Worker, for the page of the static site (web/api.js starts it when
// no server answers): the game API of web/CONTRACT.md answered by bashni.wasm, the server's
// own code (src/serve, its back end for one thread: src/serve/browser). Each message in is
// one request as JSON text ({"id", "method", "path", "body"}), a stream closed ({"close"}) or
// the clocks kept over a reload ({"restore"}); each message out is an answer, an event of a
// stream, or the clocks to keep ({"keep"}). src/serve/browser/messages.rs says more.
//
// The games' engines run in this worker too. A search gives this script a turn every few
// milliseconds where the browser has WebAssembly JavaScript Promise Integration
// (WebAssembly.Suspending): the requests that came meanwhile are answered at once. Without it
// they wait for the search, which is then cut to a second.

const WASM_URL = new URL('bashni.wasm', self.location.href);
const canYield = typeof WebAssembly.Suspending === 'function'
  && typeof WebAssembly.promising === 'function';

// How often the games' clocks are looked at while nothing runs, ms (as the server's reaper).
const TICK_MS = 250;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const waiting = [];      // messages not yet taken by the module, as UTF-8 bytes
let module = null;       // the compiled module, kept to start a fresh instance after a crash
let exports = null;      // the running instance's exports
let run = null;          // its bashni_serve_run, wrapped to return a promise where it can suspend
let running = false;     // whether it runs (perhaps suspended in a search)
let wake = null;         // ends the wait of a search that waits only for a message

// A turn for the event loop: a message to ourselves (a task, without the clamping that
// nested timers get); while the search only waits, until a message comes (or 100 ms).
const channel = new MessageChannel();
let turnDone = null;
channel.port1.onmessage = () => { const r = turnDone; turnDone = null; if (r) r(); };
function giveTurn(waitingForInput) {
  return new Promise((resolve) => {
    if (waitingForInput && waiting.length === 0) {
      wake = resolve;
      setTimeout(() => { if (wake === resolve) { wake = null; resolve(); } }, 100);
      return;
    }
    turnDone = resolve;
    channel.port2.postMessage(0);
  });
}

function memory() { return new Uint8Array(exports.memory.buffer); }
const text = (ptr, len) => decoder.decode(memory().subarray(ptr, ptr + len));

const imports = {
  bashni: {
    bashni_now_ms: () => performance.now(),
    bashni_unix_ms: () => Date.now(),
    bashni_yield: canYield ? new WebAssembly.Suspending(giveTurn) : () => {},
    bashni_can_yield: () => (canYield ? 1 : 0),
    bashni_serve_post: (ptr, len) => { self.postMessage(text(ptr, len)); },
    bashni_serve_next_len: () => (waiting.length ? waiting[0].length : -1),
    bashni_serve_next_take: (ptr, cap) => { memory().set(waiting.shift().subarray(0, cap), ptr); },
    // The engine module's own exports (bashni-worker.js) are not used here.
    bashni_emit: () => {},
    bashni_next_len: () => -1,
    bashni_next_take: () => {},
  },
};

async function instantiate() {
  const instance = await WebAssembly.instantiate(module, imports);
  exports = instance.exports;
  run = canYield ? WebAssembly.promising(exports.bashni_serve_run) : exports.bashni_serve_run;
  exports.bashni_serve_start();
}

// Runs the module until nothing waits. A crash (a trap: a bug) has posted its message; a
// fresh instance, with no games, takes what comes after it.
async function pump() {
  if (running || !run) return;
  running = true;
  try {
    do {
      try {
        await run();
      } catch (e) {
        await instantiate();
      }
    } while (waiting.length);
  } finally {
    running = false;
  }
}

// Started by the page's boot.js, this worker is given the module the page compiled (its
// first message that is not text); started otherwise, it compiles the module itself.
const fromPage = self.name === 'bashni-serve:module-from-page';
let given = null; // resolves with the page's module (null: the page could not compile it)
const pageModule = new Promise((resolve) => { given = resolve; });

self.onmessage = (e) => {
  if (typeof e.data !== 'string') {
    if (e.data && 'module' in e.data) given(e.data.module);
    return;
  }
  waiting.push(encoder.encode(e.data));
  if (wake) { const w = wake; wake = null; w(); }
  pump();
};

async function compileHere() {
  try {
    return await WebAssembly.compileStreaming(fetch(WASM_URL));
  } catch (e) {
    // A server that does not send application/wasm: compile from the bytes.
    return WebAssembly.compile(await (await fetch(WASM_URL)).arrayBuffer());
  }
}

(async () => {
  try {
    module = (fromPage && await pageModule) || await compileHere();
    await instantiate();
    setInterval(pump, TICK_MS);
    pump();
  } catch (e) {
    self.postMessage(JSON.stringify({ crash: `cannot load ${WASM_URL.href}: ${e.message || e}` }));
  }
})();
