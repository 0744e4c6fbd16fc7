// The offline app, page side: register the service worker that Workbox generated (site/sw.js),
// then tell the reader, unobtrusively, when the site is ready offline and when an update is
// ready, and let them choose when to reload. A page is never switched to a new version under the
// reader's feet: the new worker waits until they press "Reload".

import { Workbox } from "./vendor/workbox-window/build/workbox-window.prod.mjs";
import { showNotice } from "./notice.js";
import { watchEngine } from "./engine.js";

const SITE_ROOT = new URL("../", import.meta.url);

export function registerOffline() {
  if (!("serviceWorker" in navigator)) return; // e.g. an old browser, or file://
  const workbox = new Workbox(new URL("sw.js", SITE_ROOT).href, { scope: SITE_ROOT.pathname });
  workbox.addEventListener("installed", (event) => {
    if (!event.isUpdate) showNotice("Rollbook is ready to use offline: pages, search and dice work without a connection.", { inFlow: true });
  });
  workbox.addEventListener("waiting", () => {
    showNotice("A new version of Rollbook is ready.", {
      action: "Reload",
      onAction: () => {
        workbox.addEventListener("controlling", () => location.reload());
        workbox.messageSkipWaiting();
      },
    });
  });
  // After the page has loaded and, if the engine is starting, once it has started: installing
  // precaches megabytes (the engine's snapshot among them), and reading and the first roll come
  // first. On a slow link they would otherwise share it with the precache.
  const register = () => workbox.register().catch(() => { /* no sw.js (mkdocs serve): online only */ });
  const afterTheEngine = () => {
    let registered = false;
    const stop = watchEngine(({ state }) => {
      if (registered || state === "starting") return;
      registered = true;
      queueMicrotask(() => stop()); // (watchEngine calls back before it returns the stop)
      register();
    });
  };
  if (document.readyState === "complete") afterTheEngine();
  else addEventListener("load", afterTheEngine, { once: true });
}
