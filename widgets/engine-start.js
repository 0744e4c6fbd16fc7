// How the page starts its engine, apart from the client (widgets/engine.js, which asks and
// answers): the engine's state as a small state machine, the start policy (when the worker may
// download and when its runtime may start), the watchdog and heartbeat that notice a worker gone,
// and the start or replacement of the worker. Nothing here touches the DOM: the clock, timers,
// idle moments, the page's load and visibility, the worker itself and the requests out are passed
// in (engineStart), so Node's tests run it all on a fake clock with a fake worker
// (tests/widgets/engine-start.test.mjs).
//
// The watchdog: a dedicated worker that is terminated, or hangs, sends nothing: no error event, no
// answer. So whenever the page waits for the worker (its start, a request, or the heartbeat's ping
// while idle) the worker must say something within a limit, or it is taken for gone.

import { whenIdle } from "./idle.js";
import { SITE_UPDATED } from "./deploy.js";

// The limits, in milliseconds (a test may set globalThis.rollbookEngineLimits = {answer: 1000, ...}
// before the page's scripts run, so a fault takes seconds to show, not minutes):
export const LIMITS = {
  // From a worker's start to "ready": a first visit over a slow link downloads about 13 MB.
  start: 90_000,
  // An ordinary answer once ready: the engine's caps keep each well under a second
  // (engine/rollbook/dice/limits.py), so this is a phone many times slower, busy with other tabs.
  answer: 20_000,
  // An estimate (prob with `estimate`: up to 10,000 seeded rolls) takes a second or two in a
  // browser, the slowest answer the engine gives on purpose.
  long: 60_000,
  // An idle worker's reply to a ping, and how often one is sent while the page is in view.
  pong: 10_000,
  heartbeat: 10_000,
};

export const limit = (name) => globalThis.rollbookEngineLimits?.[name] ?? LIMITS[name];
export const runsLong = (request) => request?.args?.estimate !== undefined;

/**
 * What the page waits for now, and how long it lets the worker be silent: {why, ms}, or null when
 * it waits for nothing. `why` is "start" (not ready yet: counted from the worker's start),
 * "answer" (a request is out: from now, longer for an estimate) or "pong" (a ping is out).
 */
export function silenceAllowed({ state, startedAt, now, waiting, pinged }) {
  if (state === "starting") return { why: "start", ms: Math.max(0, startedAt + limit("start") - now) };
  if (waiting.length) return { why: "answer", ms: limit(waiting.some(runsLong) ? "long" : "answer") };
  if (pinged) return { why: "pong", ms: limit("pong") };
  return null;
}

/** One timer, re-armed after every sign of life: `onSilence(why)` when the worker said nothing in time. */
export class Watchdog {
  // (the browser's timers called as functions: a setTimeout called on another object throws)
  constructor(onSilence, { now = () => performance.now(), setTimer = (f, ms) => setTimeout(f, ms),
    clearTimer = (timer) => clearTimeout(timer) } = {}) {
    this.onSilence = onSilence;
    this.clock = { now, setTimer, clearTimer };
    this.timer = null;
  }

  /** Wait for what `situation` ({state, startedAt, waiting: the requests out, pinged}) says, from now. */
  arm(situation) {
    this.disarm();
    const wait = silenceAllowed({ ...situation, now: this.clock.now() });
    if (wait !== null) this.timer = this.clock.setTimer(() => this.onSilence(wait.why), wait.ms);
  }

  disarm() {
    this.clock.clearTimer(this.timer);
    this.timer = null;
  }
}

// --- The engine's state -----------------------------------------------------------------------

