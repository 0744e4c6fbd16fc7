// Material's search worker wrapped (widgets/search-later.js) in a worker-like global, with a
// stand-in for Material's worker that builds on "setup" as Material's does (asynchronously, then
// "ready") and answers queries only once built: the page is told "ready" at once, an empty query
// is answered at once, nothing of Material's runs until a search is typed or the hold is over,
// and only the latest query waiting for the build is answered.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import vm from "node:vm";

const SOURCE = readFileSync(new URL("../../widgets/search-later.js", import.meta.url), "utf8");
const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;

// Material's worker, as far as the wrapper meets it: its one listener, registered on load.
const MATERIAL = `
  self.builds = 0;
  let index = null;
  addEventListener("message", async (event) => {
    const message = event.data;
    if (message.type === ${SETUP}) {
      self.builds += 1;
      await new Promise((resolve) => setTimeout(resolve, 5)); // Lunr's languages, then the build
      index = message.data.docs;
      postMessage({ type: ${READY} });
    } else if (message.type === ${QUERY}) {
      if (index === null) postMessage({ type: ${RESULT}, data: { items: [], unbuilt: true } });
      else postMessage({ type: ${RESULT}, data: { items: index.filter((doc) => doc.includes(message.data)) } });
    }
  });`;

function worker() {
  const sent = [];
  const global = new EventTarget();
  // The hold (5 s) is over when a test says so (holdOver), not on a clock: a short real hold left
  // a check made "before it is over" at the mercy of a loaded machine (CI, 2026-12-07).
  const holds = [];
  const holdOver = () => { for (const hold of holds.splice(0)) if (!hold.cleared) hold.run(); };
  const context = Object.assign(global, {
    MessageEvent, console,
    setTimeout: (f, ms) => (ms === 5000 ? holds[holds.push({ run: f, cleared: false }) - 1] : setTimeout(f, ms)),
    clearTimeout: (timer) => (holds.includes(timer) ? Object.assign(timer, { cleared: true }) : clearTimeout(timer)),
    postMessage: (message) => sent.push(structuredClone(message)), // as it reaches the page
    importScripts(name) {
      assert.equal(name, "search.0123abcd.min.js");
      global.loaded = (global.loaded ?? 0) + 1;
      vm.runInContext(MATERIAL, context);
    },
  });
  context.self = context;
  for (const name of ["addEventListener", "dispatchEvent", "removeEventListener"]) context[name] = global[name].bind(global);
  vm.createContext(context);
  vm.runInContext('const MATERIAL_SEARCH_WORKER = "search.0123abcd.min.js";\n' + SOURCE, context);
  const page = (message) => context.dispatchEvent(new MessageEvent("message", { data: message }));
  return { context, sent, page, holdOver };
}

const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));
const setup = { type: SETUP, data: { config: {}, docs: ["shrapnel", "grapple", "shrapnel wound"] } };

test("ready at once; Material's worker is not even loaded until a search is typed", async () => {
  const { context, sent, page } = worker();
  page(setup);
  page({ type: QUERY, data: "" }); // Material asks this as soon as it hears "ready"
  await settle();
  assert.deepEqual(sent, [{ type: READY }, { type: RESULT, data: { items: [] } }]);
  assert.equal(context.loaded, undefined);
  page({ type: QUERY, data: "shrap" });
  await settle();
  assert.equal(context.loaded, 1);
  assert.equal(context.builds, 1);
  assert.deepEqual(sent.slice(2), [{ type: RESULT, data: { items: ["shrapnel", "shrapnel wound"] } }]); // its own "ready" is not passed on
});

test("queries typed while it builds: only the latest is answered, and after the build", async () => {
  const { sent, page } = worker();
  page(setup);
  for (const query of ["g", "gr", "grap"]) page({ type: QUERY, data: query });
  await settle();
  assert.deepEqual(sent.slice(1), [{ type: RESULT, data: { items: ["grapple"] } }]);
  page({ type: QUERY, data: "wound" }); // built: straight to Material's worker
  await settle();
  assert.deepEqual(sent.at(-1), { type: RESULT, data: { items: ["shrapnel wound"] } });
});

test("a field cleared while it builds shows no older query's results", async () => {
  const { sent, page } = worker();
  page(setup);
  page({ type: QUERY, data: "grapple" });
  page({ type: QUERY, data: "  " });
  await settle();
  assert.deepEqual(sent.slice(1), [{ type: RESULT, data: { items: [] } }]);
});

test("with no search typed, the index is built once the hold is over", async () => {
  const { context, sent, page, holdOver } = worker();
  page(setup);
  await settle();
  assert.equal(context.loaded, undefined);
  holdOver();
  await settle();
  assert.equal(context.builds, 1);
  assert.deepEqual(sent, [{ type: READY }]);
  page({ type: QUERY, data: "grapple" });
  await settle();
  assert.deepEqual(sent.at(-1), { type: RESULT, data: { items: ["grapple"] } });
});
