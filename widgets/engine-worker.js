// The engine's module Web Worker: loads Pyodide and the rollbook wheel from the site itself, then
// answers {id, request} with {id, response}. Only JSON crosses this boundary: the request is JSON
// text into rollbook.api.call_json and the response is its JSON text parsed back, so no Python
// object ever reaches page code. Must be started as a module worker: Pyodide 314's
// pyodide.asm.mjs cannot be importScripts()ed.
//
// The build puts this file in the runtime's versioned folder, site/pyodide/<hash>/, beside
// everything it loads (runtime, lockfile, wheel, snapshot), and every page names that folder
// (widgets/engine.js): a page of one deploy never talks to an engine or lockfile of another.
//
// Fast start: the folder holds a memory snapshot of Pyodide with the engine already imported,
// made at build time (hooks/pyodide_snapshot.mjs). Restoring it skips Python's start-up and the
// engine's imports. A snapshot holds the WebAssembly heap only, so the engine's files are put
// back from the wheel (after the first answer: see restore()), and Python's random module is
// reseeded: otherwise every restored tab would share one random state. If anything in that fails
// (no snapshot, another Pyodide build, a damaged file), or the snapshot is not cached and the link
// is too slow to bring it in time (see snapshotResponse()), the worker starts Pyodide the normal
// way and loads the wheel. Once it has answered, the unpacked snapshot is kept on the device,
// and a returning visit restores that instead of unpacking (keptHeap()).
// It says once how its start went ({status: "ready", via: "snapshot" | "fresh", why, took: {step:
// ms}} or {status: "failed", message}), so the page can tell the reader "Starting the dice engine…".
//
// On a first visit the worker waits for the page's words (widgets/engine.js) twice:
// - to download the big files (about 13 MB: runtime, standard library, snapshot,
//   unpacked as they come) until {fetch: true}, which the page sends once it has drawn the
//   reader's first screen. Begun from the page's <head>, those downloads (the browser unpacking
//   them, the worker unpacking the snapshot) took the CPU the page needed for its own first
//   drawing: Lighthouse's total blocking time on tools/character/ was 35-750 ms with them and
//   0-58 ms without (benchmarks/README.md). The small files go at once (lockfile, wheel, and the
//   link's measure on pyodide.asm.mjs: 0.45 MB as served): they cost the drawing nothing measurable,
//   and waiting for them after the word put the first roll 0.1-0.2 s later.
// - to start the runtime proper (compiling it and restoring the snapshot: a few hundred
//   milliseconds of every core this device has) until a request, or {go: true}: the page sends it
//   when the reader reaches for a widget, or once the page has settled after its load. Run while
//   the page itself was starting, that start stretched the page's own tasks: Lighthouse's total
//   blocking time on tools/roller/ was 250-460 ms with it and 115-140 ms without.
// {go: true} says both. When the snapshot is on the device already (a player coming back: the
// compiled runtime is cached too, so there is no compiling), it starts at once: waiting for the
// reader's first tap put that tap's roll about 0.4 s behind a page that started at once
// ("Phone-class check"). The ready message says which it was (`gate`: "cached" or "page").

const RUNTIME = new URL("./", import.meta.url);
const fromNetwork = globalThis.fetch.bind(globalThis);
// Keep in step with hooks/pyodide_snapshot.mjs, which proves the snapshot with the same steps.
const AFTER_RESTORE = "import random; random.seed()";
const SITE_PACKAGES = "import sysconfig; sysconfig.get_path('purelib')";
const SNAPSHOT = "engine.snapshot.gz";

async function fetchOk(name, init) {
  const response = await fetch(new URL(name, RUNTIME), init);
  if (!response.ok) throw new Error(`${name} could not be fetched (HTTP ${response.status})`);
  return response;
}

function integrity(hexDigest) { // the lockfile's sha256, as fetch() checks it
  return "sha256-" + btoa(String.fromCharCode(...hexDigest.match(/../g).map((byte) => parseInt(byte, 16))));
}

// milliseconds since the worker started, per step: reported with "ready" (`origin`: the worker's
// start on the clock of performance.timeOrigin, so a page can put the steps on its own clock)
const took = { origin: Math.round(performance.timeOrigin) };
const mark = (step) => { took[step] ??= Math.round(performance.now()); };

// The two words' gates (see the top): downloads wait for `fetching`, the runtime's start for `gate`.
let fetchWord;
const fetching = new Promise((resolve) => { fetchWord = resolve; });
fetching.then(() => mark("fetch"));
let go;
let gateOpenedBy = null; // "cached" or "page", reported with "ready"
const gate = new Promise((resolve) => { go = resolve; });
function open(by) {
  gateOpenedBy ??= by;
  go();
}

