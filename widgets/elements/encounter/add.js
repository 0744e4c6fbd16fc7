// Adding a combatant: a kept character (its scores and the HP the engine works out) or one typed
// here (`encounter add`).

import { ask } from "../../engine.js";
import { html, nothing } from "../../element.js";
import { kept } from "../../session.js";
import { given, typed } from "../../tool.js";
import { scoresText } from "../inline-roll.js";
import { input, select } from "./fields.js";

export const ADD_BLANK = {
  from: "", name: "", side: "foes", hp: "", con: "", dex: "", str: "", attack_skill: "", defense_skill: "",
  toughness: "", weapon: "Hand to Hand", armor_name: "", reflex: "", coordination: "", stress: "", actions: "",
  dp: "", cyno_weapon: "1d6", weaponry_skill: "",
};

export async function addCombatant(t, event) {
  event.preventDefault();
  const fight = kept.encounter;
  const v = t.add;
  let name = v.name.trim();
  let score;
  if (fight.current.rules === "cyno") {
    score = given({ reflex: typed(v.reflex), coordination: typed(v.coordination), stress: typed(v.stress), actions: typed(v.actions), dp: typed(v.dp), weaponry_skill: typed(v.weaponry_skill) });
    const result = await t.run("encounter add", { name, side: v.side.trim(), weapon: v.cyno_weapon.trim(), score }, { title: `${name || "A combatant"} joins` });
    if (result) t.add = { ...t.add, name: "" };
    return;
  }
  score = given({ hp: typed(v.hp), con: typed(v.con), dex: typed(v.dex), str: typed(v.str), attack_skill: typed(v.attack_skill), defense_skill: typed(v.defense_skill), toughness: typed(v.toughness) });
  if (v.from) {
    const character = kept.characters.find((c) => c.id === v.from);
    if (!character) return;
    const sheet = await ask({ command: "opencore character", args: { scores: scoresText(character.scores), hp_roll: character.hp_roll } });
    if (!sheet.ok) {
      t.problem = sheet.error.message;
      return t.update();
    }
    name = character.name;
    score = { ...score, hp: sheet.result.hp, con: character.scores.CON, dex: character.scores.DEX, str: character.scores.STR };
  }
  const result = await t.run("encounter add", {
    name, side: v.side.trim(), weapon: v.weapon || undefined, armor_name: v.armor_name || undefined, score,
  }, { title: `${name || "A combatant"} joins` });
  if (result) t.add = { ...t.add, name: "", from: "" };
  t.update();
}

export function addView(t, enc) {
  const v = t.add;
  const set = (name) => (value) => { t.add = { ...t.add, [name]: value }; t.update(); };
  const id = (name) => `rollbook-enc-add-${name}`;
  const opencore = enc.rules === "opencore";
  const fromCharacter = opencore && v.from;
  return html`<details class="rollbook-encounter__add" ?open=${enc.combatants.length < 2}>
    <summary>Add a combatant</summary>
    <form @submit=${(e) => addCombatant(t, e)}>
      <div class="rollbook-fields">
        ${opencore && kept.characters.length ? select(id("from"), "From", v.from, [["", "Typed here"], ...kept.characters.map((c) => [c.id, `Kept: ${c.name}`])], set("from")) : nothing}
        ${fromCharacter ? nothing : input(id("name"), "Name", v.name, set("name"), { numeric: false })}
        ${input(id("side"), "Side", v.side, set("side"), { numeric: false })}
        ${opencore ? html`
          ${fromCharacter ? nothing : html`${input(id("hp"), "HP", v.hp, set("hp"))}${input(id("con"), "CON", v.con, set("con"))}
            ${input(id("dex"), "DEX", v.dex, set("dex"))}${input(id("str"), "STR", v.str, set("str"))}`}
          ${input(id("attack"), "Attack skill", v.attack_skill, set("attack_skill"))}
          ${input(id("defense"), "Defense skill", v.defense_skill, set("defense_skill"))}
          ${input(id("toughness"), "Toughness", v.toughness, set("toughness"), { placeholder: "0" })}
          ${select(id("weapon"), "Weapon", v.weapon, t.weapons.map((w) => [w, w]), set("weapon"))}
          ${select(id("armor"), "Armor", v.armor_name, [["", "None"], ...t.armors.map((a) => [a, a])], set("armor_name"))}`
        : html`
          ${input(id("reflex"), "Reflex", v.reflex, set("reflex"))}
          ${input(id("coordination"), "Coordination", v.coordination, set("coordination"))}
          ${input(id("stress"), "Stress", v.stress, set("stress"))}
          ${input(id("actions"), "Actions", v.actions, set("actions"))}
          ${input(id("dp"), "DP", v.dp, set("dp"))}
          ${input(id("weapon-dice"), "Weapon damage", v.cyno_weapon, set("cyno_weapon"), { numeric: false })}
          ${input(id("weaponry"), "Weaponry skill %", v.weaponry_skill, set("weaponry_skill"), { placeholder: "none" })}`}
      </div>
      <button type="submit" class="md-button md-button--primary rollbook-tool__go">Add to the encounter</button>
    </form>
  </details>`;
}
