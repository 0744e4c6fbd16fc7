// Adding combatants: in one tap a kept character (OpenCore: its abilities and the HP the engine
// works out for it), a combatant the GM kept (a foe, or a Cyno character: any side), or a typical
// foe; or one typed here. Scores not given come from the engine's ruling for a typical combatant
// of the rule set (shown beside the buttons, by its title); a second of the same name is numbered
// by the engine (Foe 2, Goblin 2). The typed form starts blank for every combatant: nothing of
// the last one is carried into the next. A step's answer is shown by the button that made it.

import { ask } from "../../engine.js";
import { html, nothing, repeat } from "../../element.js";
import { ENCOUNTER } from "../../facts.js";
import { namesInWords, newId } from "../../kept.js";
import { labelled } from "../../field-problem.js";
import { clip, kept, SITE_ROOT } from "../../session.js";
import { given, typed } from "../../tool.js";
import { scoresText } from "../inline-roll.js";
import { input, select } from "./fields.js";
import { answerHere } from "./log.js";

export const ADD_BLANK = {
  name: "", side: "foes", hp: "", con: "", dex: "", str: "", attack_skill: "", defense_skill: "",
  toughness: "", weapon: ENCOUNTER.unarmed, armor_name: "", reflex: "", coordination: "", stress: "", actions: "",
  dp: "", cyno_weapon: "", weaponry_skill: "", template: false,
};

// The typed form's scores: [the score's name, its label]
const OPENCORE_FIELDS = [["hp", "HP"], ["con", "CON"], ["dex", "DEX"], ["str", "STR"], ["attack_skill", "Attack skill"],
  ["defense_skill", "Defense skill"], ["toughness", "Toughness"]];
const CYNO_FIELDS = [["reflex", "Reflex"], ["coordination", "Coordination"], ["stress", "Stress"], ["actions", "Actions"],
  ["dp", "DP"], ["weaponry_skill", "Weaponry skill %"]];

/** The typed form's fields as `encounter add` names them, with their labels, in the form's order. */
function formFields(rules) {
  const scores = (rules === "cyno" ? CYNO_FIELDS : OPENCORE_FIELDS).map(([name, label]) => [`score.${name}`, label]);
  return [["name", "Name"], ["side", "Side"], ...scores,
    ...(rules === "cyno" ? [["weapon", "Weapon damage"]] : [["weapon", "Weapon"], ["armor_name", "Armor"]])];
}

/** `encounter add` for a combatant the page describes; scores not given are the typical ones.
 *  `form`: where a refusal and the answer are shown ("add", the typed form; "quick", the one-tap buttons). */
function join(t, args, form = "quick", onKept = null) {
  const title = (result) => `${result.encounter.combatants.at(-1).name} joins`; // numbered by the engine: Goblin 2
  // tapped, not typed (a kept foe, a kept character, another like one): its fields are not on
  // screen, so a refusal says which combatant and which of its values, by the value's label
  const words = form === "add" ? null : (error) => {
    const label = formFields(t.current().rules).find(([arg]) => (error.fields ?? []).includes(arg))?.[1];
    return `${clip(args.name, 40)} was not added: ${labelled(label, error.message)}`;
  };
  return t.run("encounter add", { ...args, typical: true }, { title, form, words, onKept });
}

/** A kept character joins in one tap: its abilities, the HP its sheet gives, the typical skills. */
async function addCharacter(t, character) {
  const sheet = await ask({ command: "opencore character", args: { scores: scoresText(character.scores), hp_roll: character.hp_roll } });
  if (!sheet.ok) return t.refused("quick", { message: `${character.name}: ${sheet.error.message}` });
  const { CON: con, DEX: dex, STR: str } = character.scores;
  return join(t, { name: character.name, side: "players", score: { hp: sheet.result.hp, con, dex, str } });
}

