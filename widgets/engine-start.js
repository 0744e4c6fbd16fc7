// The engine's watchdog, apart from the client (widgets/engine.js): how long the page lets its
// worker stay silent, and the one timer that fires when it has been. A dedicated worker that is
// terminated, or hangs, sends nothing: no error event, no answer. So whenever the page waits for
// the worker (its start, a request, or the heartbeat's ping while idle) the worker must say
// something within a limit, or it is taken for gone. Clock and timers are passed in, so Node's
// tests run it on a fake clock (tests/widgets/engine-start.test.mjs).

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
