// Whether the site has been deployed anew since this page was loaded. The page's engine lives in
// a folder named after its content (pyodide/<hash>/, <meta name="rollbook-engine">), and a deploy
// with another engine replaces that folder: a tab opened before it keeps its running engine, but
// one that must start its engine again (the browser ended the worker, or it hung) can no longer
// fetch it. The engine client then says it could not start and to check the connection, which
// is not what is wrong, and Retry can never work (issue 39). So, when it fails, the widgets ask
// here, and say instead that Rollbook was updated and a reload goes on with what is kept.
//
// Asked of the site itself, past every cache (a folder the service worker still holds is one the
// engine can start from: no reload is needed then); a request that fails outright (offline) says
// nothing of a deploy. No DOM beyond the page's own meta; nothing is fetched unless asked.

import { SITE_ROOT } from "./engine.js";

export const UPDATED = "Rollbook was updated on the site while this page was open, so its dice engine cannot start again here. "
  + "Reload the page to go on: everything kept in this browser stays kept.";

/** The page's engine folder ("pyodide/0123456789abcdef/"), or null where it names none. */
function engineFolder() {
  const named = globalThis.document?.querySelector('meta[name="rollbook-engine"]')?.content;
  return named && /^pyodide\/[0-9a-f]{16}\/$/.test(named) ? named : null;
}

const FOLDER = engineFolder(); // read once: the page's scripts and its engine come from one build

let gone = null; // a promise that resolved true: the folder is gone for the rest of the visit

/** Resolves true when the page's engine folder is no longer on the site (a newer deploy replaced
 *  it), false when it is, or when that cannot be told (offline, no folder named). */
export function siteUpdated(siteRoot = SITE_ROOT, fetcher = globalThis.fetch) {
  if (gone) return gone;
  if (!FOLDER || !fetcher) return Promise.resolve(false);
  const asked = fetcher(new URL(FOLDER + "engine-worker.js", siteRoot), { method: "HEAD", cache: "no-store" })
    .then((response) => response.status === 404, () => false);
  asked.then((yes) => { if (yes) gone = asked; });
  return asked;
}