/**
 * The engine's states and the moves between them: MOVES[state][move] is the state a move leads to;
 * any other move is refused (and said on the console), the state unchanged.
 *
 *   idle      not asked for yet
 *   starting  a worker is loading: the one widgets/start.js started (adopt), a new one (start), or a
 *             new one replacing a worker that stopped (restart: its message says so)
 *   ready     the worker answers
 *   failed    it could not start, or stopped twice on one request: the next ask, or Retry, starts a
 *             new one (start)
 *
 *   idle ──adopt / start──▶ starting ──ready──▶ ready
 *                            │  ▲ restart         │ restart (back to starting), fail
 *                       fail ▼  └─────────────────┘
 *                           failed ──start──▶ starting
 */
export const MOVES = {
  idle: { adopt: "starting", start: "starting" },
  starting: { ready: "ready", restart: "starting", fail: "failed" },
  ready: { restart: "starting", fail: "failed" },
  failed: { start: "starting" },
};

// What a player reads, as a sentence (the status line) and as a widget's error message.
export const COULD_NOT_START = {
  status: "The dice engine could not start. Check the connection, then try again.",
  answer: "the dice engine could not start: check the connection, then tap Retry",
};
export const STOPPED = {
  status: "The dice engine stopped and did not answer. Tap Retry, then try again.",
  answer: "the dice engine stopped before it answered: tap Retry, then try again",
};
export const RESTARTING = "The dice engine stopped; starting it again…";
const NO_FOLDER = "this page names no engine version (<meta name=\"rollbook-engine\">)";
// How long a failure waits for the site to say whether it was updated (siteUpdated) before it is
// said in the ordinary words: a link too slow to answer a HEAD in this time is a link problem.
const UPDATED_AT_MOST_MS = 4000;

// --- The start policy -------------------------------------------------------------------------
// On a first visit the worker downloads only once the page has drawn the reader's first screen
// (its widgets say when, widgets/element.js), and starts the runtime (the CPU-heavy part) only when
// the page asks, the reader reaches for a widget, or the page has settled after its load
// (widgets/engine-worker.js): the page's own start never shares the CPU with the engine's. A
// widget that asks as it is drawn (a ruling's title, a table) is answered once both are done.
//
// Downloads: "held" ▶ "awaiting-screen" (wanted: once the first screen is drawn) ▶ "allowed";
// the reader reaching for a widget allows them at once. The runtime is `wanted` from a request or
// a reach on: a new worker is told {go: true} then, {fetch: true} when only downloads are allowed.
// The first screen: "unknown" (no widget said) ▶ "drawing" (widgets are drawing it) ▶ "drawn".

const SETTLE_MS = 1000; // after the load event: Material's and the widgets' first work is done by then
// A page whose widgets never say they have drawn does not hold the engine longer than this.
const DRAWN_AT_MOST_MS = 1500;

/** Call `callback` after the page's load event (at once, if it is over). */
function afterLoad(callback) {
  const state = globalThis.document?.readyState;
  if (state === "loading" || state === "interactive") addEventListener("load", callback, { once: true });
  else callback();
}

/** The browser's side of it (a test passes its own). */
export const BROWSER = {
  now: () => performance.now(),
  // (the browser's timers called as functions: a setTimeout called on another object throws)
  setTimer: (f, ms) => setTimeout(f, ms),
  clearTimer: (timer) => clearTimeout(timer),
  whenIdle,
  afterLoad,
  mark: (name) => performance.mark(name),
  hidden: () => globalThis.document?.visibilityState === "hidden",
  warn: (...words) => console.warn(...words),
};

/**
 * The page's one engine start: its state (MOVES), its worker, the start policy, the watchdog and
 * the heartbeat. `folder`: the page's engine folder, or null (then every start fails); `spawn(folder)`:
 * a new worker; `handoff`: {take()} the worker widgets/start.js started ({folder, worker, early}) or
 * null, once; `requests`: the client's requests out ({size(), waiting(), has(id), anyResent(),
 * resend(post), answer(id, response), failAll(words, detail)}); `onStatus(status)` on every move;
 * `siteUpdated()`: resolves true when a newer deploy replaced the page's engine folder
 * (widgets/deploy.js; null: never asked), asked once whenever a start fails.
 * (A closure, not a class: the bundle's minifier shortens its variables, not an object's fields.)
 */
