// bashni in a Web Worker: the engine compiled to WebAssembly (bashni.wasm, beside this
// script), speaking the protocol of the native `bashni` (engine-protocol.md) or, when the
// first line is `hub`, the Hub protocol (docs/hub.md).
//
//   const engine = new Worker('bashni-worker.js');
//   engine.onmessage = (e) => console.log(e.data);   // one message per output line
//   engine.postMessage('position startpos moves c3-d4');
//   engine.postMessage('go depth 10');               // ... 'bestmove d4:f6 ...'
//
// Each message in is one protocol line (or several, one per line of its text); each line
// the engine writes comes back as one message. Searches run inside the module; where the
// browser has WebAssembly JavaScript Promise Integration (WebAssembly.Suspending), a search
// gives this script a turn every few milliseconds, so `stop`, `isready` and `ponderhit` act
// while it runs, as on the command line. Without it a search ends at its own limits.
// docs/web.md says more.

const WASM_URL = new URL('bashni.wasm', self.location.href);
const canYield = typeof WebAssembly.Suspending === 'function'
  && typeof WebAssembly.promising === 'function';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const waiting = [];      // input lines not yet taken by the module, as UTF-8 bytes
let module = null;       // the compiled module, kept to start a fresh instance after a crash
let exports = null;      // the running instance's exports
let run = null;          // its bashni_run, wrapped to return a promise where it can suspend
let running = false;     // whether bashni_run is running (perhaps suspended in a search)
let wake = null;         // ends the wait of a search that waits only for input

// A turn for the event loop: a message to ourselves (a task, without the clamping that
// nested timers get); while the search only waits for input, until a line comes (or 100 ms).
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

const imports = {
  bashni: {
    bashni_now_ms: () => performance.now(),
    bashni_unix_ms: () => Date.now(),
    bashni_emit: (ptr, len) => { self.postMessage(decoder.decode(memory().subarray(ptr, ptr + len))); },
    bashni_next_len: () => (waiting.length ? waiting[0].length : -1),
    bashni_next_take: (ptr, cap) => { memory().set(waiting.shift().subarray(0, cap), ptr); },
    bashni_yield: canYield ? new WebAssembly.Suspending(giveTurn) : () => {},
    bashni_can_yield: () => (canYield ? 1 : 0),
    // The module's back end of the static site (bashni-serve.js) is not used here.
    bashni_serve_post: () => {},
    bashni_serve_next_len: () => -1,
    bashni_serve_next_take: () => {},
  },
};

async function instantiate() {
  const instance = await WebAssembly.instantiate(module, imports);
  exports = instance.exports;
  run = canYield ? WebAssembly.promising(exports.bashni_run) : exports.bashni_run;
  exports.bashni_init();
}

// Runs the module while lines wait. A crash (a trap: a bug) has printed its line; a fresh
// instance takes the lines that come after it.
async function pump() {
  if (running || !run) return;
  running = true;
  try {
    while (waiting.length) {
      try {
        await run();
      } catch (e) {
        await instantiate();
      }
    }
  } finally {
    running = false;
  }
}

self.onmessage = (e) => {
  const text = String(e.data);
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) waiting.push(encoder.encode(line));
  if (wake) { const w = wake; wake = null; w(); }
  pump();
};

(async () => {
  try {
    const response = fetch(WASM_URL);
    try {
      module = await WebAssembly.compileStreaming(response);
    } catch (e) {
      // A server that does not send application/wasm: compile from the bytes.
      module = await WebAssembly.compile(await (await fetch(WASM_URL)).arrayBuffer());
    }
    await instantiate();
    pump();
  } catch (e) {
    self.postMessage(`info string error: cannot load ${WASM_URL.href}: ${e.message || e}`);
  }
})();