// What a restore needs, asked for at once (small: see the top): these downloads (or cache reads)
// are done before the snapshot comes.
const lockFile = fetchOk("pyodide-lock.json").then((response) => response.json());
const wheel = lockFile.then(async (lock) => {
  const { file_name: name, sha256 } = lock.packages.rollbook;
  return new Uint8Array(await (await fetchOk(name, { integrity: integrity(sha256) })).arrayBuffer());
});
for (const promise of [lockFile, wheel]) promise.catch(() => {}); // reported where awaited

// The snapshot comes from this device's caches when it is there (the service worker's precache or
// the HTTP cache). Otherwise it is downloaded only over a fast link: it is about 7 MB packed and
// saves about a second and a half of start-up, so on a first visit over a slow link it would
// arrive after a normal start is ready (benchmarks/README.md, "Fast start"). There the worker
// starts afresh, and the service worker fetches the snapshot for the next visit. The link is
// measured on pyodide.asm.mjs, which both ways of starting need first, at once; the snapshot
// itself waits for the page's word to download.
const SAVES_SECONDS = 1.5;
let why = null; // how the snapshot was chosen or passed over, reported with "ready"
let onDevice = false; // the snapshot was in this device's caches (see downloadRuntime())

async function snapshotResponse() {
  try {
    const cached = await fetch(new URL(SNAPSHOT, RUNTIME), { cache: "only-if-cached", mode: "same-origin" });
    if (cached.ok) {
      why = "cached";
      onDevice = true;
      fetchWord(); // a device that has the engine: no one waits for a word or a tap
      open("cached");
      return (await keptHeap(cached)) ?? cached;
    }
  } catch { /* not in any cache */ }
  const started = performance.now();
  const [runtime, info] = await Promise.all([
    fetchOk("pyodide.asm.mjs").then((response) => response.arrayBuffer()), // imported from the HTTP cache later
    fetchOk("engine.snapshot.json").then((response) => response.json()),
  ]);
  const seconds = (performance.now() - started) / 1000;
  const entry = performance.getEntriesByName(new URL("pyodide.asm.mjs", RUNTIME).href, "resource").at(-1);
  if (!entry?.transferSize) {
    await fetching;
    return probedSnapshot(info.packed_bytes); // the runtime came from a cache: no measure
  }
  // The rate of the body alone, from its first byte to its last: the request's round trip is
  // not bandwidth. Timed from the request instead, a host that compresses the file (0.26 MB
  // gzip-encoded, not 1.25 MB: GitHub Pages does) measured its latency: localhost read 2.8-3.9
  // MB/s, the snapshot was passed over and the first roll came after a bare page's (2026-12-05).
  const body = entry.responseStart > 0 ? (entry.responseEnd - entry.responseStart) / 1000 : seconds;
  const bytesPerSecond = (entry.encodedBodySize || runtime.byteLength) / Math.max(body, 0.001);
  if (info.packed_bytes / bytesPerSecond > SAVES_SECONDS) {
    why = `not cached, slow link (${megabytes(bytesPerSecond)} MB/s)`;
    return null;
  }
  why = `fast link (${megabytes(bytesPerSecond)} MB/s)`;
  await fetching;
  return fetchOk(SNAPSHOT);
}

const megabytes = (bytes) => (bytes / 1e6).toFixed(1);
const PROBE_SECONDS = 0.25;

// The runtime was cached (say, a private window's memory cache, which keeps it but not the
// snapshot) so the link is measured on the snapshot's own first bytes: the download goes on if
// the rest would arrive in time, and is dropped otherwise.
async function probedSnapshot(packedBytes) {
  const controller = new AbortController();
  const response = await fetchOk(SNAPSHOT, { signal: controller.signal });
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  let first = null; // when the first bytes came: from there on the rate is the link's, not its latency
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      why = "not cached, downloaded whole while measured";
      return new Response(new Blob(chunks));
    }
    chunks.push(value);
    const now = performance.now();
    if (first === null) {
      first = now;
      continue;
    }
    received += value.byteLength;
    const elapsed = (now - first) / 1000;
    if (elapsed < PROBE_SECONDS) continue;
    const bytesPerSecond = received / elapsed;
    if ((packedBytes - received) / bytesPerSecond > SAVES_SECONDS) {
      controller.abort();
      why = `not cached, slow link (${megabytes(bytesPerSecond)} MB/s, measured on the snapshot)`;
      return null;
    }
    why = `fast link (${megabytes(bytesPerSecond)} MB/s, measured on the snapshot)`;
    return new Response(new ReadableStream({ // what came while measuring, then the rest
      start(stream) { for (const chunk of chunks) stream.enqueue(chunk); },
      async pull(stream) {
        const { done, value } = await reader.read();
        if (done) stream.close();
        else stream.enqueue(value);
      },
      cancel(reason) { return reader.cancel(reason); },
    }));
  }
}

