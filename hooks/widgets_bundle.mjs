// The widgets' modules, bundled for the browser (run by hooks/widgets_bundle.py at build time):
//   node hooks/widgets_bundle.mjs <widgets folder> <output folder>
// Rollup follows widgets/rollbook.js, the entry every page loads, through its imports; each element
// module it imports by tag (ELEMENT_MODULES) becomes a chunk of its own, so a page still fetches
// only what it shows, and what several elements share becomes shared chunks. terser minifies.
//
// Why: unbundled, tools/roller/ fetched 20 modules, four imports deep, before its first roll. Each
// request costs the browser's processes CPU that, on a phone's few slow cores, the engine's start
// also needs, and each level of imports is one more round trip on a slow link (benchmarks/README.md,
// "Fast start ideas"). Bundled, it fetches four.
//
// widgets/engine.js stays an entry of its own at the same path: its state (the page's one worker)
// is the page's, and tests and benchmark pages import it by that name to reach that very state.
// The other modules take the site's root from it (SITE_ROOT), since their chunks sit elsewhere.
//
// The libraries the widgets import as ./vendor/<package>/<file> come from node_modules/<package>/
// (pinned in package.json).

import path from "node:path";
import { fileURLToPath } from "node:url";
import { rollup } from "rollup";
import terser from "@rollup/plugin-terser";

const [source, out] = process.argv.slice(2).map((folder) => path.resolve(folder));
if (!source || !out) {
  console.error("usage: node hooks/widgets_bundle.mjs <widgets folder> <output folder>");
  process.exit(2);
}
const NODE_MODULES = fileURLToPath(new URL("../node_modules/", import.meta.url));
const VENDOR = path.join(source, "vendor") + path.sep;

const vendored = {
  name: "rollbook-vendor",
  resolveId(id, importer) {
    if (!importer || !id.startsWith(".")) return null;
    const resolved = path.resolve(path.dirname(importer), id);
    return resolved.startsWith(VENDOR) ? path.join(NODE_MODULES, resolved.slice(VENDOR.length)) : null;
  },
};

// What every page with a widget needs goes into rollbook.js itself (one request, no facade): the
// modules in widgets/ itself, the libraries and the dice breakdown that most elements draw. The
// helpers' base (tool.js, step-lock.js) is left to Rollup: only the helpers' pages fetch it.
const OWN_CHUNK = new Set(["tool.js", "step-lock.js"]);
function manualChunks(id) {
  if (id.startsWith(NODE_MODULES)) return "core";
  const name = path.relative(source, id).split(path.sep).join("/");
  // engine.js, and idle.js, engine-start.js and deploy.js that it imports: or Rollup pulls them into "core", a dependency of it
  if (["engine.js", "idle.js", "engine-start.js", "deploy.js"].includes(name)) return "engine";
  // kept/: the kept state's modules, which widgets/kept.js names for every widget
  if (name === "elements/dice.js" || name.startsWith("kept/") || (!name.includes("/") && !OWN_CHUNK.has(name))) return "core";
  return undefined;
}

let problem = null;
const bundle = await rollup({
  input: { rollbook: path.join(source, "rollbook.js"), engine: path.join(source, "engine.js") },
  // entries keep their exports (engine.js's, for the pages that import it) and may export more,
  // for the element chunks that import from rollbook.js
  preserveEntrySignatures: "allow-extension",
  plugins: [vendored],
  onwarn(warning) { problem ??= warning; }, // a warning here is a bug (an unresolved import, a cycle)
});
await bundle.write({
  dir: out,
  format: "es",
  entryFileNames: "[name].js",
  // element chunks sit one folder down, as the element modules did
  chunkFileNames: "elements/[name]-[hash].js",
  manualChunks,
  plugins: [terser({ module: true, keep_classnames: true, format: { comments: /@license|@preserve|^!/ } })],
});
await bundle.close();
if (problem) {
  console.error(`widgets_bundle: ${problem.message}${problem.loc ? ` (${problem.loc.file}:${problem.loc.line})` : ""}`);
  process.exit(1);
}