export function engineStart({ folder, spawn, handoff, requests, onStatus = () => {}, env = BROWSER, siteUpdated = null }) {
  let status = { state: "idle", message: null, detail: null, via: null, why: null, gate: null, took: null, reload: null };
  let worker = null;
  let startedAt = 0; // when the worker in `worker` was started or adopted
  let pinged = false; // a ping is out and its pong not back
  let heartbeat = null;
  let downloads = "held"; // the start policy, above
  let wanted = false;
  let screen = "unknown";
  let settling = false;
  let startIsOver = false;
  let asking = false; // a failure waits for the site to say whether it was updated: nothing starts meanwhile
  const afterStart = [];
  const watchdog = new Watchdog((why) => (why === "start" ? failAll(COULD_NOT_START, `not ready after ${Math.round(limit("start") / 1000)} s`)
    : stopped(why === "answer" ? "no answer in time" : "no reply to a ping")), env);

  /** Take the move `name` from the state now (MOVES); the new status has `details` (its message,
   *  detail, how the worker started: via, why, gate, took, and `reload`: true where Reload, not
   *  Retry, is the way on), null where not given. */
  function move(name, details = {}) {
    const state = MOVES[status.state][name];
    if (!state) return env.warn(`rollbook: the engine cannot ${name} while ${status.state}`);
    status = { state, message: null, detail: null, via: null, why: null, gate: null, took: null, reload: null };
    for (const key in details) status[key] = details[key] ?? null;
    onStatus(status);
  }

  // --- the worker

  /** The worker, started (or adopted from widgets/start.js) if there is none; null when it failed. */
  function workerNow() {
    if (asking) return null; // failing: the request is answered with the others
    if (worker === null && !adopt()) start("start");
    return worker;
  }

  /** The worker widgets/start.js started from the page's <head>, with what it said meanwhile. */
  function adopt() {
    const started = handoff.take();
    if (!started) return false;
    if (started.folder !== folder) { // (never: both read the one meta)
      started.worker.terminate();
      return false;
    }
    worker = started.worker;
    startedAt = env.now();
    move("adopt");
    listen(worker);
    watch();
    for (const early of started.early) {
      if (worker !== started.worker) break; // failed already
      if (early.kind === "error") errorEvent(early.message);
      else received(early.data);
    }
    return true;
  }

  /** A new worker (`how`: start, or restart with its `message`), told how far it may go. */
  function start(how, message = null) {
    move(how, { message });
    if (folder === null) return failAll(COULD_NOT_START, NO_FOLDER); // a page the build did not write
    try {
      worker = spawn(folder);
    } catch (error) { // (the browser refused to make it: a blocked script, too many workers)
      return failAll(COULD_NOT_START, String(error?.message ?? error));
    }
    startedAt = env.now();
    listen(worker);
    watch();
    // one that replaces a worker the page had told to go, or to download
    if (wanted && downloads === "allowed") worker.postMessage({ go: true });
    else if (downloads === "allowed") worker.postMessage({ fetch: true });
  }

  function listen(started) {
    const current = (handle) => (event) => { if (started === worker) handle(event); }; // not a dropped one
    started.onmessage = current((event) => received(event.data));
    // A worker that cannot even be fetched or parsed reports here, not through onmessage; so does
    // an error it did not catch, after which it cannot be trusted to answer.
    started.onerror = current((event) => {
      event.preventDefault();
      errorEvent(event.message);
    });
    started.onmessageerror = current(() => stopped("an answer could not be read"));
  }

  function errorEvent(message) {
    const detail = message || "its worker failed to load";
    if (status.state === "ready") stopped(detail);
    else failAll(COULD_NOT_START, detail);
  }

  function received({ id, response, status: started, message, via, why, gate, took, pong }) {
    if (pong) pinged = false;
    if (started === "ready") {
      move("ready", { via, why, gate, took });
      beatLater();
    }
    // A worker whose Pyodide failed to load (say, the phone lost its signal) stays broken:
    // drop it, so the next ask loads afresh instead of failing for the rest of the visit.
    if (started === "failed") return failAll(COULD_NOT_START, message);
    // (that request is answered with the failure, with the others waiting)
    if (response?.error?.kind === "load" && requests.has(id)) return failAll(COULD_NOT_START, response.error.message);
    requests.answer(id, response);
    watch(); // a sign of life: the next wait starts from now
    checkStartOver();
  }

  function drop() {
    worker?.terminate();
    worker = null;
    pinged = false;
    watchdog.disarm();
    env.clearTimer(heartbeat);
  }

  /** The worker is done for: every request waiting is answered with `words`, and the next ask, or
   *  Retry, starts a fresh worker. `detail` (the browser's or worker's own words) goes to the
   *  console, not the page. Where a newer deploy replaced the page's engine folder, no Retry can
   *  start it: the site is asked first (a few seconds at most; requests asked meanwhile wait with
   *  the others), and then they and the status say so (SITE_UPDATED: Reload is the way on). */
  function failAll(words, detail) {
    env.warn(`rollbook: ${words.status}`, detail);
    drop();
    if (asking) return; // the failure is being said already
    if (!siteUpdated) return failed(words, detail);
    asking = true;
    let told = false;
    const tell = (updated) => {
      if (told) return;
      told = true;
      env.clearTimer(timer);
      asking = false;
      failed(updated === true ? SITE_UPDATED : words, detail);
    };
    const timer = env.setTimer(() => tell(false), UPDATED_AT_MOST_MS);
    Promise.resolve().then(siteUpdated).then(tell, () => tell(false));
  }

  function failed(words, detail) {
    requests.failAll(words, detail);
    move("fail", { message: words.status, detail, reload: words.reload });
    checkStartOver();
  }

  /** A worker that was ready has died or gone silent: a new one is started at once and each
   *  request it left unanswered is sent to it once more, so the tap is answered, not lost (the
   *  engine answers from the request alone, and a seeded roll comes out the same). A request that
   *  already went unanswered twice is likely what stops the worker: it is answered with the
   *  failure instead, and the page offers Retry. */
  function stopped(detail) {
    if (requests.anyResent()) return failAll(STOPPED, detail);
    env.warn(`rollbook: the dice engine stopped (${detail}); starting it again`);
    drop();
    start("restart", RESTARTING);
    if (worker === null) return; // it could not even be started: failAll answered them
    requests.resend((message) => worker.postMessage(message));
    watch();
  }

  // --- the watchdog and the heartbeat

  /** (Re)arm the watchdog after every sign of life, and whenever the page starts waiting. */
  function watch() {
    if (worker === null) return watchdog.disarm();
    watchdog.arm({ state: status.state, startedAt, waiting: requests.waiting(), pinged });
  }

  /** While the page is in view, a ready, idle worker is pinged now and then: one that is gone is
   *  noticed before the next tap, and the state stops saying "ready". Never in front of an ask. */
  function beat() {
    env.clearTimer(heartbeat);
    heartbeat = null;
    if (worker === null || status.state !== "ready") return;
    if (env.hidden()) return; // resumed when shown again
    if (!requests.size() && !pinged) {
      pinged = true;
      worker.postMessage({ ping: true });
      watch();
    }
    beatLater();
  }

  function beatLater() {
    heartbeat = env.setTimer(beat, limit("heartbeat"));
  }

  // --- the first start

  function checkStartOver() {
    if (startIsOver || requests.size() || (status.state !== "ready" && status.state !== "failed")) return;
    startIsOver = true;
    env.mark("rollbook: engine start over");
    for (const callback of afterStart.splice(0)) callback();
  }

  // --- the start policy

  function letDownload() {
    if (downloads === "allowed") return;
    downloads = "allowed";
    env.mark("rollbook: engine downloads");
    worker?.postMessage({ fetch: true });
  }

  /** Let the worker download once the page has drawn its first screen: when its widgets say so,
   *  or, on a page without widgets, after its load at the first idle moment. */
  function downloadWhenDrawn() {
    if (downloads !== "held") return;
    downloads = "awaiting-screen";
    if (screen === "drawn") return letDownload();
    env.setTimer(letDownload, DRAWN_AT_MOST_MS);
    if (screen === "unknown") env.afterLoad(() => env.whenIdle(letDownload, { timeout: 500, fallbackMs: 50 }));
  }

  /** `callback`, for the page's own start (settled, or a widget drawn): never after a failed start.
   *  That waits for the reader (Retry, or their next ask): a start of the page's own took the notice
   *  and its Retry away from under the reader's thumb to "Starting…", and brought them back when
   *  it failed too. */
  function unlessFailed(callback) {
    return () => { if (status.state !== "failed") callback(); };
  }

  /** Start the engine now: the reader is reaching for a widget, the answer is wanted soon. */
  function warmUp() {
    wanted = true;
    if (asking) return; // failing: Retry is offered (or not) once that is said
    downloads = "allowed"; // the reader is here: the page has drawn what they reach for
    if (worker === null && !adopt()) return start("start"); // a new worker is told to go as it starts
    worker?.postMessage({ go: true });
  }

  return {
    /** The engine's state now: {state, message, detail, via, why, gate, took, reload}. */
    status: () => status,
    /** Whether the first start is over (ready or failed, and each request asked meanwhile answered). */
    over: () => startIsOver,
    beat,
    warmUp,

    /** A request: it opens the worker's gate itself (and any worker's after it); its downloads wait
     *  for the page's first screen (drawn already, once a reader taps). Throws what postMessage
     *  throws (a request that cannot cross to the worker). */
    send(message) {
      wanted = true;
      downloadWhenDrawn();
      workerNow()?.postMessage(message); // null: failed, and failAll answered it
      // The first wait arms the watchdog; later ones share it (its limit counts from the worker's
      // last sign of life), except that an estimate gets its longer limit.
      if (worker !== null && (requests.size() === 1 || runsLong(message.request))) watch();
    },

    /** Call `callback` once the first start is over, at once if it is. */
    whenStartOver(callback) {
      if (startIsOver) callback();
      else afterStart.push(callback);
    },

    /** The widgets are drawing the reader's first screen: the downloads wait for firstScreenDrawn(). */
    firstScreenComing() {
      if (screen === "unknown") screen = "drawing";
    },

    /** The reader's first screen is drawn and painted. */
    firstScreenDrawn() {
      screen = "drawn";
      if (downloads === "awaiting-screen") letDownload();
    },

    /** Start the engine once the page has settled: reading the page comes first. The worker is
     *  there at idle (from the page's head, when widgets/start.js started it); it downloads once
     *  the page has drawn. */
    warmUpWhenIdle() {
      if (!settling && !wanted) {
        settling = true;
        downloadWhenDrawn();
        env.afterLoad(() => env.setTimer(() => env.whenIdle(unlessFailed(warmUp), { timeout: 1000, fallbackMs: 200 }), SETTLE_MS));
      }
      if (worker === null) env.whenIdle(unlessFailed(workerNow), { timeout: 2000, fallbackMs: 200 });
    },

    /** After a failed start: try again (the reader pressed "Retry"). */
    retry() {
      if (status.state === "failed" || worker === null) warmUp();
    },

    /** Take over the worker widgets/start.js started, now: the state (starting, ready) is known
     *  from the widgets' first drawing. */
    takeOver: workerNow,
  };
}