/** What `encounter add` takes to add this combatant again, fresh (`full`: its armor and Toughness when added). */
export function addArgs(enc, c, full) {
  if (enc.rules === "cyno") {
    return { name: c.name, side: c.side, weapon: c.weapon_damage, weapon_level: c.weapon_level, level: c.level, static: c.static || undefined,
      score: given({ reflex: c.reflex, coordination: c.coordination, stress: c.stress, actions: c.actions, dp: c.dp_max,
        weaponry_skill: c.weaponry_skill ?? undefined, hand_to_hand_skill: c.hand_to_hand_skill ?? undefined }) };
  }
  const most = full ?? { armor: c.armor, toughness: c.toughness };
  return { name: c.name, side: c.side, weapon: c.weapon, armor_name: c.armor_name ?? undefined,
    score: given({ hp: c.hp_max, con: c.con, dex: c.dex, str: c.str ?? undefined, attack_skill: c.attack_skill,
      defense_skill: c.defense_skill, toughness: most.toughness, armor: most.armor, fortitude: c.fortitude }) };
}

/** Another like this one: the same values, fresh, numbered by the engine. */
export function addAnother(t, c) {
  const fight = kept.encounter;
  return join(t, addArgs(fight.current, c, fight.full[c.id]), `edit-${c.id}`);
}

/** Keep a combatant's values (a foe, or a Cyno character: any side) for one tap next time. */
export function keepAsFoe(t, args, form = "quick") {
  const { name, side, weapon = null, armor_name = null, score } = args;
  try {
    kept.saveFoe({ id: newId(), name, rules: t.current().rules, side, weapon, armor_name, score, created: new Date().toISOString() });
    t.said = `${name} kept: one tap adds it to any encounter.`;
  } catch (error) {
    return t.refused(form, { message: `Not kept: ${error.message}` });
  }
  t.update();
}

async function addTyped(t, event) {
  event.preventDefault();
  const v = t.add;
  const cyno = t.current().rules === "cyno";
  const score = given(Object.fromEntries((cyno ? CYNO_FIELDS : OPENCORE_FIELDS).map(([name]) => [name, typed(v[name])])));
  const name = v.name.trim();
  const args = cyno ? { name, side: v.side.trim(), weapon: v.cyno_weapon.trim() || undefined, score }
    : { name, side: v.side.trim(), weapon: v.weapon || undefined, armor_name: v.armor_name || undefined, score };
  const done = await join(t, args, "add", () => { t.add = { ...ADD_BLANK }; });
  if (done && v.template) keepAsFoe(t, args);
}

function quickView(t, enc) {
  const opencore = enc.rules === "opencore";
  const characters = opencore ? kept.characters : [];
  const foes = kept.foes.filter((f) => f.rules === enc.rules);
  const typical = t.typical[enc.rules];
  const ruling = typical?.ruling;
  // each pick keyed by what it adds (ids are once each): drawn by place, "Forget the foe Rachel"
  // pressed twice forgot Sid too, the focused button having become his
  return html`<div class="rollbook-encounter__quick">
    <p class="rollbook-encounter__hint">One tap adds:</p>
    <ul class="rollbook-encounter__picks" aria-label="Add in one tap" data-anchor="quick">
      ${repeat(characters, (c) => c.id, (c) => html`<li><button type="button" class="md-button rollbook-encounter__pick" @click=${() => addCharacter(t, c)}>${c.name}</button></li>`)}
      ${repeat(foes, (f) => f.id, (f) => html`<li class="rollbook-encounter__foe"><button type="button" class="md-button rollbook-encounter__pick"
        @click=${() => join(t, { name: f.name, side: f.side, weapon: f.weapon ?? undefined, armor_name: f.armor_name ?? undefined, score: f.score })}>${f.name}</button>
        <button type="button" class="md-button rollbook-encounter__forget" aria-label=${`Forget the foe ${f.name}`}
          @click=${() => t.closingUp(() => forget(t, f))}>×</button></li>`)}
      <li><button type="button" class="md-button rollbook-encounter__pick" @click=${() => join(t, { name: "Foe", side: "foes" })}>A typical foe</button></li>
    </ul>
    ${t.problemFor("quick").line}
    ${t.step?.at === "quick" ? answerHere(t.step) : nothing}
    ${t.forgotten ? html`<p class="rollbook-done">${namesInWords(t.forgotten.names)} forgotten.
      <button type="button" class="md-button" @click=${() => { t.forgotten.back(); t.forgotten = null; t.update(); }}>Undo forget</button></p>` : nothing}
    ${ruling ? html`<p class="rollbook-field__help" id="rollbook-enc-typical">${opencore ? "Scores not given (a kept character's skills, a typical foe's, a field left blank)" : "Values not given (a typical foe's, a field left blank)"} follow the ruling
      <a href=${new URL(`rulings/#${ruling.id}`, SITE_ROOT).href}>${ruling.title}</a>: ${typical.words}.</p>` : nothing}
  </div>`;
}

