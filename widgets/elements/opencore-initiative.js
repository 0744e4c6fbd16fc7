// <rollbook-opencore-initiative>: individual initiative, 1d20 + DEX modifier + the weapon's speed
// factor + the armor's penalty (+20 after Bide), as "opencore initiative" rules it; and
// <rollbook-opencore-group-initiative>: each side's 1d6, ties rolled again; and
// <rollbook-opencore-party-initiative>: several characters in the order of their individual
// initiative, as "opencore party-initiative" rules it (ties roll 1d20 again): the kept characters
// are ticked, others typed one a line; and
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
    return [
      { name: "dex", label: "DEX", kind: "int", fromActive: (character) => character.scores.DEX },
      { name: "roll", label: "d20 rolled", kind: "int", help: "blank: rolled here", section: "Dice rolled at the table" },
      { name: "weapon", label: "Weapon (speed factor)", kind: "choice", wide: true,
        options: [{ value: "", label: "None" }, ...this.weapons.map((w) => ({ value: w.weapon, label: `${w.weapon} (+${w.speed})` }))] },
      { name: "armor", label: "Armor (initiative penalty)", kind: "choice", wide: true,
        options: [{ value: "", label: "None" }, ...this.armor.map((a) => ({ value: a.armor, label: `${a.armor} (${a.initiative_penalty})` }))] },
      { name: "bide", label: "Used Bide last round (+20)", kind: "bool", section: "Bide" },
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

/** A kept character as the party-initiative line it stands for, with ";" for ",": a tick's value
 *  (ticks are joined with ","), so a link holds the line itself and works on any device. */
function partyLine(character) {
  return `name=${character.name.replace(/[,;=]/g, " ")};dex=${character.scores.DEX}`;
}

class OpenCorePartyInitiative extends RollbookTool {
  static tool = "opencore-party-initiative";
  static page = "tools/combat/";
  static action = "Order the party";
  static folds = true;

  fields() {
    return [
      { name: "party", label: "Kept characters", kind: "checks",
        help: kept.characters.length ? "tap the ones in the fight" : "none kept yet: characters kept on the Character page are ticked here",
        options: kept.characters.map((c) => ({ value: partyLine(c), label: `${c.name} (DEX ${c.scores.DEX})` })) },
      { name: "character", label: "Others, one a line", kind: "lines", rows: 3,
        placeholder: "name=Orc,dex=40,armor=Leather Armor",
        help: "as name=Orc,dex=40 and, if they apply, weapon=Sword, armor=Leather Armor, bide, roll=12 (the d20 rolled)" },
    ];
  }

  request(values, seed) {
    const party = String(values.party).split(",").filter(Boolean).map((line) => line.replaceAll(";", ","));
    return { command: "opencore party-initiative", args: { character: [...party, ...lines(values.character)], seed } };
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
