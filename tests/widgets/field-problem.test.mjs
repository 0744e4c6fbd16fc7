// Which form field an engine error is about, and how its message reads there (widgets/field-problem.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldInError, labelled } from "../../widgets/field-problem.js";

const FIELDS = [{ name: "attack_skill" }, { name: "scores" }, { name: "complexity", args: ["codex dc level"] }];

test("the first of the error's fields that the form has", () => {
  assert.equal(fieldInError({ fields: ["seed", "attack_skill"] }, FIELDS).name, "attack_skill");
  assert.equal(fieldInError({ fields: ["scores.con"] }, FIELDS).name, "scores"); // a keyed argument's entry
  assert.equal(fieldInError({ fields: ["scores.con"] }, [{ name: "scores.con" }, ...FIELDS]).name, "scores.con");
  assert.equal(fieldInError({ message: "no field" }, FIELDS), null);
  assert.equal(fieldInError({ fields: [] }, FIELDS), null);
});

test("in a chain, an alias answers for its own command's argument only", () => {
  assert.equal(fieldInError({ fields: ["level"] }, FIELDS, "codex dc").name, "complexity");
  assert.equal(fieldInError({ fields: ["level"] }, FIELDS, "codex check"), null);
});

test("the message reads after the label, once", () => {
  assert.equal(labelled("Attack skill", "enter a whole number, such as 40, not “abc”"), "Attack skill: enter a whole number, such as 40, not “abc”");
  assert.equal(labelled("Strength", "Strength: type the number rolled"), "Strength: type the number rolled");
  assert.equal(labelled(null, "Distractions make it impossible"), "Distractions make it impossible");
});
