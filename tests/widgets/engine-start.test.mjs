// The engine's watchdog (widgets/engine-start.js) on a fake clock: how long the page lets its
// worker be silent while it starts, while a request is out, and while a ping is out; re-armed from
// every sign of life; quiet when the page waits for nothing.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { LIMITS, silenceAllowed, Watchdog } from "../../widgets/engine-start.js";

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
