// <rollbook-opencore-initiative>: individual initiative, 1d20 + DEX modifier + the weapon's speed
// factor + the armor's penalty (+20 after Bide), as "opencore initiative" rules it; and
// <rollbook-opencore-group-initiative>: each side's 1d6, ties rolled again; and
// <rollbook-opencore-party-initiative>: several characters in the order of their individual
// initiative, as "opencore party-initiative" rules it (ties roll 1d20 again); and
// <rollbook-opencore-move>: how many movement actions (rounds) a distance takes ("opencore move").

import { define, given, html, lines, nothing, RollbookTool, tableRows, typed, verdict } from "../tool.js";
import { kept } from "../session.js";

class OpenCoreInitiative extends RollbookTool {
  static tool = "opencore-initiative";
  static page = "tools/combat/";
  static action = "Roll initiative";

  connected() {
    this.weapons = [];
    this.armor = [];
    super.connected();
    Promise.all([tableRows("opencore.weapons"), tableRows("opencore.armor")]).then(([weapons, armor]) => {
      this.weapons = weapons;
      this.armor = armor;
      this.update();
    });
  }

  fields() {
    const dex = kept.active?.scores.DEX;
    return [
      { name: "dex", label: "DEX", kind: "int", initial: dex === undefined ? "" : String(dex) },
      { name: "roll", label: "d20 rolled", kind: "int", help: "blank: rolled here" },
      { name: "weapon", label: "Weapon (speed factor)", kind: "choice", wide: true,
        options: [{ value: "", label: "None" }, ...this.weapons.map((w) => ({ value: w.weapon, label: `${w.weapon} (+${w.speed})` }))] },
      { name: "armor", label: "Armor (initiative penalty)", kind: "choice", wide: true,
        options: [{ value: "", label: "None" }, ...this.armor.map((a) => ({ value: a.armor, label: `${a.armor} (${a.initiative_penalty})` }))] },
      { name: "bide", label: "Used Bide last round (+20)", kind: "bool" },
    ];
  }

  request(values, seed) {
    return { command: "opencore initiative", args: given({
      dex: typed(values.dex), roll: typed(values.roll), weapon: values.weapon || undefined, armor: values.armor || undefined,
      bide: values.bide || undefined, seed,
    }) };
  }

  details(result) {
    return html`${verdict("Initiative", result.total)}${zeroNotes(result.zero_scores)}`;
  }

  kept(result) {
    return { label: "OpenCore initiative", total: result.total };
  }
}

class OpenCoreGroupInitiative extends RollbookTool {
  static tool = "opencore-group-initiative";
  static page = "tools/combat/";
  static action = "Roll group initiative";

  fields() {
    return [];
  }

  request(values, seed) {
    return { command: "opencore group-initiative", args: { seed } };
  }

  details(result) {
    const [first, second] = result.rolls.at(-1);
    return verdict(html`First side ${first}, second side ${second}`, result.first === "first" ? "First" : "Second", "side acts first");
  }

  kept(result) {
    const [first, second] = result.rolls.at(-1);
    return { label: `Group initiative: the ${result.first} side acts first`, total: result.first === "first" ? first : second };
  }
}

/** What a score of 0 does to the character, in the engine's words ({"DEX": "unconscious or immobile"}). */
function zeroNotes(zero) {
  const entries = Object.entries(zero ?? {});
  return entries.length ? html`<ul class="rollbook-facts">${entries.map(([code, consequence]) =>
    html`<li><strong>${code} 0</strong>: the character is ${consequence}.</li>`)}</ul>` : nothing;
}

class OpenCorePartyInitiative extends RollbookTool {
  static tool = "opencore-party-initiative";
  static page = "tools/combat/";
  static action = "Order the party";
  static folds = true;

  fields() {
    // the kept characters to start from: their names and DEX
    const party = kept.characters.map((c) => `name=${c.name.replaceAll(",", " ")},dex=${c.scores.DEX}`).join("\n");
    return [
      { name: "character", label: "Characters, one a line", kind: "lines", rows: 4, initial: party,
        placeholder: "name=Buck,dex=80,weapon=Sword\nname=Orc,dex=40,armor=Leather Armor,bide",
        help: "name= and dex=, and if they apply weapon=, armor=, bide, roll= (the d20 rolled)" },
    ];
  }

  request(values, seed) {
    return { command: "opencore party-initiative", args: { character: lines(values.character), seed } };
  }

  details(result) {
    const [first] = result.order;
    return html`
      ${verdict(`${first.name} acts first`, first.total, "initiative")}
      <ol class="rollbook-facts">${result.order.map((m) => html`<li><strong>${m.name}</strong>: ${m.total}
        (d20 ${m.roll}${m.tie_rolls.length ? html`; tie broken with ${m.tie_rolls.join(", ")}` : nothing})
        ${Object.entries(m.zero_scores).map(([code, consequence]) => html`<br>${code} 0: ${consequence}`)}</li>`)}</ol>`;
  }

  kept(result) {
    return { label: `Party initiative: ${result.order.map((m) => m.name).join(", ")}`, total: result.order[0].total };
  }
}

class OpenCoreMove extends RollbookTool {
  static tool = "opencore-move";
  static page = "tools/combat/";
  static action = "How long?";
  static rolls = false;

  fields() {
    return [
      { name: "feet", label: "Distance in feet", kind: "int" },
      { name: "actions", label: "or movement actions", kind: "int" },
    ];
  }

  request(values) {
    return { command: "opencore move", args: given({ feet: typed(values.feet), actions: typed(values.actions) }) };
  }

  details(result, values) {
    return typed(values.feet) !== undefined
      ? verdict(`${result.feet} feet`, result.actions, result.actions === 1 ? "action" : "actions")
      : verdict(`${result.actions} movement action${result.actions === 1 ? "" : "s"}`, result.feet, "feet");
  }
}

define("rollbook-opencore-initiative", OpenCoreInitiative);
define("rollbook-opencore-move", OpenCoreMove);
define("rollbook-opencore-party-initiative", OpenCorePartyInitiative);
define("rollbook-opencore-group-initiative", OpenCoreGroupInitiative);
