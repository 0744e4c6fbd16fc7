// <rollbook-encounter>: the encounter tracker of tools/encounter/. A fight is the engine's JSON
// (engine/rollbook/encounter/): every step (start, add, next, attack, damage, heal, effects, …)
// is one `encounter …` request with the current encounter, and the answer's encounter is the new
// state. The page computes no rule: it keeps the states and renders the answers.
//
// Kept in this browser with everything else (widgets/kept.js `encounter`): the state now, the
// states before it (Undo takes the newest back, up to MAX_UNDO), each combatant's armor and
// Toughness when added (the bars' full length) and, for a seeded encounter (?seed=N when it was
// started), the next step's seed: the same steps then give the same dice on any device.

import { ask, newSeed } from "../engine.js";
import { define, html, nothing, RollbookElement } from "../element.js";
import { KeptError, MAX_UNDO } from "../kept.js";
import { readQuery } from "../links.js";
import { kept, keepResult, SITE_ROOT } from "../session.js";
import { given, tableRows, typed } from "../tool.js";
import { scoresText } from "./inline-roll.js";
import { badges, bars, logView, RULES, START_CHOICES, statusLine, stepView } from "./encounter-view.js";

const PAGE = "tools/encounter/";
const CRITICAL_TYPES = ["slash", "impact", "puncture", "shrapnel", "burn"];
const EFFECTS = {
  opencore: ["stun", "unconscious", "bloodloss", "location", "stumble", "dropped-weapon", "note"],
  cyno: ["note"],
};
const LOCATIONS = ["damaged", "severely damaged", "broken", "severed", "destroyed"];
const DEFENSES = [["none", "No defense"], ["dodge", "Dodge"], ["blind-dodge", "Blind dodge"], ["parry", "Parry"]];

/** A number field's value as the engine takes it ("" left out, text sent as typed to be refused). */
const num = (value) => typed(value);
// Cyno's strike: the attacker's own weapon, or what Rockets and Missiles describe
// (a rocket is a shot: no dodge or parry; a volley takes no bonuses or penalties: the engine applies both)
const FIRED = [["weapon", "Its own weapon"], ["rocket", "A rocket (−2)"], ["volley", "A missile volley"]];

function startValues(rules = "opencore") {
  return { rules, ...Object.fromEntries(Object.values(START_CHOICES).flat().map((c) => [c.name, c.options[0][0]])) };
}

const ADD_BLANK = {
  from: "", name: "", side: "foes", hp: "", con: "", dex: "", str: "", attack_skill: "", defense_skill: "",
  toughness: "", weapon: "Hand to Hand", armor_name: "", reflex: "", coordination: "", stress: "", actions: "",
  dp: "", cyno_weapon: "1d6", weaponry_skill: "",
};

class EncounterTracker extends RollbookElement {
  connected() {
    this.status = new Map(); // id -> the engine's status for the state shown
    this.step = null; // the last step: {title, events}
    this.said = ""; // the polite live region's text
    this.problem = null; // the engine's (or the store's) refusal of the last step
    this.busy = false;
    this.ended = null; // after "End encounter": the function that brings it back
    this.start = startValues();
    this.add = { ...ADD_BLANK };
    this.edits = {}; // id -> the combatant's edit form values
    this.targets = {}; // attacker id -> chosen target id
    this.weapons = [];
    this.armors = [];
    const { values } = readQuery({ seed: "int" }, location.search);
    this.seed = values.seed ?? null; // ?seed=N: a seeded encounter (for a demonstration, a test)
    this.shown = null; // the encounter the status was asked for
    this.listen(kept.watch(() => this.#refresh()));
    this.#tables();
    this.#refresh();
  }

  async #tables() {
    const [weapons, armors] = await Promise.all([
      ask({ command: "table", args: { name: "opencore.weapons" } }),
      ask({ command: "table", args: { name: "opencore.armor" } }),
    ]);
    this.weapons = weapons.ok ? weapons.result.rows.map((r) => r.weapon) : [];
    this.armors = armors.ok ? armors.result.rows.map((r) => r.armor) : [];
    // Cyno: the strike charts' lines a player picks (the engine's rows, as on the combat helpers)
    const charts = await Promise.all([tableRows("cyno.strike.bonuses"), tableRows("cyno.strike.penalties")]);
    this.conditions = charts.flat().filter((row) => row.id);
    this.update();
  }

  /** The kept encounter changed (a step, an import, another tab): ask for its status once. */
  async #refresh() {
    const fight = kept.encounter;
    this.update();
    if (!fight || this.shown === fight.current) return;
    // Changed elsewhere (Undo, an import, another tab, a reload): the last step shown is not this one's.
    this.shown = fight.current;
    this.step = null;
    this.said = "";
    const answer = await ask({ command: "encounter show", args: { encounter: fight.current } });
    if (kept.encounter?.current !== fight.current) return;
    if (answer.ok) this.#statusFrom(answer.result.status);
    else this.problem = `The kept encounter was refused: ${answer.error.message}`;
    this.said ||= answer.ok ? answer.result.text : "";
    this.update();
  }

