// Where the built site and its engine folder are (site/pyodide/<hash>/, made by
// hooks/pyodide_bundle.py), for the Node scripts that load the engine from them: the Pyodide
// harness (tests/pyodide/run.mjs) and the Pyodide benchmark (benchmarks/pyodide.mjs).

import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SITE = path.resolve(process.env.ROLLBOOK_SITE ?? path.join(ROOT, "site"));

// The only engine folder, with a trailing separator; "" in its place when there is none (or
// several), so the caller's "no built runtime" message names site/pyodide/.
export const RUNTIME = path.join(SITE, "pyodide", (() => {
  try {
    const folders = readdirSync(path.join(SITE, "pyodide")).filter((name) => /^[0-9a-f]{16}$/.test(name));
    return folders.length === 1 ? folders[0] : "";
  } catch { return ""; }
})()) + path.sep;
