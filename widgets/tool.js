// The base of the check and combat helpers: a form of fields, one engine command (or a short
// chain of them) with a fresh seed, and the answer under the form, the biggest thing on screen.
// A subclass says which fields it has, what it asks the engine and how the answer looks; this
// class does the rest the same way for every helper:
//
// - every field has a visible label (its accessible name); numbers are typed with the numeric
//   keyboard and sent as typed, so a wrong one is refused by the engine; its message is shown
//   under the field its `fields` name, after the field's label, the field marked and focused
//   (or above the button, in view, when it names none; see field-problem.js);
// - Enter or the main button asks; a result is kept in the roll log with a link (the page, the
//   inputs and the seed) that shows the very same result on any device, without logging it again;
// - several helpers share a page: a link says which one it is for (?tool=…), and the page opens
//   on its answer;
// - the form shows what most rolls need; the fields with a `section` fold away under one "More
//   options" control, grouped by section (a long form stays short on a phone); it opens by itself
//   when a link fills one of them or the engine's error names one;
// - a field with `fromActive(character)` starts with the active character's value (kept.js) and
//   says whose it is; it follows a change of active character until the reader types over it;
// - a field with `remember: true` starts with what the helper was last rolled with on this device
//   (read from the kept roll log's newest entry for it), so a check again after a reload is one tap.
//
// A field is {name, label, kind, …}; `name` is the engine's argument it fills, `args` the other
// arguments it answers for (an entry "command arg": only in that command's errors, for a chain).

import { ask, newSeed } from "./engine.js";
import { define, html, nothing, RollbookElement } from "./element.js";
import { fieldInError, labelled, revealProblem } from "./field-problem.js";
import { fittingLink, readQuery } from "./links.js";
import { kept, keepResult, SITE_ROOT } from "./session.js";
import { breakdown } from "./elements/dice.js";

export { define, html, nothing };

// How a field is written in a share link (see links.js).
const LINKED = { int: "text", text: "text", choice: "text", bool: "bool", checks: "text", lines: "text" };

/** The lines of a "lines" field (one entry a line), blank ones left out. */
export function lines(value) {
  return String(value ?? "").split("\n").map((line) => line.trim()).filter(Boolean);
}

/** A typed number as the engine takes it: a whole number when it is one, else the text itself
 *  (the engine then says what is wrong with it); blank is left out. */
export function typed(value) {
  const text = String(value ?? "").trim();
  if (text === "") return undefined;
  return /^[+-]?\d{1,15}$/.test(text) ? Number(text) : text;
}

/** args without the undefined entries (fields left blank). */
export function given(args) {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
}

/** Ask the engine for a rule table's rows (for pickers and checkboxes built from its data). */
export async function tableRows(name) {
  const answer = await ask({ command: "table", args: { name } });
  return answer.ok ? answer.result.rows : [];
}

/** Whether `value`, read back from a kept link, is one `field` takes (a whole number for a
 *  number, one of its options for a choice, short text); anything else is not remembered. */
function takes(field, value) {
  if (field.kind === "int") return typeof value === "string" && /^[+-]?\d{1,15}$/.test(value.trim());
  if (field.kind === "choice") return field.options.some((option) => option.value === value);
  if (field.kind === "bool") return typeof value === "boolean";
  return typeof value === "string" && value.length <= 100 && !/[\u0000-\u001f]/.test(value);
}

/**
 * What the helper `tool` was last rolled with on this device: the fields marked `remember`, from
 * its newest entry in the kept roll log (the inputs are in that entry's link, so nothing is kept
 * twice, as the roller reads its last expression from the log). The link is read back as
 * untrusted text (links.js), and a value the field does not take is left out.
 */
export function remembered(tool, fields, log) {
  const kept = fields.filter((f) => f.remember);
  if (!kept.length) return {};
  for (let i = log.length - 1; i >= 0; i--) {
    const link = log[i].link;
    const at = typeof link === "string" ? link.indexOf("?") : -1;
    if (at < 0) continue;
    const query = link.slice(at);
    if (new URLSearchParams(query).get("tool") !== tool) continue;
    const { values } = readQuery(Object.fromEntries(kept.map((f) => [f.name, LINKED[f.kind]])), query);
    return Object.fromEntries(kept.filter((f) => f.name in values && takes(f, values[f.name])).map((f) => [f.name, values[f.name]]));
  }
  return {};
}

