// The engine inside Pyodide, on Node, loaded exactly as the site loads it: the runtime, the
// lockfile and the rollbook wheel from the BUILT site (site/pyodide/, made by `make build`).
//
//   node tests/pyodide/run.mjs [extra pytest args]        (part of `make test`)
//
// 1. checks the site's wheel has the lockfile's sha256 and holds the tree's engine, installs the
//    vendored test-only wheels (tests/pyodide/vendor/, downloaded by `make`; never fetched
//    here) with unpackArchive, and checks they are a complete set for Python 3.14;
// 2. cross-runtime check: answers tests/pyodide/corpus.json in Pyodide and on CPython
//    (.venv/bin/python, or $PYTHON) and compares the JSON byte for byte, plus the command schema;
//    every registered command must be in the corpus;
// 3. restores the site's memory snapshot as the browser's worker does, with no engine file on
//    disk, and checks it answers the corpus exactly as CPython does;
// 4. runs the engine's pytest suite (tests/engine) inside Pyodide with -m "not cpython_only",
//    and reports how many tests ran, passed, were skipped, and were deselected as cpython_only.
// Exits 1 if anything fails. $ROLLBOOK_SITE overrides the site directory.

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";

import { ROOT, RUNTIME, SITE } from "./built-site.mjs";

const VENDOR = path.join(ROOT, "tests", "pyodide", "vendor");
const PYTHON = process.env.PYTHON ?? path.join(ROOT, ".venv", "bin", "python");
const MOUNT = "/repo"; // the tree's tests/ is mounted at /repo/tests; the cwd of the suite

function fail(message) {
  console.error(`pyodide harness: ${message}`);
  process.exit(1);
}

function vendoredWheels() {
  if (!existsSync(path.join(VENDOR, ".installed"))) {
    fail(`no vendored test wheels in ${path.relative(ROOT, VENDOR)}: run \`make tests/pyodide/vendor/.installed\``);
  }
  return readdirSync(VENDOR).filter((name) => name.endsWith(".whl")).sort();
}

// A browser fetches the wheel with the lockfile's sha256 as its integrity; Pyodide on Node does
// not check it, so check it here: a wheel that loads here must load there too.
function checkWheelIntegrity() {
  const lockfile = path.join(RUNTIME, "pyodide-lock.json");
  if (!existsSync(lockfile)) fail(`${path.relative(ROOT, RUNTIME)} holds no built runtime: run \`make build\` first`);
  const { file_name: fileName, sha256 } = JSON.parse(readFileSync(lockfile, "utf8")).packages.rollbook ?? {};
  const wheel = path.join(RUNTIME, fileName ?? "");
  if (!fileName || !existsSync(wheel)) fail(`the lockfile names the rollbook wheel ${fileName}, which ${path.relative(ROOT, RUNTIME)} lacks: run \`make build\``);
  const actual = createHash("sha256").update(readFileSync(wheel)).digest("hex");
  if (actual !== sha256) fail(`${fileName} has sha256 ${actual}, the lockfile says ${sha256}: a browser would refuse it; run \`make build\``);
}

