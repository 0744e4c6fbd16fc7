// The offline app, page side: register the service worker that Workbox generated (site/sw.js),
// then tell the reader, unobtrusively, when the site is ready offline and when an update is
// ready, and let them choose when to reload. A page is never switched to a new version under the
// reader's feet: the new worker waits until they press "Reload".

import { Workbox } from "./vendor/workbox-window/build/workbox-window.prod.mjs";
import { showNotice } from "./notice.js";

const SITE_ROOT = new URL("../", import.meta.url);

export function registerOffline() {
  if (!("serviceWorker" in navigator)) return; // e.g. an old browser, or file://
  const workbox = new Workbox(new URL("sw.js", SITE_ROOT).href, { scope: SITE_ROOT.pathname });
  workbox.addEventListener("installed", (event) => {
    if (!event.isUpdate) showNotice("Rollbook is ready to use offline: pages, search and dice work without a connection.");
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
  // After the page has loaded: installing precaches megabytes, reading comes first.
  const register = () => workbox.register().catch(() => { /* no sw.js (mkdocs serve): online only */ });
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}
