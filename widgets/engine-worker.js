// The engine's module Web Worker: loads Pyodide and the rollbook wheel from the site itself
// (site/pyodide/, next to site/widgets/), then answers {id, request} with {id, response}.
// Only JSON crosses this boundary: the request is JSON text into rollbook.api.call_json and
// the response is its JSON text parsed back, so no Python object ever reaches page code.
// Must be started as a module worker: Pyodide 314's pyodide.asm.mjs cannot be importScripts()ed.
// It also says once how its start went ({status: "ready"} or {status: "failed", message}), so
// the page can tell the reader "Starting the dice engine…" and then get out of the way.

const RUNTIME = new URL("../pyodide/", import.meta.url);

async function start() {
  const { loadPyodide } = await import(new URL("pyodide.mjs", RUNTIME).href);
  const pyodide = await loadPyodide({
    indexURL: RUNTIME.href,
    lockFileURL: new URL("pyodide-lock.json", RUNTIME).href,
    packages: ["rollbook"],
  });
  // A package that fails to load is only logged by loadPyodide; say so plainly here.
  if (!pyodide.loadedPackages.rollbook) throw new Error("the engine package (rollbook wheel) did not load, see the console");
  return pyodide.pyimport("rollbook.api").call_json;
}

function failureMessage(error) {
  return `the dice engine could not start: ${error && error.message ? error.message : error}`;
}

const engine = start();
engine.then(
  () => self.postMessage({ status: "ready" }),
  (error) => self.postMessage({ status: "failed", message: failureMessage(error) }),
);

self.onmessage = async (event) => {
  const { id, request } = event.data ?? {};
  let response;
  try {
    const callJson = await engine;
    try {
      response = JSON.parse(callJson(JSON.stringify(request)));
    } catch (error) {
      // The engine never raises for bad input; reaching here is a bug worth seeing in full.
      response = { api: 1, ok: false, command: request?.command ?? null, error: { kind: "internal", message: String(error) } };
    }
  } catch (error) {
    // Same shape as the engine's own errors, so a widget shows it like any other.
    response = { api: 1, ok: false, command: null, error: { kind: "load", message: failureMessage(error) } };
  }
  self.postMessage({ id, response });
};