async function startEngine() {
  checkWheelIntegrity();
  const { loadPyodide } = await import(pathToFileURL(path.join(RUNTIME, "pyodide.mjs")).href);
  const started = performance.now();
  const pyodide = await loadPyodide({
    indexURL: RUNTIME,
    lockFileURL: path.join(RUNTIME, "pyodide-lock.json"),
    // On Node, Pyodide retries a wheel it cannot read at packageBaseUrl, or at the jsDelivr CDN
    // when none is given: naming the built site keeps an unreadable wheel a local error.
    packageBaseUrl: RUNTIME,
    packages: ["rollbook"],
  });
  if (!pyodide.loadedPackages.rollbook) fail("the rollbook wheel did not load (loadPyodide logged why, above)");
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Pyodide ${pyodide.version} (Python ${pyodide.runPython("import sys; sys.version.split()[0]")}) + rollbook loaded from ${path.relative(ROOT, RUNTIME) || RUNTIME} in ${seconds} s`);
  return pyodide;
}

function installTestWheels(pyodide, wheels) {
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const name of wheels) {
    // unpackArchive wants a Uint8Array: a Node Buffer throws.
    pyodide.unpackArchive(new Uint8Array(readFileSync(path.join(VENDOR, name))), "wheel", { extractDir: sitePackages });
  }
  const { FS } = pyodide;
  for (const dir of ["tests", "engine"]) { // engine/: only read, to compare with the site's wheel
    FS.mkdirTree(`${MOUNT}/${dir}`);
    FS.mount(FS.filesystems.NODEFS, { root: path.join(ROOT, dir) }, `${MOUNT}/${dir}`);
  }
  // pytest's rootdir and settings (markers, --strict-markers) come from the real pyproject.toml,
  // copied rather than mounting the whole tree, so nothing the suite writes lands in it.
  FS.writeFile(`${MOUNT}/pyproject.toml`, readFileSync(path.join(ROOT, "pyproject.toml")));
  // invalidate_caches: site-packages was listed before the wheels landed in it.
  pyodide.runPython(`import importlib, os, sys; importlib.invalidate_caches(); os.chdir("${MOUNT}"); sys.path.insert(0, "${MOUNT}/tests/pyodide")`);
  const inside = pyodide.pyimport("inside");
  const origin = inside.engine_origin();
  if (!origin.includes("site-packages")) fail(`rollbook was imported from ${origin}, not from the site's wheel`);
  const stale = inside.stale_engine_files(`${MOUNT}/engine/rollbook`).toJs();
  if (stale.length) fail(`${path.relative(ROOT, SITE)}/ was built from another engine than the tree's (${stale.slice(0, 5).join(", ")} differ): run \`make build\``);
  const distributions = wheels.map((name) => name.split("-")[0]);
  const unmet = inside.unmet_requirements(distributions).toJs();
  if (unmet.length) fail(`tests/pyodide/requirements.txt is incomplete:\n  ${unmet.join("\n  ")}`);
  console.log(`installed ${wheels.length} vendored test wheels: ${distributions.join(", ")}`);
  return inside;
}

function cpythonReport() {
  const done = spawnSync(PYTHON, [path.join("tests", "pyodide", "corpus.py"), "--report"], {
    cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28,
  });
  if (done.error) fail(`could not run CPython (${PYTHON}): ${done.error.message}`);
  if (done.status !== 0) fail(`CPython could not answer the corpus:\n${done.stderr}`);
  return JSON.parse(done.stdout);
}

function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

// Returns the problems found (empty when the runtimes agree), so the suite still runs after a miss.
function crossRuntimeCheck(pyodide, onCPython) {
  const corpus = pyodide.pyimport("corpus");
  const inPyodide = JSON.parse(corpus.report());
  if (inPyodide.schema !== onCPython.schema) {
    const at = firstDifference(inPyodide.schema, onCPython.schema);
    return [`the command schema differs at character ${at}:\n  Pyodide: …${inPyodide.schema.slice(Math.max(0, at - 40), at + 80)}\n  CPython: …${onCPython.schema.slice(Math.max(0, at - 40), at + 80)}`];
  }
  const n = onCPython.requests.length;
  if (inPyodide.requests.length !== n) return [`the corpus expanded to ${inPyodide.requests.length} requests in Pyodide but ${n} on CPython`];
  for (let i = 0; i < n; i++) {
    const [p, c] = [inPyodide.answers[i], onCPython.answers[i]];
    if (p !== c) {
      const at = firstDifference(p, c);
      return [`corpus request ${i + 1} of ${n} answers differently (first difference at character ${at}):\n` +
        `  request: ${onCPython.requests[i]}\n  Pyodide: ${p}\n  CPython: ${c}`];
    }
  }
  const missing = corpus.coverage_problems().toJs();
  const commands = JSON.parse(onCPython.schema).length;
  const ok = onCPython.answers.filter((a) => JSON.parse(a).ok).length;
  console.log(`cross-runtime corpus: ${n} requests (${ok} answered ok, ${n - ok} errors) covering ${commands - missing.length} of ${commands} commands: identical bytes on CPython and in Pyodide`);
  return missing.length ? [`the corpus misses commands (add entries to tests/pyodide/corpus.json):\n  ${missing.join("\n  ")}`] : [];
}

