// The engine's start (widgets/engine-start.js) on a fake clock with a fake worker: the watchdog
// (how long the page lets its worker be silent while it starts, while a request is out, and while
// a ping is out; re-armed from every sign of life; quiet when the page waits for nothing), and the
// engine's states and moves (engineStart): start, ready, restart, fail and start again, with the
// start policy's words to the worker and the requests out answered.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { COULD_NOT_START, engineStart, LIMITS, MOVES, RESTARTING, silenceAllowed, STOPPED, Watchdog } from "../../widgets/engine-start.js";
import { Requests } from "../../widgets/engine.js";
import { SITE_UPDATED } from "../../widgets/deploy.js";

/** A clock that moves only when told, with timers that fire as it passes them. */
function fakeClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map(); // id -> {at, fire}
  return {
    now: () => now,
    setTimer: (fire, ms) => { const id = nextId++; timers.set(id, { at: now + ms, fire }); return id; },
    clearTimer: (id) => { timers.delete(id); },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fire();
      }
      now = until;
    },
    pending: () => timers.size,
  };
}

function watched() {
  const clock = fakeClock();
  const silences = [];
  const dog = new Watchdog((why) => silences.push([why, clock.now()]), clock);
  return { clock, silences, dog };
}

afterEach(() => { delete globalThis.rollbookEngineLimits; });

test("a worker not ready within the start limit, counted from its start, is taken for gone", () => {
  const { clock, silences, dog } = watched();
  dog.arm({ state: "starting", startedAt: 0, waiting: [], pinged: false });
  clock.advance(30_000);
  dog.arm({ state: "starting", startedAt: 0, waiting: [{ command: "roll" }], pinged: false }); // a tap meanwhile
  clock.advance(LIMITS.start - 30_000 - 1);
  assert.deepEqual(silences, []);
  clock.advance(1);
  assert.deepEqual(silences, [["start", LIMITS.start]]);
});

test("a request out: the answer limit from the last sign of life, the long one for an estimate", () => {
  const { clock, silences, dog } = watched();
  const situation = { state: "ready", startedAt: 0, waiting: [{ command: "roll" }], pinged: false };
  dog.arm(situation);
  clock.advance(LIMITS.answer - 1);
  dog.arm(situation); // an answer came for another request: counts from now
  clock.advance(LIMITS.answer - 1);
  assert.deepEqual(silences, []);
  clock.advance(1);
  assert.deepEqual(silences, [["answer", 2 * LIMITS.answer - 1]]);
  assert.deepEqual(silenceAllowed({ ...situation, now: 0, waiting: [{ command: "prob", args: { estimate: 1000 } }, { command: "roll" }] }),
    { why: "answer", ms: LIMITS.long });
});

test("a ping out on an idle worker waits for its pong; nothing out, nothing waits", () => {
  const { clock, silences, dog } = watched();
  dog.arm({ state: "ready", startedAt: 0, waiting: [], pinged: true });
  clock.advance(LIMITS.pong);
  assert.deepEqual(silences, [["pong", LIMITS.pong]]);
  dog.arm({ state: "ready", startedAt: 0, waiting: [], pinged: false });
  assert.equal(clock.pending(), 0);
  for (const state of ["idle", "failed"]) assert.equal(silenceAllowed({ state, startedAt: 0, now: 5, waiting: [], pinged: false }), null);
});

test("disarmed, it never fires; a test's shorter limits are read at each arming", () => {
  const { clock, silences, dog } = watched();
  dog.arm({ state: "ready", startedAt: 0, waiting: [{ command: "roll" }], pinged: false });
  dog.disarm();
  clock.advance(10 * LIMITS.long);
  assert.deepEqual(silences, []);
  globalThis.rollbookEngineLimits = { answer: 1000 };
  dog.arm({ state: "ready", startedAt: 0, waiting: [{ command: "roll" }], pinged: false });
  clock.advance(1000);
  assert.deepEqual(silences, [["answer", 10 * LIMITS.long + 1000]]);
  // a start already late when armed fires at once, not after a negative wait
  assert.deepEqual(silenceAllowed({ state: "starting", startedAt: 0, now: LIMITS.start + 5, waiting: [], pinged: false }), { why: "start", ms: 0 });
});

// --- engineStart: the states and moves, with a fake worker ------------------------------------

