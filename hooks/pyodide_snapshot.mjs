// A Pyodide memory snapshot with the engine imported, made at build time (hooks/pyodide_bundle.py
// runs this on Node; a snapshot made on Node restores in the browser: same pyodide.asm.wasm, same
// heap). The browser's worker then skips Python's start-up and the engine's imports: it restores
// the heap, puts the engine's files back (a snapshot holds the WebAssembly memory only, not the
// in-JavaScript file system), reseeds Python's random module and answers.
//
//   node hooks/pyodide_snapshot.mjs RUNTIME_DIR
//
// RUNTIME_DIR holds the runtime files, pyodide-lock.json and the engine wheel it names. Writes
// RUNTIME_DIR/engine.snapshot.gz (the heap, gzip: about 31 MB raw, 6 MB packed; the worker unpacks
// it with DecompressionStream) and RUNTIME_DIR/engine.snapshot.json (what the snapshot is tied to:
// Pyodide's version and build id, the sha256 of the lockfile, the wheel and the snapshot). Then it
// proves the snapshot: a second Pyodide restores it exactly as the worker does (engine-worker.js
// `restoreEngine`) and must answer a seeded roll like a normal start. Exits 1 (and writes nothing
// under the final names) if any step fails; the hook then refuses the build.

import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";

const dir = path.resolve(process.argv[2] ?? "") + path.sep;
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const lockBytes = readFileSync(path.join(dir, "pyodide-lock.json"));
const lock = JSON.parse(lockBytes);
const wheelName = lock.packages.rollbook.file_name;
const wheel = new Uint8Array(readFileSync(path.join(dir, wheelName)));
const { loadPyodide, version } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const options = { indexURL: dir, lockFileURL: path.join(dir, "pyodide-lock.json"), packageBaseUrl: dir };

// Everything the engine imports, imported now, so the first answer after a restore imports nothing.
const PREPARE = `
import importlib, json, pkgutil, sys
import rollbook, rollbook.api, rollbook.commands
for info in pkgutil.walk_packages(rollbook.__path__, "rollbook."):
    if not info.name.endswith(".__main__"):  # the CLI's entry point runs the CLI
        importlib.import_module(info.name)
rollbook.commands.load_all()
# ... and every data file read now (tables and rulings are cached once read): the worker answers
# before the engine's files are back on disk (widgets/engine-worker.js; the Pyodide harness proves
# the whole corpus answers without them).
import rollbook.rulings, rollbook.tables
rollbook.tables.names()
rollbook.rulings.all_rulings()
json.loads(rollbook.api.call_json(json.dumps({"api": 1, "command": "roll", "args": {"expression": "3d6", "seed": 1}})))
`;
const SITE_PACKAGES = "import sysconfig; sysconfig.get_path('purelib')";
// What the worker runs after a restore (keep in step with widgets/engine-worker.js).
const AFTER_RESTORE = "import random; random.seed()";
const PROBE = { api: 1, command: "roll", args: { expression: "4d6kh3+2", seed: 20261130 } };

const made = await loadPyodide({ ...options, _makeSnapshot: true });
made.unpackArchive(wheel, "wheel", { extractDir: made.runPython(SITE_PACKAGES) }); // not loadPackage: it leaves JS state a snapshot cannot hold
made.runPython(PREPARE);
const expected = made.pyimport("rollbook.api").call_json(JSON.stringify(PROBE));
const python = made.runPython("import sys; sys.version.split()[0]");
const buildId = made._api?.config?.BUILD_ID ?? null;
const snapshot = made.makeMemorySnapshot();
const packed = gzipSync(snapshot, { level: 6 });

// The proof: restore from the packed bytes, as the browser will.
const restored = await loadPyodide({ ...options, _loadSnapshot: gunzipSync(packed) });
restored.unpackArchive(wheel, "wheel", { extractDir: restored.runPython(SITE_PACKAGES) });
restored.runPython(AFTER_RESTORE);
const answer = restored.pyimport("rollbook.api").call_json(JSON.stringify(PROBE));
if (answer !== expected) {
  console.error(`pyodide_snapshot: the restored engine answered\n  ${answer}\ninstead of\n  ${expected}`);
  process.exit(1);
}
const notImported = restored.runPython(`
import sys, pkgutil, rollbook
",".join(i.name for i in pkgutil.walk_packages(rollbook.__path__, "rollbook.")
         if i.name not in sys.modules and not i.name.endswith(".__main__"))`);
if (notImported) {
  console.error(`pyodide_snapshot: modules not in the snapshot: ${notImported}`);
  process.exit(1);
}

const info = {
  pyodide: version,
  python,
  build_id: buildId,
  lockfile_sha256: sha256(lockBytes),
  wheel: wheelName,
  wheel_sha256: sha256(wheel),
  snapshot_bytes: snapshot.length,
  snapshot_sha256: sha256(snapshot),
  packed_bytes: packed.length,
  after_restore: AFTER_RESTORE,
};
writeFileSync(path.join(dir, "engine.snapshot.gz.tmp"), packed);
writeFileSync(path.join(dir, "engine.snapshot.json.tmp"), JSON.stringify(info, null, 1) + "\n");
renameSync(path.join(dir, "engine.snapshot.gz.tmp"), path.join(dir, "engine.snapshot.gz"));
renameSync(path.join(dir, "engine.snapshot.json.tmp"), path.join(dir, "engine.snapshot.json"));
console.log(`pyodide_snapshot: ${(snapshot.length / 1e6).toFixed(1)} MB heap, ${(packed.length / 1e6).toFixed(1)} MB packed`);