/** Forget a kept foe; foes forgotten while the last one's Undo is offered are said and brought
 *  back together (a quick second tap lands on the next foe's × once the list has closed up). */
function forget(t, foe) {
  const back = kept.deleteFoe(foe.id);
  const before = t.forgotten;
  t.forgotten = { names: [...(before?.names ?? []), foe.name], back: () => { back(); before?.back(); } }; // the last first
  t.update();
}

export function addView(t, enc) {
  const v = t.add;
  const set = (name) => (value) => { t.add = { ...t.add, [name]: value }; t.update(); };
  const id = (name) => `rollbook-enc-add-${name.replaceAll("_", "-")}`;
  const opencore = enc.rules === "opencore";
  const typical = t.typical[enc.rules]?.scores ?? {};
  const problem = t.problemFor("add", formFields(enc.rules));
  const numbers = (fields) => fields.map(([name, label]) => input(id(name), label, v[name], set(name),
    { placeholder: typical[name] ?? (name === "toughness" ? "0" : name === "weaponry_skill" ? "none" : nothing), problem: problem.of(`score.${name}`) }));
  return html`<details class="rollbook-encounter__add" ?open=${enc.round === 0}>
    <summary>Add a combatant</summary>
    ${quickView(t, enc)}
    <form @submit=${(e) => addTyped(t, e)} aria-label="A combatant typed here" data-anchor="add">
      <h3 class="rollbook-encounter__hint">Or type one in</h3>
      <div class="rollbook-fields">
        ${input(id("name"), "Name", v.name, set("name"), { numeric: false, problem: problem.of("name") })}
        ${input(id("side"), "Side", v.side, set("side"), { numeric: false, problem: problem.of("side") })}
        ${opencore ? html`${numbers(OPENCORE_FIELDS)}
          ${select(id("weapon"), "Weapon", v.weapon, t.weapons.map((w) => [w, w]), set("weapon"), { wide: true, problem: problem.of("weapon") })}
          ${select(id("armor"), "Armor", v.armor_name, [["", "None"], ...t.armors.map((a) => [a, a])], set("armor_name"), { wide: true, problem: problem.of("armor_name") })}`
        : html`${numbers(CYNO_FIELDS)}
          ${input(id("weapon-dice"), "Weapon damage", v.cyno_weapon, set("cyno_weapon"), { numeric: false, placeholder: t.typical.cyno?.weapon ?? nothing, problem: problem.of("weapon") })}`}
      </div>
      ${problem.line}
      <div class="rollbook-field rollbook-field--check"><label><input type="checkbox" id=${id("template")} .checked=${v.template}
        @change=${(e) => set("template")(e.target.checked)}> Also keep it for next time (one tap adds it, foe or character)</label></div>
      <button type="submit" class="md-button md-button--primary rollbook-tool__go">Add to the encounter</button>
      ${t.step?.at === "add" ? answerHere(t.step) : nothing}
    </form>
  </details>`;
}
