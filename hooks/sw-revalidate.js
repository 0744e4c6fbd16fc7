// Imported first by the site's service worker (sw.js; hooks/service-worker.mjs copies this file
// beside it). Workbox fetches every precached file that carries a revision with cache: "reload",
// which bypasses the HTTP cache: on a first visit the pages, widgets and search index the reader's
// browser had just downloaded were all sent again (42 files, about 150 KB; benchmarks/reading.py).
// "no-cache" asks the server whether the copy on the device is current instead (a conditional
// request, answered 304 Not Modified with no body when it is), so the offline copy is as fresh as
// with "reload" and nothing travels twice. Only those install fetches are changed: a request
// with no cache mode of its own, or another mode, goes out as it came.
"use strict";
{
  const fromNetwork = self.fetch.bind(self);
  self.fetch = (input, init) => {
    if (input instanceof Request && input.cache === "reload" && init?.cache === undefined)
      return fromNetwork(new Request(input, { cache: "no-cache" }), init);
    return fromNetwork(input, init);
  };
}