export class RollbookTool extends RollbookElement {
  // A subclass sets: static tool ("codex-check", the link's ?tool=), static page ("tools/checks/"),
  // static action (the button: "Roll the check"), and implements fields(), request(values, seed)
  // (or resolve(values, seed) for a chain of requests), details(result) and kept(result, values);
  // a helper that rolls no dice sets static rolls = false (no seed, nothing logged); one whose
  // details() already spell the result out sets static folds = true (the engine's text folds away).
  static rolls = true;
  static folds = false;

  connected() {
    const fields = this.fields();
    this.values = this.values ?? { ...Object.fromEntries(fields.map((f) => [f.name, f.initial ?? (f.kind === "bool" ? false : "")])),
      ...remembered(this.constructor.tool, fields, kept.log) };
    this.answer = null; // the engine's response for `asked`
    this.asked = null; // {values, seed, shared}
    this.busy = false;
    this.linkProblems = [];
    this.moreOpen = false; // whether the reader opened "More options"
    this.prefilled = {}; // field -> {value, who}: what the active character gave it
    this.#prefill();
    this.listen(kept.watch(() => this.#prefill()));
    const schema = { tool: "text", seed: "int", ...Object.fromEntries(fields.map((f) => [f.name, LINKED[f.kind]])) };
    const labels = Object.fromEntries(fields.map((f) => [f.name, f.hidden ? "" : f.label]));
    const { values, problems } = readQuery(schema, location.search, labels);
    if (values.tool === this.constructor.tool) {
      this.linkProblems = problems;
      const { tool, seed, ...inputs } = values;
      Object.assign(this.values, inputs);
      if (fields.some((f) => f.section && (this.values[f.name] ?? "") !== (f.initial ?? (f.kind === "bool" ? false : "")))) this.moreOpen = true;
      // shown, never logged: the log grows only when the player rolls (a link without a seed
      // rolls new dice, and says nothing of "the same dice" as elsewhere)
      this.run({ seed: seed ?? newSeed(), shared: true, linked: true, sameDice: seed !== undefined });
    }
  }

  /** The active character's values into the fields that take one, unless the reader typed over
   *  what it gave (or the field holds something else). */
  #prefill() {
    const character = kept.active;
    for (const f of this.fields()) {
      if (!f.fromActive) continue;
      const before = this.prefilled[f.name];
      const value = this.values[f.name] ?? "";
      if (value === "" ? before : value !== before?.value) continue; // the reader's own value, or cleared
      const given = character ? f.fromActive(character) : undefined;
      if (given === undefined) {
        delete this.prefilled[f.name];
        if (before) this.values = { ...this.values, [f.name]: "" };
      } else {
        this.prefilled[f.name] = { value: String(given), who: character.name };
        this.values = { ...this.values, [f.name]: String(given) };
      }
    }
    this.update();
  }

  /** The field, saying whose value it holds while it holds the active character's. */
  #withOwner(field) {
    const from = this.prefilled[field.name];
    if (!from || this.values[field.name] !== from.value) return field;
    return { ...field, help: `${from.who}'s${field.help ? `; ${field.help}` : ""}` };
  }

  /** The link (the tool, its fields and the seed) for `values` and `seed`; null when they do not
   *  fit in one (a long name, many lines: links.js fittingLink), and then none is offered. */
  link(values, seed) {
    const fields = this.fields();
    const schema = { tool: "text", ...Object.fromEntries(fields.map((f) => [f.name, LINKED[f.kind]])), seed: "int" };
    const state = { tool: this.constructor.tool, ...values, seed };
    for (const f of fields) if (f.kind === "bool" && !values[f.name]) state[f.name] = null; // off: left out
    return fittingLink(SITE_ROOT, this.constructor.page, schema, state);
  }

  /** The engine's answer for these inputs: one request by default; a subclass may chain several. */
  resolve(values, seed) {
    return ask(this.request(values, seed));
  }

  /** Ask with the current inputs; `shared`: shown, not logged; `linked`: the inputs came from a
   *  link; `sameDice`: with the seed it carried (the very dice rolled where it came from). Once
   *  per tap: a second tap before the answer is shown asks nothing more (RollbookElement.once). */
  run(options) {
    return this.once(() => this.#run(options));
  }

  async #run({ seed = newSeed(), shared = false, linked = false, sameDice = shared } = {}) {
    const values = { ...this.values };
    if (!this.constructor.rolls) seed = null;
    this.busy = true;
    this.update();
    const answer = await this.resolve(values, seed);
    this.busy = false;
    this.answer = answer;
    this.asked = { values, seed, shared, sameDice };
    if (answer.ok && !shared && seed !== null) {
      const { label, total, total_text } = this.kept(answer.result, values);
      const link = this.link(values, seed);
      keepResult({ label, total, total_text, text: answer.result.text, seed, link: link === null ? null : link.slice(SITE_ROOT.length) });
    }
    this.update();
    requestAnimationFrame(() => this.#reveal(linked));
  }

  /** After a link (the page opened on this helper): the main button and the answer under it on
   *  screen. After a tap: the answer wholly on screen, the page scrolled no more than that takes
   *  (RollbookElement.showAnswer). After an error, focus and view go to the field in error (or
   *  the message above the button). */
  #reveal(linked) {
    if (this.answer && !this.answer.ok) {
      revealProblem(this, ".rollbook-tool__form > .rollbook-problem");
      return;
    }
    if (linked) this.querySelector(".rollbook-tool__go")?.scrollIntoView({ block: "start" });
    else this.revealAnswer();
  }

