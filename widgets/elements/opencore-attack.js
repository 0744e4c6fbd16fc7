// <rollbook-opencore-attack>: OpenCore's opposed attack, start to finish, as "opencore attack"
// rules it in one answer: 1d100 + skills (or a Power: touch-based with the Hand-to-Hand skill, a
// Physical Power's score as the skill, a Mental Power that cannot be blocked), fumbles on the
// Fumble Chart, the damage; given the defender's HP and CON, the wound through an Armor or
// Shielding Power, armor and Toughness (or straight to HP for a substance flaw) and the critical
// it calls for, with its effects.

import { choiceOptions } from "../choices.js";
import { COMMANDS, CRITICAL_TYPES } from "../facts.js";
import { define, given, html, nothing, RollbookTool, tableRows, typed, verdict } from "../tool.js";
import { POWER_WORDS } from "./power-words.js";
import { taken } from "./wound-words.js";

// A weapon, or each kind of Power "opencore attack" takes, in words.
const ATTACKS_WITH = [{ value: "", label: "A weapon" }, ...choiceOptions(COMMANDS["opencore attack"].power.choices, POWER_WORDS)];
const TABLES = CRITICAL_TYPES.map((critical) => critical.type);
const POWER = "A Power";
const BONUSES = "Bonuses and conditions";
const WOUND = "The defender's wound";
const DICE = "Dice rolled at the table";

class OpenCoreAttack extends RollbookTool {
  static tool = "opencore-attack";
  static page = "tools/combat/";
  static folds = true;
  static action = "Attack";

  connected() {
    this.weapons = [];
    super.connected();
    tableRows("opencore.weapons").then((rows) => {
      this.weapons = rows;
      this.update();
    });
  }

