// The engine inside Pyodide (on Node) against the same engine on CPython, in one run, and the
// time to load Pyodide + the engine from the BUILT site files in a cold Node process.
//
//   make build && node benchmarks/pyodide.mjs [--runs N] [--write-readme]
//
// --write-readme replaces the "Engine in Pyodide" section of benchmarks/README.md (between its
// markers) with the tables below, or appends the section. $ROLLBOOK_SITE overrides site/,
// $PYTHON overrides .venv/bin/python. Internal: --cold bare|wheel|engine is one cold-load sample.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { ROOT, RUNTIME, SITE } from "../tests/pyodide/built-site.mjs";

const PYTHON = process.env.PYTHON ?? path.join(ROOT, ".venv", "bin", "python");
const README = path.join(ROOT, "benchmarks", "README.md");
const START = "<!-- pyodide-bench:start -->";
const END = "<!-- pyodide-bench:end -->";
const FIRST_REQUEST = JSON.stringify({ command: "roll", args: { expression: "3d6", seed: 1 } });

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};

async function load(mode) {
  const { loadPyodide } = await import(pathToFileURL(path.join(RUNTIME, "pyodide.mjs")).href);
  if (mode === "bare") return loadPyodide({ indexURL: RUNTIME });
  if (mode === "snapshot") { // as the browser's worker does (widgets/engine-worker.js `restore`)
    const { gunzipSync } = await import("node:zlib");
    const lock = JSON.parse(readFileSync(path.join(RUNTIME, "pyodide-lock.json"), "utf8"));
    const pyodide = await loadPyodide({
      indexURL: RUNTIME, lockFileURL: path.join(RUNTIME, "pyodide-lock.json"), packageBaseUrl: RUNTIME,
      _loadSnapshot: gunzipSync(readFileSync(path.join(RUNTIME, "engine.snapshot.gz"))),
    });
    const wheel = new Uint8Array(readFileSync(path.join(RUNTIME, lock.packages.rollbook.file_name)));
    pyodide.unpackArchive(wheel, "wheel", { extractDir: pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')") });
    pyodide.runPython("import random; random.seed()");
    pyodide.pyimport("rollbook.api").call_json(FIRST_REQUEST);
    return pyodide;
  }
  const pyodide = await loadPyodide({
    indexURL: RUNTIME, lockFileURL: path.join(RUNTIME, "pyodide-lock.json"), packages: ["rollbook"],
    packageBaseUrl: RUNTIME, // never the CDN that Pyodide on Node falls back to (tests/pyodide/run.mjs)
  });
  if (mode === "wheel") return pyodide; // wheel installed, nothing imported yet
  pyodide.pyimport("rollbook.api").call_json(FIRST_REQUEST); // ready = the first answer is back
  return pyodide;
}

// One cold sample: this process was started only to load once; report the seconds it took.
if (option("--cold")) {
  const started = performance.now();
  await load(option("--cold"));
  console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000 }));
  process.exit(0);
}

