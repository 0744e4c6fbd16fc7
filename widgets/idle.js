// An idle moment of the page: requestIdleCallback where the browser has one, else a short timer
// (Safari has none), so each caller need not write its own fallback. In the bundle it rides with
// engine.js (hooks/widgets_bundle.mjs), which uses it too: a page that imports only the engine
// fetches nothing more.

const native = typeof globalThis.requestIdleCallback === "function";

/** Call `callback(deadline)` in an idle moment, at the latest `timeout` ms on; without idle
 *  callbacks, after `fallbackMs` (its deadline then says no time remains). Returns an id for cancelIdle. */
export function whenIdle(callback, { timeout, fallbackMs = 50 } = {}) {
  if (native) return requestIdleCallback(callback, timeout === undefined ? undefined : { timeout });
  return setTimeout(() => callback({ didTimeout: false, timeRemaining: () => 0 }), fallbackMs);
}

/** Cancel a call that whenIdle scheduled and that has not run yet. */
export function cancelIdle(id) {
  if (native) cancelIdleCallback(id);
  else clearTimeout(id);
}