  change(name, value) {
    this.values = { ...this.values, [name]: value };
    this.changed?.(name);
    this.update();
  }

  /** The shown field the engine's error is about (its `fields`), if any. */
  blamed() {
    if (!this.answer || this.answer.ok) return null;
    const shown = this.fields().filter((f) => !f.hidden?.(this.values));
    return fieldInError(this.answer.error, shown, this.answer.command ?? null)?.name ?? null;
  }

  fieldView(field, blamed) {
    const id = `${this.constructor.tool}-${field.name}`;
    const wrong = blamed === field.name;
    const problem = wrong ? this.problemView(`${id}-problem`, field) : nothing;
    // the message first, then the help: a screen reader hears what to fix before the hint
    const describedBy = [wrong ? `${id}-problem` : "", field.help ? `${id}-help` : ""].filter(Boolean).join(" ") || nothing;
    const invalid = wrong ? "true" : "false";
    const help = field.help ? html`<span class="rollbook-field__help" id=${`${id}-help`}>${field.help}</span>` : nothing;
    const value = this.values[field.name];
    if (field.kind === "bool") {
      return html`<div class="rollbook-field rollbook-field--check">
        <label><input type="checkbox" id=${id} name=${field.name} .checked=${Boolean(value)} aria-invalid=${invalid}
          aria-describedby=${describedBy} @change=${(e) => this.change(field.name, e.target.checked)}> ${field.label}</label>
        ${help}${problem}</div>`;
    }
    if (field.kind === "choice") {
      return html`<div class=${field.wide ? "rollbook-field rollbook-field--wide" : "rollbook-field"}>
        <label for=${id}>${field.label}</label>
        <select id=${id} name=${field.name} aria-describedby=${describedBy}
          aria-invalid=${invalid} @change=${(e) => this.change(field.name, e.target.value)}>
          ${field.options.map((o) => html`<option value=${o.value} ?selected=${o.value === value}>${o.label}</option>`)}
        </select>${help}${problem}</div>`;
    }
    if (field.kind === "checks") {
      const chosen = new Set(String(value).split(",").filter(Boolean));
      const toggle = (option, on) => {
        const rest = [...chosen].filter((id) => id !== option.value && !(on && option.group && field.options.find((o) => o.value === id)?.group === option.group));
        this.change(field.name, (on ? [...rest, option.value] : rest).join(","));
      };
      return html`<fieldset class="rollbook-field rollbook-checks" id=${id} aria-invalid=${invalid} aria-describedby=${describedBy}>
        <legend>${field.label}</legend>${help}
        ${field.options.map((o) => html`<label><input type="checkbox" name=${field.name} value=${o.value} aria-invalid=${invalid}
          .checked=${chosen.has(o.value)} @change=${(e) => toggle(o, e.target.checked)}> ${o.label}</label>`)}
        ${problem}</fieldset>`;
    }
    if (field.kind === "lines") {
      return html`<div class="rollbook-field rollbook-field--wide">
        <label for=${id}>${field.label}</label>
        <textarea id=${id} name=${field.name} .value=${value ?? ""} rows=${field.rows ?? 4} autocomplete="off" spellcheck="false"
          placeholder=${field.placeholder ?? nothing} aria-invalid=${invalid} aria-describedby=${describedBy}
          @input=${(e) => { this.values = { ...this.values, [field.name]: e.target.value }; }}
          @change=${(e) => this.change(field.name, e.target.value)}></textarea>
        ${help}${problem}</div>`;
    }
    return html`<div class="rollbook-field">
      <label for=${id}>${field.label}</label>
      <input type="text" id=${id} name=${field.name} .value=${value ?? ""} autocomplete="off" spellcheck="false"
        inputmode=${field.kind === "int" ? "numeric" : nothing} enterkeyhint="go" placeholder=${field.placeholder ?? nothing}
        aria-invalid=${invalid} aria-describedby=${describedBy}
        @input=${(e) => { this.values = { ...this.values, [field.name]: e.target.value }; }}
        @change=${(e) => this.change(field.name, e.target.value)}>
      ${help}${problem}</div>`;
  }