// The snapshot's heap: a kept one (keptHeap) read as it is, once it proves to be the build's;
// else the packed snapshot unpacked as it comes.
async function unpacked(chosen) {
  let heap = null;
  if (chosen instanceof KeptHeap) {
    heap = await chosen.verified();
    if (heap) chosen.packed.body?.cancel().catch(() => {});
    else chosen = chosen.packed;
  }
  heap ??= await new Response(chosen.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  mark("snapshot");
  return heap;
}

// The unpacked snapshot, kept on this device once a start has unpacked it: a returning visit
// reads its 31 MB from Cache Storage instead of unpacking 7 MB, which took about 0.2 s of the
// worker's CPU and held back the runtime's compiling beside it (benchmarks/kept_heap.py; at 4x
// page CPU the first roll came 120 ms sooner: benchmarks/README.md, "Fast start: what each idea
// bought"). It is looked for only once the packed one is found cached, and it
// is used only when its SHA-256 is the build's (engine.snapshot.json): a damaged or foreign heap
// would be a Python that answers wrongly, so it is let go and the packed one unpacked instead,
// and kept again after the next answer. Its key is in the engine's folder, so a new deploy never
// restores an old heap, and keeping a new one lets the older ones go. The cache's name holds the
// site's address, as Workbox's do, so removing the offline copy (widgets/offline.js) removes it too.
const SITE_ROOT = new URL("../../", RUNTIME).href;
const HEAP_CACHE = `rollbook-engine-heap-${SITE_ROOT}`;
const HEAP = new URL("engine.snapshot.heap", RUNTIME).href; // a key only: no such file is served

class KeptHeap {
  constructor(response, sha256, packed) {
    Object.assign(this, { response, sha256, packed });
  }

  /** The heap's bytes, or null (and the heap let go) when they are not the build's. */
  async verified() {
    try {
      const bytes = await this.response.arrayBuffer();
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
      if (Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("") === this.sha256) return bytes;
      console.warn("rollbook: the engine's kept heap is not the build's; unpacking the snapshot again");
    } catch (error) {
      console.warn("rollbook: the engine's kept heap could not be read; unpacking the snapshot again", error);
    }
    why = "cached";
    await caches.delete(HEAP_CACHE).catch(() => false);
    return null;
  }
}

/** The heap kept on this device, beside `packed` (the cached packed snapshot), or null. */
async function keptHeap(packed) {
  try {
    const [response, info] = await Promise.all([
      caches.match(HEAP, { cacheName: HEAP_CACHE }),
      fetch(new URL("engine.snapshot.json", RUNTIME), { cache: "only-if-cached", mode: "same-origin" })
        .then((answer) => (answer.ok ? answer.json() : null)),
    ]);
    if (!response || typeof info?.snapshot_sha256 !== "string") return null;
    why = "cached, unpacked";
    return new KeptHeap(response, info.snapshot_sha256, packed);
  } catch { // no Cache Storage here (a private window may refuse it): unpack as before
    return null;
  }
}

async function keepHeap(heap) {
  try {
    const cache = await caches.open(HEAP_CACHE);
    await cache.put(HEAP, new Response(heap, { headers: { "Content-Type": "application/octet-stream" } }));
    for (const request of await cache.keys()) if (request.url !== HEAP) await cache.delete(request);
  } catch (error) { // a full disk, say: the next start unpacks, as it did
    console.warn("rollbook: the unpacked engine snapshot could not be kept on this device", error);
  }
}

async function restore(loadPyodide, snapshot) {
  compileRuntime();
  const pyodide = await settled(loadPyodide({
    indexURL: RUNTIME.href,
    packageBaseUrl: RUNTIME.href,
    lockFileContents: lockFile,
    _loadSnapshot: snapshot,
  }));
  mark("restored");
  pyodide.runPython(AFTER_RESTORE);
  const callJson = pyodide.pyimport("rollbook.api").call_json;
  mark("engine");
  // The engine's files go back once it has answered and then been idle a while, not before: the
  // snapshot holds every engine module imported and every table and ruling loaded, so answering
  // reads no file (the Pyodide harness, tests/pyodide/run.mjs, answers the whole corpus from a
  // restored snapshot with no engine file on disk). They are put back for what may read them
  // later (a traceback's source lines), where unpacking them (30-40 ms) delays no roll.
  // The unpacked heap is kept then too (keepHeap), where it was unpacked on this start.
  afterFirstAnswer = () => {
    wheel.then(
      (bytes) => pyodide.unpackArchive(bytes, "wheel", { extractDir: pyodide.runPython(SITE_PACKAGES) }),
      (error) => console.warn("rollbook: the engine's files could not be put back after the snapshot", error),
    );
    if (why !== "cached, unpacked") snapshot.then(keepHeap);
  };
  return callJson;
}

async function fresh(loadPyodide) {
  compileRuntime();
  const pyodide = await settled(loadPyodide({
    indexURL: RUNTIME.href,
    packageBaseUrl: RUNTIME.href,
    lockFileContents: lockFile,
  }));
  // The wheel already asked for at the start (checked against the lockfile's sha256), not a
  // second download by loadPackage: the engine has no dependencies to resolve.
  const bytes = await wheel.catch((error) => {
    throw new Error(`the engine package (rollbook wheel) did not load: ${error.message}`);
  });
  pyodide.unpackArchive(bytes, "wheel", { extractDir: pyodide.runPython(SITE_PACKAGES) });
  return pyodide.pyimport("rollbook.api").call_json;
}

let via = "snapshot";
let afterFirstAnswer = null; // once, when the engine has been idle a while after answering
let filesBack = null;
const FILES_BACK_WHEN_IDLE_MS = 2000;
// The runtime's two big files, downloaded while the gate is shut and handed to Pyodide when it asks
// for them (by the URL it fetches), so each crosses the network once and no later than before.
// Whichever comes first (downloadRuntime, or Pyodide's own fetch) begins the one download: the
// order is a race of a few microtasks. Pyodide 314 asks with URL objects, not strings: keyed by
// a string alone, the early downloads were never handed over and the wasm travelled twice.
// A download is kept as it comes (held()), not as a Blob once whole: the wasm is compiled from
// it as it streams in (compileRuntime()).
const WASM = new URL("pyodide.asm.wasm", RUNTIME).href;
const RUNTIME_FILES = [WASM, new URL("python_stdlib.zip", RUNTIME).href];
const HANDED_OVER = null;
const early = new Map(); // URL -> its download, or HANDED_OVER (Pyodide has it: no second one)
function runtimeFile(url) {
  if (!early.has(url)) early.set(url, fromNetwork(url).then((response) => held(response, url)));
  return early.get(url);
}

// The response with its body read on at once and kept until someone reads it: the download goes
// on while the gate is shut, and whoever takes it streams what came so far, then the rest.
function held(response, url) {
  if (!response.ok || !response.body) return response; // Pyodide reports it as it would have
  const reader = response.body.getReader();
  const chunks = [];
  let finished = false;
  let failure = null;
  let wake = null;
  const woken = () => { wake?.(); wake = null; };
  (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        woken();
      }
      finished = true;
      mark(url.split("/").at(-1));
    } catch (error) {
      failure = error;
    }
    woken();
  })();
  const body = new ReadableStream({
    async pull(stream) {
      while (!chunks.length && !finished && !failure) await new Promise((resolve) => { wake = resolve; });
      if (chunks.length) stream.enqueue(chunks.shift());
      else if (failure) stream.error(failure);
      else stream.close();
    },
    cancel(reason) { return reader.cancel(reason); },
  });
  // application/wasm: compiled as it streams
  return new Response(body, { headers: { "Content-Type": response.headers.get("Content-Type") ?? "" } });
}

