// Starts the engine's worker as early as a page can. The build puts this file in the <head> of
// every tool page (a widget that asks the engine; rules pages with dice in the text start it when
// idle: hooks/pyodide_bundle.py), right after the meta naming the engine folder, as a classic
// async script: it runs as soon as it has arrived, before Material's bundle and the widgets'
// module graph (an async *module* script first waits for its imports, which the page's own
// scripts delay by about 100 ms). The worker loads its own module at once; it downloads the
// runtime once widgets/engine.js says the page has drawn its first screen, and starts it when told
// to (a request, the reader reaching for a widget, or the page settled): the page's own start never
// waits for it.
//
// The page still has one worker: this script hands it over to widgets/engine.js, which adopts it
// when evaluated, with the messages it sent in the meantime (a dedicated worker's messages are
// dispatched at once, listener or not, so they are kept here until then).
"use strict";
(() => {
  if (globalThis.rollbookEngineStarted !== undefined) return; // engine.js was first: it starts the worker
  const folder = document.querySelector('meta[name="rollbook-engine"]')?.content;
  // engine.js checks the same shape, and reports a page that names no engine itself
  if (!folder || !/^pyodide\/[0-9a-f]{16}\/$/.test(folder) || !document.currentScript) return;
  const siteRoot = new URL("../", document.currentScript.src);
  const worker = new Worker(new URL(folder + "engine-worker.js", siteRoot), { type: "module", name: "rollbook-engine" });
  const early = [];
  worker.onmessage = (event) => early.push({ kind: "message", data: event.data });
  worker.onerror = (event) => {
    event.preventDefault();
    early.push({ kind: "error", message: event.message });
  };
  globalThis.rollbookEngineStarted = { folder, worker, early };
})();