// The site's worker answers from the memory snapshot before the engine's files are back on disk
// (widgets/engine-worker.js): restore it here as the worker does, with no engine file anywhere,
// and every corpus answer must be the CPython one, byte for byte.
async function restoredCheck(onCPython) {
  const snapshotFile = path.join(RUNTIME, "engine.snapshot.gz");
  if (!existsSync(snapshotFile)) return [`${path.relative(ROOT, RUNTIME)} holds no engine.snapshot.gz: run \`make build\``];
  const { loadPyodide } = await import(pathToFileURL(path.join(RUNTIME, "pyodide.mjs")).href);
  const info = JSON.parse(readFileSync(path.join(RUNTIME, "engine.snapshot.json"), "utf8"));
  const restored = await loadPyodide({
    indexURL: RUNTIME, lockFileURL: path.join(RUNTIME, "pyodide-lock.json"), packageBaseUrl: RUNTIME,
    _loadSnapshot: gunzipSync(readFileSync(snapshotFile)),
  });
  restored.runPython(info.after_restore);
  const onDisk = restored.runPython(`
import os, sysconfig
[os.path.join(root, name) for root, _, names in os.walk("/") for name in names
 if "rollbook" in os.path.join(root, name) and not root.startswith(("/proc", "/dev"))]`).toJs();
  if (onDisk.length) return [`the restored engine has files on disk, so this check proves nothing: ${onDisk.slice(0, 3).join(", ")}`];
  const callJson = restored.pyimport("rollbook.api").call_json;
  const n = onCPython.requests.length;
  for (let i = 0; i < n; i++) {
    const answer = callJson(onCPython.requests[i]);
    if (answer !== onCPython.answers[i]) {
      return [`restored from the snapshot with no engine file on disk, corpus request ${i + 1} of ${n} answers differently:\n` +
        `  request: ${onCPython.requests[i]}\n  restored: ${answer}\n  CPython:  ${onCPython.answers[i]}`];
    }
  }
  console.log(`restored from the snapshot, no engine file on disk: the ${n} corpus requests answered as on CPython`);
  return [];
}

function engineSuite(inside) {
  console.log("engine suite inside Pyodide: pytest tests/engine -m 'not cpython_only'");
  const tally = JSON.parse(inside.run_engine_suite(process.argv.slice(2)));
  console.log(
    `engine suite inside Pyodide: ${tally.ran} ran, ${tally.passed} passed, ${tally.failed} failed, ` +
    `${tally.errors} errors, ${tally.skipped} skipped, ${tally.deselected_cpython_only} deselected as cpython_only` +
    (tally.deselected_other ? `, ${tally.deselected_other} deselected by your -m/-k` : ""),
  );
  for (const id of tally.cpython_only) console.log(`  cpython_only (runs on CPython only): ${id}`);
  if (tally.exit_code === 5) return ["no engine tests were collected in tests/engine"];
  if (tally.exit_code !== 0) return [`the engine suite failed inside Pyodide (pytest exit code ${tally.exit_code})`];
  return [];
}

try {
  const wheels = vendoredWheels();
  const pyodide = await startEngine();
  const inside = installTestWheels(pyodide, wheels);
  const onCPython = cpythonReport();
  const problems = [...crossRuntimeCheck(pyodide, onCPython), ...await restoredCheck(onCPython), ...engineSuite(inside)];
  if (problems.length) fail(problems.join("\n"));
  console.log("pyodide harness: OK");
} catch (error) {
  // The message (a Python traceback for a PythonError), not Node's echo of a 1 MB minified line.
  fail(error?.message ?? String(error));
}
