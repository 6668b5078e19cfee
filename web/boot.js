// The first script of the page, run before its modules load. On the static site (its
// index.html says `<meta name="bashni-back-end" content="browser">`: wasm/build.sh writes
// it) the back end is bashni.wasm in a Web Worker: it is started here, so that the module
// downloads and compiles while the page's own modules load, and api.js takes it
// (`bashniBoot`) instead of asking a server that is not there. Served by `bashni serve` it
// does nothing.
(() => {
  const back = document.querySelector('meta[name="bashni-back-end"]');
  if (back && back.content === 'browser' && typeof Worker === 'function') {
    self.bashniBoot = new Worker(new URL('bashni-serve.js', document.baseURI));
  }
})();
