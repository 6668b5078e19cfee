// The first script of the page, run before its modules load. On the static site (its
// index.html says `<meta name="bashni-back-end" content="browser">`: wasm/build.sh writes
// it) the back end is bashni.wasm in a Web Worker (wasm/bashni-serve.js). It is started here,
// so that the module downloads and compiles while the page's own modules load: the page
// fetches and compiles bashni.wasm itself (at once, beside its other files, rather than
// after the worker's script has come) and hands the compiled module to the worker, named so
// that it waits for it. api.js takes the worker (`bashniBoot`) instead of asking a server
// that is not there. Served by `bashni serve` it does nothing.
(() => {
  const back = document.querySelector('meta[name="bashni-back-end"]');
  if (!back || back.content !== 'browser' || typeof Worker !== 'function') return;
  const url = (name) => new URL(name, document.baseURI);
  const compiled = WebAssembly.compileStreaming(fetch(url('bashni.wasm')));
  const worker = new Worker(url('bashni-serve.js'), { name: 'bashni-serve:module-from-page' });
  // null: the page could not compile it (a host that does not send application/wasm), and
  // the worker does it from the bytes.
  compiled.then((module) => worker.postMessage({ module }), () => worker.postMessage({ module: null }));
  self.bashniBoot = worker;
})();