// A device that has the engine (snapshot cached) needs no early download: nothing waits, and
// Pyodide fetches the files from the device's caches itself, as a bare start does.
function downloadRuntime() {
  if (onDevice) return;
  for (const url of RUNTIME_FILES) runtimeFile(url);
}

// Once the runtime may start (the gate open, downloads allowed), the wasm is compiled as it comes
// and the runtime's JavaScript imported, while the snapshot still downloads and unpacks: Pyodide
// itself compiles only after both, as it instantiates (it needs the snapshot's size first). It is
// then handed the compiled module: its fetch of the wasm gets a stand-in response that
// instantiateStreaming below knows. From the HTTP cache or the service worker's, compileStreaming
// reads V8's cached code for the wasm as Pyodide's own instantiateStreaming would.
let compiled = null; // Promise<WebAssembly.Module>
const STAND_INS = new WeakSet();
function compileRuntime() {
  if (compiled) return;
  const response = onDevice || early.get(WASM) === HANDED_OVER ? fromNetwork(WASM) : runtimeFile(WASM);
  if (!onDevice) early.set(WASM, HANDED_OVER);
  mark("compiling");
  compiled = WebAssembly.compileStreaming(response);
  compiled.then(() => mark("compiled"), () => {});
  import(new URL("pyodide.asm.mjs", RUNTIME).href).catch(() => {}); // Pyodide's own import finds it done
}
const instantiateStreaming = WebAssembly.instantiateStreaming;
async function instantiated(source, imports) {
  const response = await source;
  if (!STAND_INS.has(response)) return instantiateStreaming(response, imports);
  const module = await compiled.catch((error) => {
    console.warn("rollbook: the runtime could not be compiled early; compiling it again", error);
    return null;
  });
  if (!module) return instantiateStreaming(fromNetwork(WASM), imports);
  return { module, instance: await WebAssembly.instantiate(module, imports) };
}
WebAssembly.instantiateStreaming = (source, imports) => instantiated(source, imports).catch((error) => {
  runtimeFailed?.(new Error(`the runtime (pyodide.asm.wasm) did not load: ${error?.message ?? error}`));
  throw error;
});

