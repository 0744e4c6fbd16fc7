// Whether the site was deployed anew since the page loaded (widgets/deploy.js): asked of the site
// for the page's engine folder, past every cache; only a 404 says so, and then for the visit.
import assert from "node:assert/strict";
import { test } from "node:test";

import { SITE_UPDATED, siteUpdated as updatedAt, UPDATED } from "../../widgets/deploy.js";

const FOLDER = "pyodide/0123456789abcdef/"; // the page's, as widgets/engine.js reads it from its meta

const ROOT = "https://example.org/rollbook/";
const siteUpdated = (root, fetcher) => updatedAt(FOLDER, root, fetcher);
const answering = (...statuses) => {
  const asked = [];
  const fetcher = async (url, options) => {
    asked.push({ url: String(url), ...options });
    const status = statuses.shift();
    if (status instanceof Error) throw status;
    return { status };
  };
  return { asked, fetcher };
};

test("a deploy is told by the page's engine folder gone from the site, asked past every cache", async () => {
  const still = answering(200, new TypeError("Failed to fetch"));
  assert.equal(await siteUpdated(ROOT, still.fetcher), false); // the folder is there: Retry can start it
  assert.equal(await siteUpdated(ROOT, still.fetcher), false); // offline: nothing is said of a deploy
  assert.deepEqual(still.asked[0], { url: `${ROOT}pyodide/0123456789abcdef/engine-worker.js`, method: "HEAD", cache: "no-store" });
  const gone = answering(404);
  assert.equal(await siteUpdated(ROOT, gone.fetcher), true);
  assert.equal(await siteUpdated(ROOT, answering(200).fetcher), true); // gone for the rest of the visit, not asked again
  assert.equal(gone.asked.length, 1);
  assert.match(UPDATED, /^Rollbook was updated on the site.*Reload the page/);
  assert.doesNotMatch(UPDATED, /pyodide|engine-worker|deploy|hash|404/i);
  assert.equal(SITE_UPDATED.status, UPDATED);
  assert.equal(await updatedAt(null, ROOT, answering(404).fetcher), true); // (gone is gone: the visit's answer)
});

test("no folder named, or a fetch that throws at once: nothing is said of a deploy", async () => {
  const fresh = await import("../../widgets/deploy.js?fresh"); // a module of its own: no deploy heard yet
  assert.equal(await fresh.siteUpdated(null, ROOT, answering(404).fetcher), false);
  assert.equal(await fresh.siteUpdated("../../etc/", ROOT, answering(404).fetcher), false);
  assert.equal(await fresh.siteUpdated(FOLDER, ROOT, () => { throw new TypeError("fetch is not allowed"); }), false);
});