  #statusFrom(list) {
    this.status = new Map(list.map((s) => [s.id, s]));
  }

  // --- steps ----------------------------------------------------------------------------------

  /** One step: ask `command` with the current encounter; keep the answer's encounter and the
   *  previous one for Undo. Returns the answer's result, or null when refused (shown). */
  async #step(command, args, { rolls = false, title = null } = {}) {
    const fight = kept.encounter;
    if (this.busy || !fight) return null;
    this.busy = true;
    this.problem = null;
    this.update();
    const seed = rolls ? (fight.seed ?? newSeed()) : null;
    const answer = await ask({ command, args: { encounter: fight.current, ...given(args), ...(rolls ? { seed } : {}) } });
    this.busy = false;
    if (!answer.ok) {
      this.problem = answer.error.message;
      this.update();
      return null;
    }
    const result = answer.result;
    const full = { ...fight.full };
    for (const c of result.encounter.combatants) {
      if (!fight.current.combatants.some((o) => o.id === c.id) && result.encounter.rules === "opencore") {
        full[c.id] = { armor: c.armor, toughness: c.toughness };
      }
    }
    for (const id of Object.keys(full)) if (!result.encounter.combatants.some((c) => c.id === id)) delete full[id];
    this.shown = result.encounter; // its status is in this answer: no need to ask for it again
    if (!this.#keep({
      current: result.encounter,
      undo: [...fight.undo, fight.current].slice(-MAX_UNDO),
      full,
      seed: rolls && fight.seed !== null ? fight.seed + 1 : fight.seed,
      updated: new Date().toISOString(),
    })) return null;
    this.#statusFrom(result.status);
    this.step = { title: title ?? result.events[0]?.text.split("\n")[0] ?? "Done", events: result.events };
    this.said = `${this.step.title}. ${this.#turnWords(result.encounter)}`;
    this.update();
    return { result, seed };
  }

  #keep(fight) {
    try {
      kept.saveEncounter(fight);
      return true;
    } catch (error) {
      this.problem = error instanceof KeptError ? `Not kept: ${error.message}` : String(error);
      this.update();
      return false;
    }
  }

  #turnWords(encounter) {
    const now = this.#active(encounter);
    if (encounter.round === 0) return "Before the first round.";
    return now ? `Round ${encounter.round}: ${now.name}'s turn.` : `Round ${encounter.round}.`;
  }

  #active(encounter) {
    if (encounter.turn === null || encounter.turn === undefined) return null;
    const id = encounter.order[encounter.turn];
    return encounter.combatants.find((c) => c.id === id) ?? null;
  }

  async #begin(event) {
    event.preventDefault();
    if (this.busy) return;
    const choices = START_CHOICES[this.start.rules];
    const args = { rules: this.start.rules, ...Object.fromEntries(choices.map((c) => [c.name, this.start[c.name]])) };
    this.busy = true;
    this.update();
    const answer = await ask({ command: "encounter start", args });
    this.busy = false;
    if (!answer.ok) {
      this.problem = answer.error.message;
      return this.update();
    }
    this.ended = null;
    this.problem = null;
    this.shown = answer.result.encounter;
    if (this.#keep({ current: answer.result.encounter, undo: [], full: {}, seed: this.seed, updated: new Date().toISOString() })) {
      this.#statusFrom(answer.result.status);
      this.step = { title: "Encounter started", events: answer.result.events };
      this.said = "Encounter started. Add the combatants, then roll initiative.";
    }
    this.update();
  }

  async #addCombatant(event) {
    event.preventDefault();
    const fight = kept.encounter;
    const v = this.add;
    let name = v.name.trim();
    let score;
    if (fight.current.rules === "cyno") {
      score = given({ reflex: num(v.reflex), coordination: num(v.coordination), stress: num(v.stress), actions: num(v.actions), dp: num(v.dp), weaponry_skill: num(v.weaponry_skill) });
      const result = await this.#step("encounter add", { name, side: v.side.trim(), weapon: v.cyno_weapon.trim(), score }, { title: `${name || "A combatant"} joins` });
      if (result) this.add = { ...this.add, name: "" };
      return;
    }
    score = given({ hp: num(v.hp), con: num(v.con), dex: num(v.dex), str: num(v.str), attack_skill: num(v.attack_skill), defense_skill: num(v.defense_skill), toughness: num(v.toughness) });
    if (v.from) {
      const character = kept.characters.find((c) => c.id === v.from);
      if (!character) return;
      const sheet = await ask({ command: "opencore character", args: { scores: scoresText(character.scores), hp_roll: character.hp_roll } });
      if (!sheet.ok) {
        this.problem = sheet.error.message;
        return this.update();
      }
      name = character.name;
      score = { ...score, hp: sheet.result.hp, con: character.scores.CON, dex: character.scores.DEX, str: character.scores.STR };
    }
    const result = await this.#step("encounter add", {
      name, side: v.side.trim(), weapon: v.weapon || undefined, armor_name: v.armor_name || undefined, score,
    }, { title: `${name || "A combatant"} joins` });
    if (result) this.add = { ...this.add, name: "", from: "" };
    this.update();
  }

  async #next() {
    const fight = kept.encounter;
    const title = fight.current.round === 0 || this.#lastTurn(fight.current) ? "Initiative rolled" : null;
    const done = await this.#step("encounter next", {}, { rolls: true, title });
    if (done) {
      const turn = done.result.events.findLast((e) => e.kind === "turn");
      if (turn) {
        this.step = { ...this.step, title: turn.text };
        this.said = turn.text;
      }
      this.update();
      requestAnimationFrame(() => this.querySelector("[aria-current='true']")?.scrollIntoView({ block: "nearest" }));
    }
  }

  #lastTurn(encounter) {
    return encounter.turn !== null && encounter.turn === encounter.order.length - 1;
  }

  async #attack(attacker, target) {
    const fight = kept.encounter.current;
    const cyno = fight.rules === "cyno";
    const a = fight.combatants.find((c) => c.id === attacker);
    const t = fight.combatants.find((c) => c.id === target);
    const args = cyno
      ? this.#strikeArgs(attacker, target)
      : { attacker, target };
    const done = await this.#step(cyno ? "encounter strike" : "encounter attack", args,
      { rolls: true, title: `${a.name} ${cyno ? "strikes" : "attacks"} ${t.name}` });
    if (!done) return;
    // Into the roll log: what was rolled, the HP (DP) it cost the target, the engine's words.
    const lost = done.result.events.filter((e) => e.who === target).reduce((sum, e) => sum - (e.hp ?? e.dp ?? 0), 0);
    keepResult({
      label: `${this.step.title} (round ${fight.round})`,
      total: lost,
      text: done.result.text.slice(0, 2000),
      seed: done.seed,
      link: PAGE,
    });
  }

  /** A strike's declared defense and the options chosen under "Strike options". */
  #strikeArgs(attacker, target) {
    const e = this.#edit(attacker);
    // a volley takes no bonuses, penalties or aim (ruling cyno-missile-modifiers): those options are not shown for it
    const volley = e.fired === "volley";
    return { attacker, target, defense: e.defense ?? "none",
             condition: !volley && e.conditions.length ? e.conditions : undefined, aim: volley ? undefined : num(e.aim),
             ranged: (!volley && e.ranged) || undefined, unaware: e.unaware || undefined,
             rocket: e.fired === "rocket" || undefined, volley: volley ? num(e.volley) ?? 0 : undefined };
  }

  #strikeOptions(c) {
    const e = this.#edit(c.id);
    const id = (name) => `rollbook-enc-${c.id}-${name}`;
    const chosen = new Set(e.conditions);
    const toggle = (row, on) => {
      // a chart's group (large or small target, cover) is one line at most
      const rest = e.conditions.filter((x) => x !== row.id && !(on && row.group && this.conditions.find((r) => r.id === x)?.group === row.group));
      e.conditions = on ? [...rest, row.id] : rest;
      this.update();
    };
    const sign = (n) => (n > 0 ? `+${n}` : String(n));
    const volley = e.fired === "volley";
    const chosenCount = (volley ? 0 : e.conditions.length + (e.ranged ? 1 : 0) + (num(e.aim) ? 1 : 0))
      + (e.unaware ? 1 : 0) + (e.fired !== "weapon" ? 1 : 0);
    return html`<details class="rollbook-combatant__edit">
      <summary>Strike options${chosenCount ? ` (${chosenCount})` : ""}</summary>
      <div class="rollbook-fields">
        ${this.#select(id("fired"), "What is fired", e.fired, FIRED, (v) => { e.fired = v; this.update(); }, { wide: true })}
        ${volley ? this.#input(id("volley"), "Missiles in the volley", e.volley, (v) => { e.volley = v; this.update(); })
                 : this.#input(id("aim"), "Actions spent aiming", e.aim, (v) => { e.aim = v; this.update(); })}
      </div>
      ${volley ? nothing : html`<div class="rollbook-field rollbook-field--check"><label><input type="checkbox" id=${id("ranged")} .checked=${e.ranged}
        @change=${(ev) => { e.ranged = ev.target.checked; this.update(); }}> Not hand-to-hand (cannot be dodged)</label></div>`}
      <div class="rollbook-field rollbook-field--check"><label><input type="checkbox" id=${id("unaware")} .checked=${e.unaware}
        @change=${(ev) => { e.unaware = ev.target.checked; this.update(); }}> The target does not know of it (no dodge or parry)</label></div>
      ${volley ? nothing : html`<fieldset class="rollbook-field rollbook-checks"><legend>Bonuses and penalties</legend>
        ${(this.conditions ?? []).map((row) => html`<label><input type="checkbox" value=${row.id} .checked=${chosen.has(row.id)}
          @change=${(ev) => toggle(row, ev.target.checked)}> ${sign(row.modifier)}: ${row.condition}</label>`)}
      </fieldset>`}
    </details>`;
  }

  #undo() {
    const fight = kept.encounter;
    if (!fight?.undo.length || this.busy) return;
    const previous = fight.undo.at(-1);
    if (this.#keep({ ...fight, current: previous, undo: fight.undo.slice(0, -1), updated: new Date().toISOString() })) {
      this.problem = null;
      this.step = { title: "Undone", events: [] };
      this.said = `Undone. ${this.#turnWords(previous)}`;
    }
    this.update();
  }

  #end() {
    this.ended = kept.clearEncounter();
    this.step = null;
    this.problem = null;
    this.said = "Encounter ended.";
    this.update();
  }

  #bringBack() {
    this.ended?.();
    this.ended = null;
    this.said = "Encounter brought back.";
    this.update();
  }

  #edit(id) {
    return (this.edits[id] ??= { amount: "", critical_type: "", kind: "stun", rounds: "1", hp_per_round: "-1", location: "damaged", skill_penalty: "-10", defense_penalty: "-20", text: "", defense: "none", conditions: [], aim: "", ranged: false, unaware: false, fired: "weapon", volley: "" });
  }

  #editStep(c, action) {
    const e = this.#edit(c.id);
    const opencore = kept.encounter.current.rules === "opencore";
    if (action === "damage") {
      return this.#step("encounter damage", { target: c.id, amount: num(e.amount), critical_type: opencore ? e.critical_type || undefined : undefined }, { rolls: opencore, title: `${c.name} takes damage` });
    }
    if (action === "heal") return this.#step("encounter heal", { target: c.id, amount: num(e.amount) }, { title: `${c.name} is healed` });
    if (action === "stabilize") return this.#step("encounter stabilize", { target: c.id }, { title: `${c.name} is stabilized` });
    if (action === "remove") return this.#step("encounter remove", { who: c.id }, { title: `${c.name} leaves the encounter` });
    if (action === "effect") {
      const extra = {
        stun: { rounds: num(e.rounds) }, unconscious: { rounds: num(e.rounds) }, bloodloss: { hp_per_round: num(e.hp_per_round) },
        location: { location: e.location, skill_penalty: num(e.skill_penalty) }, stumble: { defense_penalty: num(e.defense_penalty) },
        "dropped-weapon": {}, note: { text: e.text.trim(), rounds: num(e.rounds) },
      }[e.kind];
      return this.#step("encounter effect", { who: c.id, kind: e.kind, ...extra }, { title: `${c.name}: ${e.kind} added` });
    }
    return null;
  }

  // --- the view -------------------------------------------------------------------------------

  view() {
    const fight = kept.encounter;
    return html`
      ${this.engineNotice()}
      <p class="rollbook-visually-hidden" role="status" aria-live="polite">${this.said}</p>
      ${kept.problem ? html`<p class="rollbook-problem">${kept.problem}</p>` : nothing}
      ${fight ? this.#fightView(fight) : this.#startView()}`;
  }

  #problemView() {
    return this.problem ? html`<p class="rollbook-problem" role="alert">${this.problem}</p>` : nothing;
  }

  #select(id, label, value, options, change, { ruling = null, wide = false } = {}) {
    return html`<div class=${wide ? "rollbook-field rollbook-field--wide" : "rollbook-field"}>
      <label for=${id}>${label}</label>
      <select id=${id} @change=${(e) => change(e.target.value)}>
        ${options.map(([v, text]) => html`<option value=${v} ?selected=${v === value}>${text}</option>`)}
      </select>
      ${ruling ? html`<a class="rollbook-field__help" href=${new URL(`rulings/#${ruling}`, SITE_ROOT).href}>Ruling ${ruling}</a>` : nothing}
    </div>`;
  }

  #input(id, label, value, change, { numeric = true, placeholder = nothing } = {}) {
    return html`<div class="rollbook-field">
      <label for=${id}>${label}</label>
      <input type="text" id=${id} .value=${value} autocomplete="off" spellcheck="false" placeholder=${placeholder}
        inputmode=${numeric ? "numeric" : nothing} @input=${(e) => change(e.target.value)}>
    </div>`;
  }

  #startView() {
    const s = this.start;
    const set = (name) => (value) => { this.start = name === "rules" ? { ...startValues(value) } : { ...s, [name]: value }; this.update(); };
    return html`
      ${this.ended ? html`<div class="rollbook-row"><p class="rollbook-done">Encounter ended.</p>
        <button type="button" class="md-button" @click=${() => this.#bringBack()}>Bring it back</button></div>` : nothing}
      <form class="rollbook-encounter__start" @submit=${(e) => this.#begin(e)}>
        <h2>Start an encounter</h2>
        ${this.seed !== null ? html`<p class="rollbook-answer__shared">Seeded (seed ${this.seed}): the same steps roll the same dice on any device.</p>` : nothing}
        <div class="rollbook-fields">
          ${this.#select("rollbook-enc-rules", "Rules", s.rules, RULES.map((r) => [r.value, r.label]), set("rules"), { wide: true })}
          ${START_CHOICES[s.rules].map((c) => this.#select(`rollbook-enc-${c.name}`, c.label, s[c.name], c.options, set(c.name), { ruling: c.ruling, wide: true }))}
        </div>
        ${this.#problemView()}
        <button type="submit" class="md-button md-button--primary rollbook-tool__go">Start the encounter</button>
      </form>`;
  }

  #fightView(fight) {
    const enc = fight.current;
    const active = this.#active(enc);
    const ordered = [...enc.order.map((id) => enc.combatants.find((c) => c.id === id)).filter(Boolean),
      ...enc.combatants.filter((c) => !enc.order.includes(c.id))];
    return html`
      <div class="rollbook-encounter__head">
        <h2 class="rollbook-encounter__now">${enc.round === 0 ? "Before the first round" : html`Round ${enc.round}${active ? html`: <span>${active.name}'s turn</span>` : nothing}`}</h2>
        <p class="rollbook-encounter__meta">${RULES.find((r) => r.value === enc.rules).label}${fight.seed !== null ? ` · seeded, next seed ${fight.seed}` : ""}</p>
      </div>
      ${this.#problemView()}
      <div aria-live="off" aria-busy=${this.busy ? "true" : "false"} class="rollbook-encounter__answer">${stepView(this.step)}</div>
      ${enc.combatants.length ? nothing : html`<p>No combatants yet: add them below, then roll initiative.</p>`}
      <ol class="rollbook-combatants" aria-label="Combatants in turn order">
        ${ordered.map((c) => this.#combatantView(fight, c, c === active))}
      </ol>
      ${this.#addView(enc)}
      ${logView(enc)}
      <details class="rollbook-encounter__more">
        <summary>Rulings and ending the encounter</summary>
        <p>${Object.entries(enc.rulings).map(([k, v]) => `${k.replaceAll("_", " ")}: ${v}`).join("; ")}${enc.rules === "opencore" ? `; ${enc.initiative} initiative` : ""}.</p>
        <button type="button" class="md-button" @click=${() => this.#end()}>End the encounter</button>
      </details>
      <div class="rollbook-encounter__bar">
        <button type="button" class="md-button rollbook-encounter__undo" ?disabled=${!fight.undo.length}
          @click=${() => this.#undo()}>Undo${fight.undo.length ? ` (${fight.undo.length})` : ""}</button>
        <button type="button" class="md-button md-button--primary rollbook-encounter__next" @click=${() => this.#next()}>
          ${enc.round === 0 ? "Roll initiative" : this.#lastTurn(enc) ? "End round, roll initiative" : "Next turn"}</button>
      </div>`;
  }

  #combatantView(fight, c, active) {
    const enc = fight.current;
    const status = this.status.get(c.id);
    const titleId = `rollbook-enc-${c.id}-name`;
    const down = status && ["dead", "unconscious", "down"].includes(status.state);
    return html`<li class=${`rollbook-combatant${active ? " rollbook-combatant--active" : ""}${down ? " rollbook-combatant--down" : ""}`}
        aria-current=${active ? "true" : "false"} aria-labelledby=${titleId} data-id=${c.id}>
      <h3 class="rollbook-combatant__name" id=${titleId}>${c.name}
        <span class="rollbook-combatant__side">${c.side} · ${c.id}${active ? " · acting" : ""}</span></h3>
      ${statusLine(enc, c, status)}
      ${bars(enc, c, fight.full[c.id])}
      ${badges(status)}
      ${active ? this.#actionsView(enc, c) : nothing}
      ${this.#editView(enc, c, status)}
    </li>`;
  }

  #actionsView(enc, c) {
    const others = enc.combatants.filter((o) => o.id !== c.id);
    if (!others.length) return nothing;
    const standing = (o) => !["dead", "down"].includes(this.status.get(o.id)?.state);
    const foes = others.filter((o) => o.side !== c.side && standing(o));
    const chosen = others.some((o) => o.id === this.targets[c.id]) ? this.targets[c.id] : (foes[0] ?? others[0]).id;
    const target = others.find((o) => o.id === chosen);
    const cyno = enc.rules === "cyno";
    const e = this.#edit(c.id);
    return html`<div class="rollbook-combatant__act">
      <div class="rollbook-fields">
        ${this.#select(`rollbook-enc-${c.id}-target`, "Target", chosen, others.map((o) => [o.id, `${o.name} (${o.side})`]), (v) => { this.targets[c.id] = v; this.update(); })}
        ${cyno ? this.#select(`rollbook-enc-${c.id}-defense`, "Target's defense", e.defense, DEFENSES, (v) => { e.defense = v; this.update(); }) : nothing}
      </div>
      ${cyno ? this.#strikeOptions(c) : nothing}
      <button type="button" class="md-button md-button--primary rollbook-encounter__attack"
        @click=${() => this.#attack(c.id, chosen)}>${cyno ? "Strike" : "Attack"} ${target.name}</button>
      ${cyno ? html`<div class="rollbook-row">
        <button type="button" class="md-button" @click=${() => this.#step("encounter hold", { who: c.id, after: chosen }, { rolls: true, title: `${c.name} holds back until ${target.name} moves` })}>Hold back until ${target.name} moves</button>
      </div>` : html`<div class="rollbook-row">
        <button type="button" class="md-button" @click=${() => this.#step("encounter action", { who: c.id, action: "defense" }, { title: `${c.name} takes the Defense action` })}>Defense action</button>
        <button type="button" class="md-button" @click=${() => this.#step("encounter action", { who: c.id, action: "bide" }, { title: `${c.name} bides` })}>Bide</button>
      </div>`}
    </div>`;
  }

  #editView(enc, c, status) {
    const e = this.#edit(c.id);
    const id = (name) => `rollbook-enc-${c.id}-${name}`;
    const set = (name) => (value) => { e[name] = value; this.update(); };
    const opencore = enc.rules === "opencore";
    const k = e.kind;
    const rounds = k === "stun" || k === "unconscious" || k === "note";
    return html`<details class="rollbook-combatant__edit">
      <summary>Edit ${c.name}</summary>
      <div class="rollbook-fields">
        ${this.#input(id("amount"), opencore ? "Damage or HP" : "Damage or DP", e.amount, set("amount"))}
        ${opencore ? this.#select(id("critical"), "Critical table", e.critical_type, [["", "Not chosen"], ...CRITICAL_TYPES.map((t) => [t, t])], set("critical_type")) : nothing}
      </div>
      <div class="rollbook-row">
        <button type="button" class="md-button" @click=${() => this.#editStep(c, "damage")}>Damage</button>
        <button type="button" class="md-button" @click=${() => this.#editStep(c, "heal")}>Heal</button>
        ${opencore && status?.bleeding ? html`<button type="button" class="md-button" @click=${() => this.#editStep(c, "stabilize")}>Stabilize</button>` : nothing}
        ${opencore ? nothing : html`<button type="button" class="md-button"
          @click=${() => this.#step("encounter surprise", { who: c.id }, { rolls: true, title: `${c.name}: the Surprise Chart` })}>Surprised? Roll the chart</button>`}
      </div>
      <div class="rollbook-fields">
        ${this.#select(id("kind"), "Effect", k, EFFECTS[enc.rules].map((x) => [x, x]), set("kind"))}
        ${rounds ? this.#input(id("rounds"), k === "note" ? "Rounds (blank: until ended)" : "Rounds", e.rounds, set("rounds")) : nothing}
        ${k === "bloodloss" ? this.#input(id("hp-per-round"), "HP a round", e.hp_per_round, set("hp_per_round")) : nothing}
        ${k === "location" ? this.#select(id("location"), "Location", e.location, LOCATIONS.map((x) => [x, x]), set("location")) : nothing}
        ${k === "location" ? this.#input(id("skill-penalty"), "Skill penalty", e.skill_penalty, set("skill_penalty")) : nothing}
        ${k === "stumble" ? this.#input(id("defense-penalty"), "Defense penalty", e.defense_penalty, set("defense_penalty")) : nothing}
        ${k === "note" ? this.#input(id("text"), "Note", e.text, set("text"), { numeric: false }) : nothing}
      </div>
      <button type="button" class="md-button" @click=${() => this.#editStep(c, "effect")}>Add the effect</button>
      ${c.effects.length ? html`<ul class="rollbook-combatant__effects" aria-label=${`End an effect of ${c.name}`}>
        ${c.effects.map((effect, index) => html`<li><button type="button" class="md-button"
          @click=${() => this.#step("encounter end-effect", { who: c.id, index }, { title: `${c.name}: ${effect.kind} ended` })}>End ${status?.effects[index] ?? effect.kind}</button></li>`)}
      </ul>` : nothing}
      <button type="button" class="md-button rollbook-combatant__remove" @click=${() => this.#editStep(c, "remove")}>Remove ${c.name}</button>
    </details>`;
  }

  #addView(enc) {
    const v = this.add;
    const set = (name) => (value) => { this.add = { ...this.add, [name]: value }; this.update(); };
    const id = (name) => `rollbook-enc-add-${name}`;
    const opencore = enc.rules === "opencore";
    const fromCharacter = opencore && v.from;
    return html`<details class="rollbook-encounter__add" ?open=${enc.combatants.length < 2}>
      <summary>Add a combatant</summary>
      <form @submit=${(e) => this.#addCombatant(e)}>
        <div class="rollbook-fields">
          ${opencore && kept.characters.length ? this.#select(id("from"), "From", v.from, [["", "Typed here"], ...kept.characters.map((c) => [c.id, `Kept: ${c.name}`])], set("from")) : nothing}
          ${fromCharacter ? nothing : this.#input(id("name"), "Name", v.name, set("name"), { numeric: false })}
          ${this.#input(id("side"), "Side", v.side, set("side"), { numeric: false })}
          ${opencore ? html`
            ${fromCharacter ? nothing : html`${this.#input(id("hp"), "HP", v.hp, set("hp"))}${this.#input(id("con"), "CON", v.con, set("con"))}
              ${this.#input(id("dex"), "DEX", v.dex, set("dex"))}${this.#input(id("str"), "STR", v.str, set("str"))}`}
            ${this.#input(id("attack"), "Attack skill", v.attack_skill, set("attack_skill"))}
            ${this.#input(id("defense"), "Defense skill", v.defense_skill, set("defense_skill"))}
            ${this.#input(id("toughness"), "Toughness", v.toughness, set("toughness"), { placeholder: "0" })}
            ${this.#select(id("weapon"), "Weapon", v.weapon, this.weapons.map((w) => [w, w]), set("weapon"))}
            ${this.#select(id("armor"), "Armor", v.armor_name, [["", "None"], ...this.armors.map((a) => [a, a])], set("armor_name"))}`
          : html`
            ${this.#input(id("reflex"), "Reflex", v.reflex, set("reflex"))}
            ${this.#input(id("coordination"), "Coordination", v.coordination, set("coordination"))}
            ${this.#input(id("stress"), "Stress", v.stress, set("stress"))}
            ${this.#input(id("actions"), "Actions", v.actions, set("actions"))}
            ${this.#input(id("dp"), "DP", v.dp, set("dp"))}
            ${this.#input(id("weapon-dice"), "Weapon damage", v.cyno_weapon, set("cyno_weapon"), { numeric: false })}
            ${this.#input(id("weaponry"), "Weaponry skill %", v.weaponry_skill, set("weaponry_skill"), { placeholder: "none" })}`}
        </div>
        <button type="submit" class="md-button md-button--primary rollbook-tool__go">Add to the encounter</button>
      </form>
    </details>`;
  }
}

define("rollbook-encounter", EncounterTracker);
