// The entry point loads each element's module by its tag (widgets/rollbook.js ELEMENT_MODULES):
// an element defined in a module the table does not name would never be drawn on its page.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import test from "node:test";

const widgets = new URL("../../widgets/", import.meta.url).pathname;
const entry = readFileSync(join(widgets, "rollbook.js"), "utf8");
const table = Object.fromEntries([...entry.matchAll(/"(rollbook-[a-z-]+)": \(\) => import\("\.\/([a-z/-]+\.js)"\)/g)].map((m) => [m[1], m[2]]));

function modules(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) =>
    item.isDirectory() ? modules(join(folder, item.name)) : item.name.endsWith(".js") ? [join(folder, item.name)] : []);
}

test("every element the widgets define is loaded by its tag from the module that defines it", () => {
  const defined = {};
  // every module of the widgets (an element defined outside elements/ too), through the helper or not
  for (const file of modules(widgets).filter((path) => !relative(widgets, path).startsWith("vendor")))
    for (const match of readFileSync(file, "utf8").matchAll(/define\("(rollbook-[a-z-]+)"/g))
      defined[match[1]] = relative(widgets, file);
  delete defined["rollbook-table-mode"]; // in every header: imported by the entry point itself
  assert.ok(Object.keys(defined).length >= 20);
  assert.deepEqual(table, defined);
});
