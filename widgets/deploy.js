// Whether the site has been deployed anew since this page was loaded. The page's engine lives in
// a folder named after its content (pyodide/<hash>/, <meta name="rollbook-engine">), and a deploy
// with another engine replaces that folder: a tab opened before it keeps its running engine, but
// one that must start its engine again (the browser ended the worker, or it hung) can no longer
// fetch it. The engine client would say it could not start and to check the connection, which
// is not what is wrong, and Retry can never work (issue 39). So when a start fails, the engine
// client (widgets/engine-start.js) asks here, and then says instead, in the status and in every
// answer it owed, that Rollbook was updated and a reload goes on with what is kept (SITE_UPDATED).
//
// Asked of the site itself, past every cache (a folder the service worker still holds is one the
// engine can start from: no reload is needed then); a request that fails outright (offline) says
// nothing of a deploy. No DOM and no imports: the folder and the site's root are given
// (widgets/engine.js); nothing is fetched unless asked.

export const UPDATED = "Rollbook was updated on the site while this page was open, so its dice engine cannot start again here. "
  + "Reload the page to go on: everything kept in this browser stays kept.";

/** The words of a failed start where the site was updated, as the engine client's other failures
 *  are worded (engine-start.js: a status sentence, a widget's answer); `reload`: the way on is
 *  Reload, not Retry. */
export const SITE_UPDATED = {
  status: UPDATED,
  answer: "Rollbook was updated on the site while this page was open: reload the page to go on (everything kept in this browser stays kept)",
  reload: true,
};

let gone = null; // a promise that resolved true: the folder is gone for the rest of the visit

/** Resolves true when the page's engine `folder` ("pyodide/0123456789abcdef/", under `siteRoot`)
 *  is no longer on the site (a newer deploy replaced it), false when it is, or when that cannot be
 *  told (offline, no folder named). */
export function siteUpdated(folder, siteRoot, fetcher = globalThis.fetch) {
  if (gone) return gone;
  if (!folder || !/^pyodide\/[0-9a-f]{16}\/$/.test(folder) || !siteRoot || !fetcher) return Promise.resolve(false);
  const asked = Promise.resolve()
    .then(() => fetcher(new URL(folder + "engine-worker.js", siteRoot), { method: "HEAD", cache: "no-store" }))
    .then((response) => response.status === 404, () => false);
  asked.then((yes) => { if (yes) gone = asked; });
  return asked;
}