class FakeWorker {
  sent = [];
  terminated = false;
  postMessage(message) { this.sent.push(message); }
  terminate() { this.terminated = true; }
  say(data) { this.onmessage({ data }); }
}

const FOLDER = "pyodide/0123456789abcdef/";

/** An engine start on a fake clock: its workers, its states in order, its console, and `ask`. */
function started({ handoff = null, folder = FOLDER, refuse = null, siteUpdated = undefined } = {}) {
  const clock = fakeClock();
  const workers = [];
  const states = [];
  const warned = [];
  const loaded = [];
  const idle = [];
  const requests = new Requests();
  const env = { ...clock, whenIdle: (f) => idle.push(f), afterLoad: (f) => loaded.push(f), mark: () => {}, hidden: () => false,
    warn: (...words) => warned.push(words.join(" ")) };
  const engine = engineStart({
    folder, spawn: () => { if (refuse) throw refuse; const w = new FakeWorker(); workers.push(w); return w; },
    handoff: { take: () => { const h = handoff; handoff = null; return h; } },
    requests, onStatus: (status) => states.push(status.state === "starting" && status.message ? "restarting" : status.state), env, siteUpdated,
  });
  const answers = [];
  const ask = (request) => new Promise((resolve) => engine.send({ id: requests.add(request, resolve), request }))
    .then((answer) => { answers.push(answer); return answer; });
  return { clock, workers, states, warned, loaded, idle, engine, ask, answers, requests, last: () => workers.at(-1) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test("the moves: every state is reached from idle, a failed engine only starts again, and nothing else moves", () => {
  const seen = new Set(["idle"]);
  for (let grew = true; grew;) {
    grew = false;
    for (const state of [...seen]) for (const next of Object.values(MOVES[state])) if (!seen.has(next)) { seen.add(next); grew = true; }
  }
  assert.deepEqual([...seen].sort(), ["failed", "idle", "ready", "starting"]);
  assert.deepEqual(MOVES.failed, { start: "starting" });
  assert.equal(MOVES.idle.ready, undefined);
  const { engine, warned, last } = started();
  engine.warmUp();
  last().say({ status: "ready", via: "fresh" });
  last().say({ status: "ready", via: "fresh" }); // said twice: no move from ready to ready
  assert.equal(engine.status().state, "ready");
  assert.deepEqual(warned, ["rollbook: the engine cannot ready while ready"]);
});

test("a request before the first screen: idle -> starting -> ready; downloads wait for the screen; the start is over once it is answered", async () => {
  const { engine, ask, states, last, answers } = started();
  let over = false;
  engine.whenStartOver(() => { over = true; });
  engine.firstScreenComing();
  ask({ command: "roll" });
  assert.deepEqual(states, ["starting"]);
  assert.deepEqual(last().sent, [{ id: 0, request: { command: "roll" } }]); // the request opens the runtime; no download word yet
  engine.firstScreenDrawn();
  assert.deepEqual(last().sent.at(-1), { fetch: true });
  last().say({ status: "ready", via: "snapshot", why: "cached", gate: "page", took: { start: 5 } });
  assert.deepEqual(engine.status(), { state: "ready", message: null, detail: null, via: "snapshot", why: "cached", gate: "page", took: { start: 5 }, reload: null });
  assert.equal(over, false); // a request is still out
  last().say({ id: 0, response: { ok: true, result: 7 } });
  await settle();
  assert.deepEqual(answers, [{ ok: true, result: 7 }]);
  assert.equal(over, true);
  assert.deepEqual(states, ["starting", "ready"]);
});

test("a worker not ready in time: starting -> failed, the request answered in a player's words; the next ask starts afresh", async () => {
  const { clock, ask, states, workers, answers, engine } = started();
  ask({ command: "roll" });
  clock.advance(LIMITS.start);
  await settle();
  assert.deepEqual(states, ["starting", "failed"]);
  assert.equal(engine.status().message, COULD_NOT_START.status);
  assert.equal(answers[0].error.message, COULD_NOT_START.answer);
  assert.equal(workers[0].terminated, true);
  ask({ command: "roll" }); // failed -> starting: a new worker
  assert.deepEqual(states, ["starting", "failed", "starting"]);
  assert.equal(workers.length, 2);
});

test("a ready worker gone silent is replaced and the request sent again (ready -> starting with words); silent twice, it fails", async () => {
  const { clock, ask, states, workers, answers, engine, last } = started();
  engine.warmUp();
  last().say({ status: "ready", via: "fresh" });
  ask({ command: "roll", args: { seed: 1 } });
  clock.advance(LIMITS.answer);
  assert.deepEqual(states, ["starting", "ready", "restarting"]);
  assert.equal(engine.status().message, RESTARTING);
  assert.deepEqual(workers[1].sent, [{ go: true }, { id: 0, request: { command: "roll", args: { seed: 1 } } }]);
  last().say({ status: "ready", via: "fresh" });
  clock.advance(LIMITS.answer);
  await settle();
  assert.deepEqual(states, ["starting", "ready", "restarting", "ready", "failed"]);
  assert.equal(engine.status().message, STOPPED.status);
  assert.equal(answers[0].error.message, STOPPED.answer);
  engine.retry(); // Retry: failed -> starting, the new worker told to go once, as it starts
  assert.deepEqual(states.at(-1), "starting");
  assert.deepEqual(last().sent, [{ go: true }]);
});

test("the heartbeat pings an idle ready worker; one that never pongs is replaced", () => {
  const { clock, states, engine, last, workers } = started();
  engine.warmUp();
  last().say({ status: "ready" });
  clock.advance(LIMITS.heartbeat);
  assert.deepEqual(workers[0].sent.at(-1), { ping: true });
  workers[0].say({ pong: true });
  clock.advance(LIMITS.heartbeat + LIMITS.pong - 1);
  assert.deepEqual(states, ["starting", "ready"]); // the first pong came back; the second ping is out
  clock.advance(1);
  assert.deepEqual(states, ["starting", "ready", "restarting"]);
  assert.equal(workers[0].terminated, true);
});

test("an answer saying the engine could not load fails the start and answers that request too", async () => {
  const { ask, answers, states, last } = started();
  ask({ command: "roll" });
  ask({ command: "prob" });
  last().say({ id: 0, response: { ok: false, error: { kind: "load", message: "the dice engine could not start: offline" } } });
  await settle();
  assert.deepEqual(states, ["starting", "failed"]);
  assert.deepEqual(answers.map((a) => a.error.message), [COULD_NOT_START.answer, COULD_NOT_START.answer]);
});

test("the worker widgets/start.js started is adopted with what it said meanwhile; a page naming no engine fails at once", async () => {
  const early = new FakeWorker();
  const { engine, states, workers } = started({ handoff: { folder: FOLDER, worker: early, early: [{ kind: "message", data: { status: "ready", via: "snapshot" } }] } });
  engine.takeOver();
  assert.deepEqual(states, ["starting", "ready"]);
  assert.equal(workers.length, 0); // none started
  assert.equal(engine.status().via, "snapshot");
  const none = started({ folder: null });
  none.ask({ command: "roll" });
  await settle();
  assert.deepEqual(none.states, ["starting", "failed"]);
  assert.equal(none.answers[0].error.detail, 'this page names no engine version (<meta name="rollbook-engine">)');
});

test("the start policy: settled after the load, the worker downloads, then starts its runtime; a reach starts it at once", () => {
  const { engine, loaded, idle, clock, last } = started();
  engine.warmUpWhenIdle(); // a widget on the page, no first screen said
  assert.equal(last(), undefined); // the worker waits for an idle moment
  idle.shift()(); // the worker is made at idle
  assert.deepEqual(last().sent, []);
  clock.advance(1500); // the widgets never said they drew: downloads go anyway
  assert.deepEqual(last().sent, [{ fetch: true }]);
  for (const f of loaded.splice(0)) f(); // the page's load
  clock.advance(1000); // settled
  idle.splice(0).forEach((f) => f());
  assert.deepEqual(last().sent, [{ fetch: true }, { go: true }]);
  const reached = started();
  reached.engine.warmUp();
  assert.deepEqual(reached.last().sent, [{ go: true }]); // once (it was said twice)
});

test("a start that failed before the page settled is not started again by the settling: Retry stays under the reader's thumb", async () => {
  // A tap's roll failed (the runtime 404) within the page's first second; the settled page's own
  // warm-up then started a new worker, which took the notice and its Retry away (to "Starting the
  // dice engine…") while the reader reached for it, and brought it back when that start failed too:
  // Playwright found Retry detached on every try for 30 s (test_engine_faults, a loaded make test).
  const { engine, loaded, idle, clock, ask, states, workers } = started();
  engine.warmUpWhenIdle(); // the roller on the page
  idle.splice(0).forEach((f) => f()); // its worker, made at idle
  ask({ command: "roll" }); // the tap, before the page settled
  workers[0].say({ status: "failed", message: "the dice engine could not start: the runtime (pyodide.asm.wasm) did not load" });
  await settle();
  assert.deepEqual(states, ["starting", "failed"]);
  for (const f of loaded.splice(0)) f(); // the page's load
  clock.advance(1000); // settled
  idle.splice(0).forEach((f) => f());
  engine.warmUpWhenIdle(); // a widget drawn later (instant navigation) asks for its idle warm-up too
  idle.splice(0).forEach((f) => f());
  clock.advance(60_000);
  assert.deepEqual(states, ["starting", "failed"]); // the failure and its Retry stay
  assert.equal(workers.length, 1);
  engine.retry(); // the reader's tap
  assert.deepEqual(states, ["starting", "failed", "starting"]);
  assert.deepEqual(workers[1].sent, [{ go: true }]);
});

test("Retry after a failed start tells the new worker to go once; a worker the browser refuses to make fails the start, never stays starting", async () => {
  const { engine, clock, ask, states, workers, answers } = started();
  ask({ command: "roll" });
  clock.advance(LIMITS.start);
  await settle();
  engine.retry();
  assert.deepEqual(states, ["starting", "failed", "starting"]);
  assert.deepEqual(workers[1].sent, [{ go: true }]);
  // the browser refuses to make a worker (a blocked script, too many workers): failed, the request answered
  const refused = started({ refuse: new DOMException("The operation is insecure.", "SecurityError") });
  refused.ask({ command: "roll" });
  await settle();
  assert.deepEqual(refused.states, ["starting", "failed"]);
  assert.equal(refused.answers[0].error.message, COULD_NOT_START.answer);
  assert.equal(refused.engine.status().detail, "The operation is insecure.");
  assert.equal(answers.length, 1);
});

test("a start that fails where a deploy replaced the page's engine says Rollbook was updated, with Reload, in the status and every answer", async () => {
  // the site asked once per failure (a fake: the page's engine folder gone)
  let asked = 0;
  const gone = started({ siteUpdated: () => { asked++; return Promise.resolve(true); } });
  gone.ask({ command: "roll" });
  gone.ask({ command: "prob" });
  gone.last().say({ status: "failed", message: "the dice engine could not start: the runtime (pyodide.asm.wasm) did not load" });
  gone.ask({ command: "roll" }); // tapped while the site is asked: no worker started for it, answered with the others
  assert.equal(gone.workers.length, 1);
  await settle();
  assert.equal(asked, 1);
  assert.deepEqual(gone.states, ["starting", "failed"]);
  assert.equal(gone.engine.status().message, SITE_UPDATED.status);
  assert.equal(gone.engine.status().reload, true); // Reload is the way, not Retry
  assert.deepEqual(gone.answers.map((a) => [a.error.kind, a.error.message, a.error.reload]), Array(3).fill(["load", SITE_UPDATED.answer, true]));
  assert.doesNotMatch(SITE_UPDATED.answer + SITE_UPDATED.status, /pyodide|worker|folder|snapshot|deploy|retry/i);
  // a site that still has it (or cannot be asked): the ordinary words, and Retry
  const there = started({ siteUpdated: () => Promise.resolve(false) });
  there.ask({ command: "roll" });
  there.clock.advance(LIMITS.start);
  await settle();
  assert.equal(there.engine.status().message, COULD_NOT_START.status);
  assert.equal(there.engine.status().reload, null);
  assert.equal(there.answers[0].error.message, COULD_NOT_START.answer);
  assert.equal(there.answers[0].error.reload, undefined);
});

test("a site that does not answer whether it was updated holds the failure a few seconds at most, then says the ordinary words", async () => {
  const silent = started({ siteUpdated: () => new Promise(() => {}) });
  silent.ask({ command: "roll" });
  silent.last().say({ status: "failed", message: "offline" });
  await settle();
  assert.deepEqual(silent.states, ["starting"]);
  silent.clock.advance(4000);
  await settle();
  assert.deepEqual(silent.states, ["starting", "failed"]);
  assert.equal(silent.answers[0].error.message, COULD_NOT_START.answer);
  silent.engine.retry(); // and Retry starts afresh
  assert.deepEqual(silent.states.at(-1), "starting");
  assert.equal(silent.workers.length, 2);
});