// Pyodide 314 catches a runtime that cannot be instantiated (its wasm answered 404, say: an engine
// folder a newer deploy replaced, whose small files the browser still had cached), logs "wasm
// instantiation failed!" and never settles loadPyodide: the worker said nothing, and the page
// waited its whole start limit (90 s) on "starting" (issue 39). So a load is also ended by the
// runtime's own failure, and the worker says it failed at once.
let runtimeFailed = null;
function settled(loading) {
  return new Promise((resolve, reject) => {
    runtimeFailed = reject;
    loading.then(resolve, reject);
  });
}

globalThis.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (url === WASM && compiled) {
    const standIn = new Response(null, { headers: { "Content-Type": "application/wasm" } });
    STAND_INS.add(standIn);
    return Promise.resolve(standIn);
  }
  if (onDevice || !RUNTIME_FILES.includes(url) || early.get(url) === HANDED_OVER) return fromNetwork(input, init);
  const download = runtimeFile(url);
  early.set(url, HANDED_OVER); // (the response is Pyodide's now: not kept here)
  return download;
};

async function start() {
  const chosen = snapshotResponse();
  chosen.then(() => mark("chosen"), () => {});
  // after the link is measured (on pyodide.asm.mjs; the big files would slow that measure) and
  // the page's word to download (a failure to choose is reported below)
  chosen.catch(() => {}).then(() => fetching).then(downloadRuntime);
  // once the snapshot is chosen, too: a device that has it reads the wasm from its cache, where V8
  // keeps its compiled code (compiled from a held download, a Response of our own, it has none)
  chosen.catch(() => {}).then(() => Promise.all([gate, fetching])).then(compileRuntime);
  const { loadPyodide } = await import(new URL("pyodide.mjs", RUNTIME).href);
  mark("module");
  try {
    const response = await chosen;
    // unpacked (or a kept heap read and checked) while the gate is shut: one thread of the
    // worker's, not the page's, for about 0.2 s (0.05 s) that the first roll no longer waits for
    const heap = response && unpacked(response);
    heap?.catch(() => {}); // reported by restore() below
    await gate;
    mark("go");
    if (heap) return await restore(loadPyodide, heap);
  } catch (error) {
    console.warn("rollbook: the engine snapshot could not be restored; starting Pyodide afresh.", error);
    why = `failed: ${error?.message ?? error}`;
  }
  await gate;
  // A request opens the gate but not the downloads: over a link measured slow (no snapshot),
  // loadPyodide would otherwise fetch the big files itself during the page's first drawing.
  await fetching;
  via = "fresh";
  return await fresh(loadPyodide);
}

function failureMessage(error) {
  return `the dice engine could not start: ${error && error.message ? error.message : error}`;
}

const engine = start();
engine.then(
  () => self.postMessage({ status: "ready", via, why, gate: gateOpenedBy, took }),
  (error) => self.postMessage({ status: "failed", message: failureMessage(error) }),
);

self.onmessage = async (event) => {
  // The page's heartbeat (widgets/engine.js): a reply shows this worker is alive and not stuck.
  if (event.data?.ping) return self.postMessage({ pong: true });
  if (event.data?.fetch) return fetchWord(); // the page has drawn: downloads may begin
  open("page"); // the page's word, or a request: either way the engine is wanted now
  if (event.data?.go) return fetchWord();
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
  if (afterFirstAnswer) { // once the engine has been idle a while: never in front of a tap's roll
    clearTimeout(filesBack);
    filesBack = setTimeout(() => {
      afterFirstAnswer();
      afterFirstAnswer = null;
    }, FILES_BACK_WHEN_IDLE_MS);
  }
};
