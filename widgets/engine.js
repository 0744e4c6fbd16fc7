// The page side of the engine: `ask(request)` sends one JSON request to the shared engine worker
// and resolves with its JSON response, e.g.
//   const answer = await ask({ command: "roll", args: { expression: "2d6", seed: 7 } });
// The worker (and Pyodide inside it) starts on the first ask, once per page, and is kept for the
// rest of the visit. Failures arrive as responses with ok: false, never as rejections, so a
// widget has one code path: show answer.result or answer.error.message.

let worker = null;
let nextId = 0;
const pending = new Map();

function failAll(message) {
  for (const [id, resolve] of pending) {
    resolve({ api: 1, ok: false, command: null, error: { kind: "load", message } });
    pending.delete(id);
  }
  worker?.terminate();
  worker = null; // the next ask starts a fresh worker
}

function engineWorker() {
  if (worker === null) {
    worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module", name: "rollbook-engine" });
    worker.onmessage = (event) => {
      const { id, response } = event.data;
      const resolve = pending.get(id);
      if (resolve) {
        pending.delete(id);
        resolve(response);
      }
      // A worker whose Pyodide failed to load (say, the phone lost its signal) stays broken:
      // drop it, so the next ask loads afresh instead of failing for the rest of the visit.
      if (response?.error?.kind === "load") failAll(response.error.message);
    };
    // A worker that cannot even be fetched or parsed reports here, not through onmessage.
    worker.onerror = (event) => {
      event.preventDefault();
      failAll(`the dice engine could not start: ${event.message || "its worker failed to load"}`);
    };
  }
  return worker;
}

/** Start the engine now (e.g. when a widget scrolls into view) so the first answer comes sooner. */
export function warmUp() {
  engineWorker();
}

/** Ask the engine one question; resolves with its response object ({ok, result} or {ok: false, error}). */
export function ask(request) {
  return new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    try {
      engineWorker().postMessage({ id, request });
    } catch (error) { // e.g. a request holding a function: not JSON, cannot cross to the worker
      pending.delete(id);
      resolve({ api: 1, ok: false, command: request?.command ?? null, error: { kind: "input", message: `the request cannot be sent: ${error.message}` } });
    }
  });
}
