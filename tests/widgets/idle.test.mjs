// An idle moment, where the browser has no requestIdleCallback (Node, Safari): widgets/idle.js.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cancelIdle, whenIdle } from "../../widgets/idle.js";

test("without idle callbacks, the call comes after the fallback delay, with no time said to remain", async () => {
  assert.equal(typeof globalThis.requestIdleCallback, "undefined"); // the fallback is what runs here
  const started = performance.now();
  const deadline = await new Promise((resolve) => whenIdle(resolve, { timeout: 1000, fallbackMs: 30 }));
  assert.ok(performance.now() - started >= 25);
  assert.equal(deadline.timeRemaining(), 0);
  assert.equal(deadline.didTimeout, false);
});

test("a cancelled call never comes", async () => {
  let called = false;
  const id = whenIdle(() => { called = true; }, { fallbackMs: 5 });
  cancelIdle(id);
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.equal(called, false);
});
