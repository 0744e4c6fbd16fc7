// <rollbook-opencore-attack>: OpenCore's opposed attack, start to finish, as the engine rules it.
// "opencore attack" rolls 1d100 + skills, fumbles on the Fumble Chart and the weapon's damage;
// given the defender's HP and CON, "opencore damage" takes it through armor and Toughness; when
// that calls for a critical, "opencore crit" rolls it on the weapon's critical table.

import { ask } from "../engine.js";
import { define, given, html, nothing, RollbookTool, tableRows, typed, verdict } from "../tool.js";
import { kept } from "../session.js";

const NO_WEAPON = { value: "", label: "None (no damage roll)" };

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
    const strength = kept.active?.scores.STR;
    return [
      { name: "attack_skill", label: "Attack skill", kind: "int" },
      { name: "defense_skill", label: "Defense skill", kind: "int" },
      { name: "attack_bonus", label: "Attack bonus", kind: "int", initial: "0" },
      { name: "defense_bonus", label: "Defense bonus", kind: "int", initial: "0" },
      { name: "defending", label: "Defender took the Defense action (skill doubled)", kind: "bool" },
      { name: "stunned", label: "Defender is stunned (−50 to defense)", kind: "bool" },
      { name: "weapon", label: "Weapon", kind: "choice", wide: true,
        options: [NO_WEAPON, ...this.weapons.map((w) => ({ value: w.weapon, label: w.weapon }))] },
      { name: "mode", label: "Mode", kind: "choice", hidden: (v) => this.#modes(v).length === 0,
        options: this.#modes(this.values ?? {}).map((m) => ({ value: m.mode, label: m.mode })) },
      { name: "strength", label: "Attacker's STR", kind: "int", blame: ["adds str"], help: "for +STR weapons",
        initial: strength === undefined ? "" : String(strength) },
      { name: "fortitude", label: "Defender's Fortitude", kind: "int", initial: "0" },
      { name: "armor", label: "Defender's armor left", kind: "int", initial: "0" },
      { name: "toughness", label: "Toughness left", kind: "int", initial: "0" },
      { name: "hp", label: "Defender's HP", kind: "int", help: "with CON: damage is applied", blame: ["health points"] },
      { name: "con", label: "Defender's CON", kind: "int" },
      { name: "attack_roll", label: "Attack d100", kind: "int", help: "blank: rolled here" },
      { name: "defense_roll", label: "Defense d100", kind: "int", help: "blank: rolled here" },
    ];
  }

  changed(name) {
    if (name === "weapon") this.values = { ...this.values, mode: this.#modes(this.values)[0]?.mode ?? "" };
  }

  async resolve(values, seed) {
    const weapon = values.weapon || undefined;
    const attack = await ask({ command: "opencore attack", args: given({
      attack_skill: typed(values.attack_skill), defense_skill: typed(values.defense_skill),
      attack_bonus: typed(values.attack_bonus), defense_bonus: typed(values.defense_bonus),
      defending: values.defending || undefined, stunned: values.stunned || undefined,
      attack_roll: typed(values.attack_roll), defense_roll: typed(values.defense_roll),
      weapon, mode: weapon && values.mode ? values.mode : undefined,
      strength: weapon ? typed(values.strength) : undefined, fortitude: weapon ? typed(values.fortitude) : undefined, seed,
    }) });
    const hitFor = attack.ok ? attack.result.damage : null;
    if (!hitFor || (typed(values.hp) === undefined && typed(values.con) === undefined)) return attack;
    const applied = await ask({ command: "opencore damage", args: given({
      amount: hitFor, hp: typed(values.hp), con: typed(values.con), armor: typed(values.armor), toughness: typed(values.toughness),
    }) });
    if (!applied.ok) return applied;
    let critical = null;
    if (applied.result.critical && attack.result.critical_table) {
      // its own random stream: the same seed would roll the attack's d100 again
      critical = await ask({ command: "opencore crit", args: {
        type: attack.result.critical_table, attack_roll: attack.result.attack_roll, toughness: applied.result.toughness, seed: seed + 1,
      } });
      if (!critical.ok) return critical;
    }
    const text = [attack.result.text, applied.result.text, critical?.result.text].filter(Boolean).join("\n");
    return { ok: true, result: { ...attack.result, applied: applied.result, critical: critical?.result ?? null, text } };
  }

  details(result) {
    const fumbles = Object.entries(result.fumbles);
    return html`
      ${verdict(`Attack ${result.attack_total} vs defense ${result.defense_total}`,
        result.damage ?? (result.hit ? "Hit" : "Miss"), result.damage === null ? nothing : "damage")}
      <ul class="rollbook-facts">
        <li>Attack: d100 ${result.attack_roll} → ${result.attack_total}; defense: d100 ${result.defense_roll} → ${result.defense_total}.
          <strong>${result.hit ? "Hit" : "Miss"}</strong> (${result.reason}).</li>
        ${fumbles.map(([side, f]) => html`<li><strong>Fumble (${side})</strong>: Fumble Chart ${f.roll}: ${f.effect}</li>`)}
        ${result.self_damage !== null ? html`<li>The attacker injures himself: ${result.self_damage} damage.</li>` : nothing}
        ${result.damage !== null ? html`<li>Damage ${result.damage_expression}: <strong>${result.damage}</strong>.</li>` : nothing}
        ${result.applied ? html`<li>${result.applied.text}.</li>` : nothing}
        ${result.critical ? html`<li><strong>Critical (${result.critical.type})</strong>: roll ${result.critical.roll} (${result.critical.row}): ${result.critical.effect}</li>` : nothing}
      </ul>`;
  }

  kept(result) {
    const outcome = result.hit ? (result.damage !== null ? `hit, ${result.damage} damage` : "hit") : "miss";
    return { label: `Attack ${result.attack_total} vs ${result.defense_total}: ${outcome}${result.critical ? `, ${result.critical.type} critical` : ""}`,
      total: result.damage ?? result.attack_total };
  }
}

define("rollbook-opencore-attack", OpenCoreAttack);
