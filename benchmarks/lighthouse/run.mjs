// Lighthouse 12.2.3, mobile preset (its default: a Moto G Power screen, simulated slow 4G and a
// 4x slower CPU), on each URL given, in the system Chromium (CHROME_PATH). Prints one JSON object:
// per URL the four category scores, the load metrics and every audit that did not pass.
//
//   CHROME_PATH=/usr/bin/chromium node benchmarks/lighthouse/run.mjs [--reuse] URL...
//
// Each URL gets a browser of its own with a fresh profile (chrome-launcher makes a new one per
// launch), as a first visitor has: no HTTP cache, no V8 code cache, no service worker. `--reuse`
// runs every URL in one browser, the old way: later pages then find Material's bundle and fonts
// compiled and cached, which a first visitor does not have (issue 21: why the two methods differed).

import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const DIAGNOSTICS = ["mainthread-work-breakdown", "bootup-time", "render-blocking-resources", "total-byte-weight",
                     "unused-css-rules", "unused-javascript", "server-response-time"];
const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];

/** The main thread's tasks of 30 ms or more as observed (unthrottled, from Lighthouse's own trace),
 *  each with what took 3 ms or more inside it: "430 ms: 62 ms (TimerFire 61, FunctionCall rollbook.js
 *  61)", "494 ms: 88 ms (UpdateLayoutTree 67 elements 48, Layout 221/401 objects 3)". Lighthouse's
 *  long tasks are simulated (observed x 4) and name only a URL; these say which work it was. */
function observedTasks(trace) {
  const events = trace?.traceEvents ?? [];
  const parse = events.find((event) => event.name === "ParseHTML");
  if (!parse) return [];
  const start = events.find((event) => event.name === "navigationStart" && event.pid === parse.pid)?.ts ?? parse.ts;
  const main = events.filter((event) => event.pid === parse.pid && event.tid === parse.tid && event.ph === "X");
  const ms = (microseconds) => Math.round(microseconds / 1000);
  const what = (event) => {
    const data = event.args?.data ?? {};
    if (event.name === "UpdateLayoutTree") return `${event.args?.elementCount ?? "?"} elements`;
    if (event.name === "Layout") return `${event.args?.beginData?.dirtyObjects}/${event.args?.beginData?.totalObjects} objects`;
    return data.functionName || data.url?.split("/").pop() || data.type || "";
  };
  return main.filter((event) => event.name === "RunTask" && event.dur >= 30_000).map((task) => {
    const parts = main.filter((event) => event !== task && event.dur >= 3_000 && event.ts >= task.ts
                              && event.ts + event.dur <= task.ts + task.dur)
      .slice(0, 8).map((event) => `${event.name} ${what(event)} ${ms(event.dur)}`.replace(/  +/g, " "));
    return `${ms(task.ts - start)} ms: ${ms(task.dur)} ms (${parts.join(", ")})`;
  });
}

const launch = () => chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-gpu"],
});
const args = process.argv.slice(2);
const reuse = args.includes("--reuse");
const urls = args.filter((arg) => arg !== "--reuse");
const results = {};
let chrome = reuse ? await launch() : null;
try {
  for (const url of urls) {
    if (!reuse) chrome = await launch();
    const { lhr, artifacts } = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES });
    if (!reuse) { await chrome.kill(); chrome = null; }
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
    // the main thread's long tasks (the ones total blocking time counts), by the script they ran
    const longTasks = (lhr.audits["long-tasks"]?.details?.items ?? []).map((item) =>
      `${item.url.replace(/^https?:\/\/[^/]+\//, "/")} at ${Math.round(item.startTime)} ms: ${Math.round(item.duration)} ms`);
    // the site's own marks (performance.mark "rollbook: ..."), as observed, not simulated: which
    // way Material's bundle came to run on a tool page, and when the engine's start was over
    const marks = (lhr.audits["user-timings"]?.details?.items ?? []).filter((item) => item.name.startsWith("rollbook: "))
      .map((item) => `${item.name.slice("rollbook: ".length)} at ${Math.round(item.startTime)} ms`);
    results[url] = { scores, metrics, failing, diagnostics, bootup, work, longTasks, marks,
                     observedTasks: observedTasks(artifacts.Trace), runtimeError: lhr.runtimeError?.message ?? null };
  }
} finally {
  if (chrome) await chrome.kill();
}
console.log(JSON.stringify(results, null, 2));
