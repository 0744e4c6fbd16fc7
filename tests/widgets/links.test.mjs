// Share links (widgets/links.js): what is written is read back; what does not fit is dropped
// with a reason, never passed on.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fittingLink, MAX_LINK, readQuery, shareLink, sitePage, writeQuery } from "../../widgets/links.js";

const ROLL = { expression: "text", seed: "int", vars: "vars", label: "text", shared: "bool" };

test("a roll's state survives the round trip through a link", () => {
  const state = { expression: "4d6kh3 + 2 # fire & ice?", seed: 9007199254740991, vars: { STR: 3, DEX: -1 }, label: "Sword damage", shared: true };
  const link = shareLink("https://example.org/rollbook/", "tools/roller/", ROLL, state);
  assert.ok(link.startsWith("https://example.org/rollbook/tools/roller/?expression="));
  assert.deepEqual(readQuery(ROLL, new URL(link).search), { values: state, problems: [] });
});

test("empty fields are left out of the link", () => {
  assert.equal(writeQuery(ROLL, { expression: "d20", seed: 1, vars: {}, label: null }), "?expression=d20&seed=1");
  assert.equal(writeQuery(ROLL, {}), "");
});

test("fields that do not fit are dropped and named in a reader's words", () => {
  const { values, problems } = readQuery(ROLL, "?expression=d6&seed=12x&vars=STR:3,<b>:1&shared=yes", { vars: "values" });
  assert.deepEqual(values, { expression: "d6" });
  assert.deepEqual(problems, [
    "part of this link (“12x”) could not be read, so it was left out",
    "this link's values “STR:3,<b>:1” could not be read, so it was left out",
    "part of this link (“yes”) could not be read, so it was left out",
  ]);
  assert.deepEqual(readQuery(ROLL, "?seed=99999999999999999").problems, ["part of this link (“99999999999999999”) could not be read, so it was left out"]);
});

test("only a page of this site becomes a link: kept or imported paths are untrusted", () => {
  const root = "https://example.org/rollbook/";
  assert.equal(sitePage(root, "tools/roller/?expression=d20&seed=3"), "https://example.org/rollbook/tools/roller/?expression=d20&seed=3");
  assert.equal(sitePage(root, "opencore/combat/#critical-hits"), "https://example.org/rollbook/opencore/combat/#critical-hits");
  for (const hostile of ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "https://evil.example/",
    "//evil.example/x", "/elsewhere/", "tools/../../outside/", "../outside/", "data:text/html,x", "", null, 42, "a b"]) {
    assert.equal(sitePage(root, hostile), null, String(hostile));
  }
});

test("a choice is one of its values: written as it is, anything else refused in a reader's words", () => {
  const CHARACTER = { name: "text", perception: ["above", "at-or-below"] };
  const link = shareLink("https://example.org/rollbook/", "tools/character/", CHARACTER, { name: "Buck", perception: "at-or-below" });
  assert.ok(link.endsWith("?name=Buck&perception=at-or-below"));
  assert.deepEqual(readQuery(CHARACTER, new URL(link).search), { values: { name: "Buck", perception: "at-or-below" }, problems: [] });
  assert.deepEqual(readQuery(CHARACTER, "?name=Buck&perception=Above", { perception: "A Perception roll succeeds" }), {
    values: { name: "Buck" },
    problems: ["this link's A Perception roll succeeds “Above” could not be read, so it was left out"],
  });
});

// Issue 39: a tool's long input made a link longer than the roll log keeps, and keeping it threw
// "roll.link: text longer than 1000 characters" (the answer never shown). A link is offered only
// when it gives back what was asked, whole.
const TOOL = { tool: "text", character: "text", damage: "text", seed: "int" };

test("a link that fits is offered, and reads back as it was written", () => {
  const state = { tool: "cyno-strike", damage: "2d6+1", seed: 42 };
  const link = fittingLink("https://example.org/rollbook/", "tools/combat/", TOOL, state);
  assert.equal(link, shareLink("https://example.org/rollbook/", "tools/combat/", TOOL, state));
  assert.deepEqual(readQuery(TOOL, new URL(link).search), { values: state, problems: [] });
});

test("no link is offered when it would be longer than the roll log keeps", () => {
  // 16 lines, under 500 characters (a link reads text up to 500), more than 1,000 once written in a link
  const lines = Array.from({ length: 16 }, (_, i) => `name=Åsa Ødegård-Ærø ${i + 1},dex=${40 + i}`).join("\n");
  const state = { tool: "opencore-party-initiative", character: lines, seed: 1 };
  assert.ok(lines.length <= 500 && ("tools/combat/" + writeQuery(TOOL, state)).length > MAX_LINK);
  assert.equal(fittingLink("https://example.org/rollbook/", "tools/combat/", TOOL, state), null);
});

test("no link is offered when a value would not read back (text longer than a link reads)", () => {
  const expression = Array(125).fill("1d6").join("+"); // 499 characters: read back
  assert.ok(fittingLink("https://example.org/rollbook/", "tools/roller/", ROLL, { expression, seed: 3 }));
  // 503 characters: a link would read it as nothing, and show another roll than this one
  assert.equal(fittingLink("https://example.org/rollbook/", "tools/roller/", ROLL, { expression: `${expression}+11`, seed: 3 }), null);
  assert.equal(fittingLink("https://example.org/rollbook/", "tools/roller/", ROLL, { expression: "d6".repeat(32_000), seed: 3 }), null);
});

test("every value of a fitting link reads back: an ordinary roll, its values and its label", () => {
  const state = { expression: "2d10+STR", seed: 0, vars: { STR: 3 }, label: "Sword & shield", shared: true };
  const link = fittingLink("https://example.org/rollbook/", "tools/roller/", ROLL, state);
  assert.deepEqual(readQuery(ROLL, new URL(link).search).values, state);
});