  #modes(values) {
    return this.weapons.find((w) => w.weapon === values.weapon)?.modes ?? [];
  }

  fields() {
    const power = (v) => v.power ?? "";
    const scored = (v) => power(v) === "physical" || power(v) === "mental";
    const mental = (v) => power(v) === "mental";
    const armed = (v) => !power(v) && Boolean(v.weapon);
    return [
      { name: "power", label: "Attack with", kind: "choice", wide: true, options: ATTACKS_WITH, section: POWER },
      { name: "attack_skill", label: power(this.values ?? {}) === "touch" ? "Hand-to-Hand skill" : "Attack skill", kind: "int",
        hidden: scored },
      { name: "power_score", label: "Power's score", kind: "int", hidden: (v) => !scored(v), section: POWER },
      { name: "defense_skill", label: "Defense skill", kind: "int", hidden: mental },
      { name: "attack_bonus", label: "Attack bonus", kind: "int", initial: "0", hidden: mental, section: BONUSES },
      { name: "defense_bonus", label: "Defense bonus", kind: "int", initial: "0", hidden: mental, section: BONUSES },
      { name: "power_damage", label: "Power's damage", kind: "int", help: "the GM's number (0 for none)", hidden: (v) => !power(v), section: POWER },
      { name: "resistance", label: "Defender's Magic Resistance", kind: "int", initial: "0", hidden: (v) => !mental(v), section: POWER },
      { name: "weapon", label: "Weapon", kind: "choice", wide: true, hidden: power,
        options: [{ value: "", label: "None (no damage roll)" }, ...this.weapons.map((w) => ({ value: w.weapon, label: w.weapon }))] },
      { name: "mode", label: "Mode", kind: "choice", hidden: (v) => Boolean(power(v)) || this.#modes(v).length === 0,
        options: this.#modes(this.values ?? {}).map((m) => ({ value: m.mode, label: m.mode })) },
      { name: "damage_bonus", label: "Better weapon's bonus", kind: "int", initial: "0", help: "to its damage; the GM's number",
        hidden: (v) => !armed(v), section: BONUSES },
      { name: "strength", label: "Attacker's STR", kind: "int", help: "for +STR weapons and touch Powers",
        fromActive: (character) => character.scores.STR, hidden: scored },
      { name: "defending", label: "Defender took the Defense action (skill doubled)", kind: "bool", hidden: mental, section: BONUSES },
      { name: "stunned", label: "Defender is stunned (−50 to defense)", kind: "bool", hidden: mental, section: BONUSES },
      { name: "unconscious", label: "Defender is unconscious (no defense roll)", kind: "bool", hidden: mental, section: BONUSES },
      { name: "attacker_stunned", label: "Attacker is stunned", kind: "bool", section: BONUSES },
      { name: "fortitude", label: "Defender's Fortitude", kind: "int", initial: "0", section: WOUND, hidden: scored,
        help: "damage dice removed" },
      { name: "hp", label: "Defender's HP", kind: "int", help: "with CON: the wound is worked out", section: WOUND },
      { name: "con", label: "Defender's CON", kind: "int", section: WOUND },
      { name: "armor", label: "Armor left", kind: "int", initial: "0", section: WOUND },
      { name: "toughness", label: "Toughness left", kind: "int", initial: "0", section: WOUND },
      { name: "power_protection", label: "Armor or Shielding Power stops", kind: "int", initial: "0", section: WOUND,
        help: "before armor; the GM's number" },
      { name: "substance_flaw", label: "Substance flaw against this (straight to HP)", kind: "bool", section: WOUND },
      { name: "critical_type", label: "Critical table", kind: "choice", section: WOUND,
        options: [{ value: "", label: "The weapon's" }, ...TABLES.map((t) => ({ value: t, label: t }))] },
      { name: "critical_bonus", label: "Critical bonus", kind: "int", initial: "0", section: WOUND, help: "a weapon's or Power's" },
      { name: "attack_roll", label: "Attack d100", kind: "int", help: "blank: rolled here", section: DICE, hidden: mental },
      { name: "defense_roll", label: "Defense d100", kind: "int", help: "blank: rolled here", section: DICE, hidden: mental },
      { name: "critical_roll", label: "Critical d100", kind: "int", help: "blank: rolled when due", section: DICE },
      { name: "damage_roll", label: "Damage roll", kind: "int", section: DICE, hidden: (v) => !armed(v),
        help: "the dice's total; blank: rolled here (a thrown weapon: its own damage)" },
      { name: "attacker_fumble_roll", label: "Attacker's Fumble Chart d100", kind: "int", help: "blank: rolled when due",
        section: DICE, hidden: mental },
      { name: "defender_fumble_roll", label: "Defender's Fumble Chart d100", kind: "int", help: "blank: rolled when due",
        section: DICE, hidden: mental },
    ];
  }

  changed(name) {
    if (name === "weapon") this.values = { ...this.values, mode: this.#modes(this.values)[0]?.mode ?? "" };
  }

  request(values, seed) {
    // Only the fields shown are sent (a field hidden for this kind of attack is not part of it).
    const shown = new Set(this.fields().filter((f) => !f.hidden?.(values)).map((f) => f.name));
    const int = (name) => (shown.has(name) ? typed(values[name]) : undefined);
    const flag = (name) => (shown.has(name) && values[name]) || undefined;
    const text = (name) => (shown.has(name) && values[name]) || undefined;
    const weapon = text("weapon");
    return { command: "opencore attack", args: given({
      power: text("power"), attack_skill: int("attack_skill"), power_score: int("power_score"), power_damage: int("power_damage"),
      defense_skill: int("defense_skill"), attack_bonus: int("attack_bonus"), defense_bonus: int("defense_bonus"),
      resistance: int("resistance"), weapon, mode: weapon ? text("mode") : undefined,
      strength: weapon || values.power === "touch" ? int("strength") : undefined,
      defending: flag("defending"), stunned: flag("stunned"), unconscious: flag("unconscious"), attacker_stunned: flag("attacker_stunned"),
      fortitude: weapon || values.power === "touch" ? int("fortitude") : undefined,
      hp: int("hp"), con: int("con"), armor: int("armor"), toughness: int("toughness"), power_protection: int("power_protection"),
      substance_flaw: flag("substance_flaw"), critical_type: text("critical_type"), critical_bonus: int("critical_bonus"),
      attack_roll: int("attack_roll"), defense_roll: int("defense_roll"), critical_roll: int("critical_roll"),
      damage_roll: int("damage_roll"), damage_bonus: int("damage_bonus"),
      attacker_fumble_roll: int("attacker_fumble_roll"), defender_fumble_roll: int("defender_fumble_roll"), seed,
    }) };
  }

  details(result) {
    const fumbles = Object.entries(result.fumbles);
    const wound = result.wound;
    const heading = result.attack_total === null
      ? `Mental Power: effective score ${result.effective_power}`
      : `Attack ${result.attack_total} vs ${result.defense_total === null ? "no defense" : `defense ${result.defense_total}`}`;
    return html`
      ${verdict(heading, result.damage ?? (result.hit ? "Hit" : "Miss"), result.damage === null ? nothing : "damage")}
      <ul class="rollbook-facts">
        ${result.attack_roll === null ? nothing : html`<li>Attack: d100 ${result.attack_roll} + skill ${result.combat_skill} → ${result.attack_total};
          ${result.defense_roll === null ? "no defense roll" : html`defense: d100 ${result.defense_roll} → ${result.defense_total}`}</li>`}
        <li><strong>${result.hit ? "Hit" : "Miss"}</strong> (${result.reason})</li>
        ${fumbles.map(([side, f]) => html`<li><strong>Fumble (${side})</strong>: Fumble Chart ${f.roll}: ${f.effect}</li>`)}
        ${result.self_damage !== null ? html`<li>The attacker injures himself: ${result.self_damage} damage</li>` : nothing}
        ${result.damage !== null ? html`<li>Damage${result.damage_expression ? ` ${result.damage_expression}` : ""}: <strong>${result.damage}</strong></li>` : nothing}
        ${wound ? html`
          <li>${wound.substance_flaw ? "Substance flaw: straight to HP. " : ""}${wound.to_power ? `Power stops ${wound.to_power}, ` : ""}Armor ${taken(wound.to_armor, wound.armor)},
            Toughness ${taken(wound.to_toughness, wound.toughness)}, HP ${wound.to_hp ? `−${wound.to_hp}` : "none lost"}</li>
          ${wound.critical_hit ? html`<li><strong>Critical (${wound.critical_hit.type})</strong>: roll ${wound.critical_hit.roll} (${wound.critical_hit.row}): ${wound.critical_hit.effect}</li>` : nothing}
          <li>The defender: <strong>${wound.hp} HP, ${wound.state}</strong>${wound.bleeding ? ", bleeding" : ""}</li>` : nothing}
      </ul>`;
  }

  kept(result) {
    const outcome = result.hit ? (result.damage !== null ? `hit, ${result.damage} damage` : "hit") : "miss";
    const critical = result.wound?.critical_hit ? `, ${result.wound.critical_hit.type} critical` : "";
    const head = result.attack_total === null ? "Mental Power" : `Attack ${result.attack_total} vs ${result.defense_total ?? "no defense"}`;
    return { label: `${head}: ${outcome}${critical}`, total: result.damage ?? result.attack_total ?? result.effective_power };
  }
}

define("rollbook-opencore-attack", OpenCoreAttack);