  /** The engine's message: after the label of `field` when it is about one, else alone. */
  /** A request the engine failed to answer while the engine's own notice (with Retry) is shown:
   *  said once, there, not twice. */
  #engineSaysIt() {
    return this.answer?.error?.kind === "load" && this.engine.state === "failed";
  }

  problemView(id, field = null) {
    return html`<p class="rollbook-problem" id=${id} role="alert">${labelled(field?.label, this.answer.error.message)}</p>`;
  }

  #submit(event) {
    event.preventDefault();
    this.run();
  }

  view() {
    const blamed = this.blamed();
    const failed = this.answer && !this.answer.ok;
    const tool = this.constructor.tool;
    return html`
      <form class="rollbook-tool__form" @submit=${(e) => this.#submit(e)}>
        ${this.intro?.() ?? nothing}
        ${this.#blockView(this.#blocks(), blamed)}
        ${this.preview?.() ?? nothing}
        ${failed && blamed === null && !this.#engineSaysIt() ? this.problemView(`${tool}-problem`) : nothing}
        <button type="submit" class="md-button md-button--primary rollbook-tool__go">${this.constructor.action}</button>
      </form>
      ${this.engineNotice()}
      ${this.linkProblems.length ? html`<p class="rollbook-problem">${this.linkProblems.join("; ")}</p>` : nothing}
      <section class="rollbook-answer" aria-live="polite" aria-busy=${this.busy ? "true" : "false"}>
        ${this.busy ? html`<p class="rollbook-answer__wait">${this.engine.state === "starting" ? "Kept: answered as soon as the engine is ready." : "Rolling…"}</p>` : nothing}
        ${this.answer?.ok ? this.#answerView() : nothing}
      </section>`;
  }

  /** The shown fields: those most rolls need, in order, and the rest by section, each where it
   *  first appears. */
  #blocks() {
    const shown = this.fields().filter((field) => !field.hidden?.(this.values)).map((field) => this.#withOwner(field));
    const sections = [];
    for (const f of shown.filter((field) => field.section)) {
      const section = sections.find((s) => s.section === f.section);
      if (section) section.fields.push(f);
      else sections.push({ section: f.section, fields: [f] });
    }
    return { main: shown.filter((field) => !field.section), sections };
  }

  #blockView({ main, sections }, blamed) {
    const grid = (fields) => html`<div class="rollbook-fields">${fields.map((f) => this.fieldView(f, blamed))}</div>`;
    if (!sections.length) return grid(main);
    const open = this.moreOpen || sections.some((s) => s.fields.some((f) => f.name === blamed));
    return html`${main.length ? grid(main) : nothing}
      <details class="rollbook-fold" ?open=${open} @toggle=${(e) => { this.moreOpen = e.target.open; }}>
        <summary>More options <span class="rollbook-fold__hint">${sections.map((s) => s.section).join(" · ")}</span></summary>
        ${sections.map(({ section, fields }) => html`<fieldset class="rollbook-fold__group">
          <legend>${section}</legend>${grid(fields)}</fieldset>`)}
      </details>`;
  }

  #answerView() {
    const { result } = this.answer;
    const { values, seed, sameDice } = this.asked;
    const link = this.link(values, seed);
    return html`
      ${sameDice && seed !== null ? html`<p class="rollbook-answer__shared">A shared result (seed ${seed}): the same dice as on the device it came from.</p>` : nothing}
      ${this.details(result, values)}
      ${this.constructor.folds
        ? html`<details class="rollbook-working"><summary>The engine's working</summary><p class="rollbook-breakdown"><code>${breakdown(result.text)}</code></p></details>`
        : html`<p class="rollbook-breakdown"><code>${breakdown(result.text)}</code></p>`}
      <p class="rollbook-share">${link === null ? "No link to this result: what was typed is too long to fit in one." : html`<a href=${link}>Link to this result</a>`}</p>`;
  }
}

/** The big line: what it is, and the outcome in words (never colour alone). */
export function verdict(label, value, outcome = nothing) {
  return html`<p class="rollbook-total"><span class="rollbook-total__label">${label}</span>
    <output class="rollbook-total__value">${value}</output>
    ${outcome === nothing ? nothing : html`<strong class="rollbook-verdict">${outcome}</strong>`}</p>`;
}
