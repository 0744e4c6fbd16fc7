// Lighthouse 12.2.3, mobile preset (its default: a Moto G Power screen, simulated slow 4G and a
// 4x slower CPU), on each URL given, in the system Chromium (CHROME_PATH). Prints one JSON object:
// per URL the four category scores, the load metrics and every audit that did not pass.
//
//   CHROME_PATH=/usr/bin/chromium node benchmarks/lighthouse/run.mjs URL...

import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const DIAGNOSTICS = ["mainthread-work-breakdown", "bootup-time", "render-blocking-resources", "total-byte-weight",
                     "unused-css-rules", "unused-javascript", "server-response-time"];
const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-gpu"],
});
const results = {};
try {
  for (const url of process.argv.slice(2)) {
    const { lhr } = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES });
    const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id].score ?? 0) * 100)]));
    const metrics = Object.fromEntries(METRICS.map((id) => [id, lhr.audits[id].numericValue]));
    const failing = [];
    for (const id of CATEGORIES)
      for (const ref of lhr.categories[id].auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 0.9)
          failing.push({ category: id, id: ref.id, score: audit.score, title: audit.title, value: audit.displayValue ?? "" });
      }
    const diagnostics = Object.fromEntries(DIAGNOSTICS.map((id) => [id, lhr.audits[id]?.displayValue ?? ""]));
    const bootup = (lhr.audits["bootup-time"].details?.items ?? []).slice(0, 4).map((item) => `${item.url} ${Math.round(item.total)} ms`);
    const work = (lhr.audits["mainthread-work-breakdown"].details?.items ?? []).map((item) => `${item.groupLabel} ${Math.round(item.duration)} ms`);
    results[url] = { scores, metrics, failing, diagnostics, bootup, work, runtimeError: lhr.runtimeError?.message ?? null };
  }
} finally {
  await chrome.kill();
}
console.log(JSON.stringify(results, null, 2));