if (!existsSync(path.join(RUNTIME, "pyodide-lock.json"))) {
  console.error(`benchmarks: ${RUNTIME} holds no built runtime: run \`make build\` first`);
  process.exit(1);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function coldSamples(runs) {
  const samples = { bare: [], wheel: [], engine: [], snapshot: [] };
  for (let i = 0; i < runs; i++) {
    for (const mode of Object.keys(samples)) { // alternate, so drift hits both alike
      const begun = performance.now();
      const done = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--cold", mode], { encoding: "utf8" });
      const wall = (performance.now() - begun) / 1000;
      if (done.status !== 0) throw new Error(`cold ${mode} load failed:\n${done.stderr}`);
      samples[mode].push({ load: JSON.parse(done.stdout).seconds, wall });
    }
  }
  return samples;
}

async function engineTimings() {
  const work = readFileSync(path.join(ROOT, "benchmarks", "pyodide_work.py"));
  const onCPython = spawnSync(PYTHON, ["pyodide_work.py"], { cwd: path.join(ROOT, "benchmarks"), encoding: "utf8" });
  if (onCPython.status !== 0) throw new Error(`CPython timings failed:\n${onCPython.stderr}`);
  const pyodide = await load("engine");
  pyodide.FS.mkdirTree("/bench");
  pyodide.FS.writeFile("/bench/pyodide_work.py", work);
  const dice = path.join(ROOT, "benchmarks", "dice.py"); // imported by pyodide_work.py if present
  if (existsSync(dice)) pyodide.FS.writeFile("/bench/dice.py", readFileSync(dice));
  pyodide.runPython("import sys; sys.path.insert(0, '/bench')");
  const inPyodide = pyodide.pyimport("pyodide_work").timings();
  return { cpython: JSON.parse(onCPython.stdout), pyodide: JSON.parse(inPyodide), version: pyodide.version };
}

const fmtTime = (s) => (s >= 0.1 ? `${s.toFixed(2)} s` : s >= 1e-3 ? `${(s * 1e3).toFixed(2)} ms` : `${(s * 1e6).toFixed(1)} µs`);

function tables(timings, cold, runs) {
  const lines = [];
  lines.push(`Engine work per call through \`rollbook.api.call_json\` (JSON in and out; repeated, so the engine's caches are warm), median of 5 batches; then the dice library alone (\`benchmarks/dice.py\`):`, "");
  lines.push(`| request | CPython ${timings.cpython.python} | Pyodide ${timings.version} (Python ${timings.pyodide.python}, Node ${process.versions.node}) | Pyodide / CPython |`);
  lines.push("|---|---:|---:|---:|");
  const byLabel = new Map(timings.pyodide.rows.map((r) => [r.label, r]));
  const ratios = [];
  let slowest = 0;
  for (const c of timings.cpython.rows) {
    const p = byLabel.get(c.label);
    if (!p) continue;
    const note = c.ok ? "" : " (rejected: error path)";
    ratios.push(p.seconds / c.seconds);
    slowest = Math.max(slowest, p.seconds);
    lines.push(`| ${c.label}${note} | ${fmtTime(c.seconds)} | ${fmtTime(p.seconds)} | ${(p.seconds / c.seconds).toFixed(1)}× |`);
  }
  lines.push("", `Inside Pyodide the engine is ${Math.min(...ratios).toFixed(1)}–${Math.max(...ratios).toFixed(1)}× slower than on CPython;` +
    ` the slowest request above still answers in ${fmtTime(slowest)}.`);
  lines.push("", `Loading from the built \`site/pyodide/<hash>/\` in a fresh Node process, median of ${runs} runs each` +
    " (load = \`import\` of pyodide.mjs until ready; process = spawn to exit, including Node's own start):", "");
  lines.push("| what | load | process |", "|---|---:|---:|");
  const row = (label, xs) => `| ${label} | ${fmtTime(median(xs.map((x) => x.load)))} | ${fmtTime(median(xs.map((x) => x.wall)))} |`;
  lines.push(row("bare `loadPyodide()` (baseline)", cold.bare));
  lines.push(row("+ rollbook wheel installed (`packages: [\"rollbook\"]`)", cold.wheel));
  lines.push(row("+ `import rollbook.api` and the first answer", cold.engine));
  lines.push(row("the build's memory snapshot restored (engine imported), wheel files put back, first answer", cold.snapshot));
  const extra = median(cold.engine.map((x) => x.load)) - median(cold.bare.map((x) => x.load));
  const restored = median(cold.snapshot.map((x) => x.load)) / median(cold.bare.map((x) => x.load));
  lines.push("", `The engine adds ${fmtTime(extra)} to a bare Pyodide start; restoring the snapshot gives the first answer in ` +
    `${(restored * 100).toFixed(0)}% of the bare start's time.`);
  return lines.join("\n");
}

const runs = Number(option("--runs", "5"));
const timings = await engineTimings();
const cold = coldSamples(runs);
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const body = tables(timings, cold, runs);
const section = [
  START,
  "## Engine in Pyodide vs CPython",
  "",
  `Made by \`make build && node benchmarks/pyodide.mjs --runs ${runs} --write-readme\` on ${new Date().toISOString().slice(0, 10)}` +
  ` (${cpu}, ${os.cpus().length} cores, shared with other work, so expect noise).`,
  "",
  body,
  END,
].join("\n");
console.log(body);
if (args.includes("--write-readme")) {
  const old = existsSync(README) ? readFileSync(README, "utf8") : "# Benchmarks\n";
  const next = old.includes(START) && old.includes(END)
    ? old.slice(0, old.indexOf(START)) + section + old.slice(old.indexOf(END) + END.length)
    : `${old.trimEnd()}\n\n${section}\n`;
  writeFileSync(README, next);
  console.log(`\nwrote the section into ${path.relative(ROOT, README)}`);
}
