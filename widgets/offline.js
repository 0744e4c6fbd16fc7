// The offline app, page side: register the service worker that Workbox generated (site/sw.js),
// then tell the reader, unobtrusively, when the site is ready offline and when an update is
// ready, and let them choose when to reload. A page is never switched to a new version under the
// reader's feet: the new worker waits until they press "Reload".
//
// The offline copy is about 24 MB (the build writes its size into offline.json), most of it the engine: it is made once the engine has been
// used on this visit (a tool, a die tapped in the text), never for a reader who only reads, and
// not by itself at all when the browser asks to save data (Save-Data): the offline page's
// <rollbook-offline-copy> then makes it on request, and removes it on request.

import { Workbox } from "./vendor/workbox-window/build/workbox-window.prod.mjs";
import { showNotice } from "./notice.js";
import { SITE_ROOT, watchEngine } from "./engine.js";
import { cancelIdle, whenIdle } from "./idle.js";
import { holdMaterial } from "./material-later.js";

const SCOPE = new URL(SITE_ROOT).pathname;
let workbox = null;
let registering = 0; // the registration waiting for an idle moment, if any: removing the copy cancels it

/** Whether the browser asks sites to use less data (Chrome's Lite mode, Android's data saver). */
export function savingData() {
  return Boolean(globalThis.navigator?.connection?.saveData);
}

/** Make the offline copy now (the reader asked for it); resolves once the service worker is active. */
export async function keepOffline() {
  if (!workbox) throw new Error("this browser cannot keep Rollbook offline");
  await workbox.register();
  await navigator.serviceWorker.ready;
}

/** Remove the offline copy: the service worker and what it cached (only this site's: another
 *  site on the same host, as on GitHub Pages, keeps its own). */
export async function removeOffline() {
  if (registering) cancelIdle(registering);
  registering = 0;
  const registration = await navigator.serviceWorker.getRegistration(SCOPE);
  await registration?.unregister();
  const ours = (await caches.keys()).filter((name) => name.includes(new URL(SCOPE, location.origin).href));
  await Promise.all(ours.map((name) => caches.delete(name)));
}

/** This site's offline copy now: {kept, bytes} (bytes: what the browser stores for the site, or null). */
export async function offlineCopy() {
  const kept = Boolean(await navigator.serviceWorker?.getRegistration(SCOPE));
  const estimate = await navigator.storage?.estimate?.().catch(() => null);
  return { kept, bytes: estimate?.usage ?? null };
}

export function registerOffline() {
  if (!("serviceWorker" in navigator)) return; // e.g. an old browser, or file://
  workbox = new Workbox(new URL("sw.js", SITE_ROOT).href, { scope: SCOPE });
  workbox.addEventListener("installed", (event) => {
    if (!event.isUpdate) showNotice("Rollbook is ready to use offline: pages, search and dice work without a connection.", { inFlow: true });
  });
  workbox.addEventListener("waiting", () => {
    holdMaterial(); // the page is about to be reloaded: Material's start would hold the new worker back
    showNotice("A new version of Rollbook is ready.", {
      action: "Reload",
      onAction: async () => {
        // Another tab's Reload may have switched the worker already: no "controlling" comes to
        // this page then, so it reloads at once. Else once the new worker controls this page, or
        // is active (or replaced by a newer one), whichever is heard first: under load the page's
        // controllerchange alone was once never heard, and the tab stayed on the old version.
        const registration = await navigator.serviceWorker.getRegistration(SCOPE).catch(() => null);
        const waiting = registration?.waiting;
        if (!waiting) return location.reload();
        let reloading = false;
        const reload = () => { if (!reloading) { reloading = true; location.reload(); } };
        navigator.serviceWorker.addEventListener("controllerchange", reload, { once: true });
        waiting.addEventListener("statechange", () => { if (waiting.state === "activated" || waiting.state === "redundant") reload(); });
        waiting.postMessage({ type: "SKIP_WAITING" }); // (what Workbox's messageSkipWaiting sends, to this worker)
        if (waiting.state === "activated" || waiting.state === "redundant") reload(); // (it changed before it was watched)
      },
    });
  });
  // A copy already here: registering again only checks for an update (sw.js itself). Else once
  // the engine has started on this visit: installing precaches megabytes, and reading and the
  // first roll come first (on a slow link they would otherwise share it with the precache).
  // In an idle moment of its own: Workbox's first registration takes about 13 ms of the page at
  // full CPU (a phone: 50 ms or more), and done as the engine turned ready it ran right before the
  // first answer was drawn (CPU profile of a first visit to tools/character/, 2026-12-04).
  const register = () => {
    registering = whenIdle(() => {
      registering = 0;
      performance.mark("rollbook: offline copy registering");
      workbox.register().catch(() => { /* no sw.js (mkdocs serve): online only */ });
    }, { timeout: 2000 });
  };
  const afterTheEngine = () => {
    if (navigator.serviceWorker.controller) return register();
    if (savingData()) return; // only on request (tools/offline/)
    let registered = false;
    const stop = watchEngine(({ state }) => {
      if (registered || state !== "ready") return;
      registered = true;
      queueMicrotask(() => stop()); // (watchEngine calls back before it returns the stop)
      register();
    });
  };
  if (document.readyState === "complete") afterTheEngine();
  else addEventListener("load", afterTheEngine, { once: true });
}
