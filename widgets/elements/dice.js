// How a rolled die and a roll's answer look: shared by the roller, the log and inline rolls.
// Status is never told by colour alone: a dropped die is struck through and says "dropped",
// an exploded one carries "!", a success or a critical is named in words.

import { html, nothing } from "../element.js";
import { labelled } from "../field-problem.js";

/** The words a screen reader hears for one die, and the marks a sighted reader sees. */
function dieStatus(die) {
  const words = [];
  if (!die.kept) words.push("dropped");
  if (die.exploded) words.push("exploded");
  if (die.added) words.push("added by an explosion");
  if (die.rerolled) words.push(`rerolled from ${die.rerolled.join(", ")}`);
  if (die.chain) words.push(`open-ended: ${die.chain.join(", ")}`);
  if (die.success === true) words.push("success");
  if (die.success === false) words.push("no success");
  if (die.clamped_from !== undefined) words.push(`${die.clamped_from} counted as ${die.value}`);
  if (die.penalty && !die.chain) words.push(`penetrating: showed ${die.value + die.penalty}, counts ${die.value}`);
  if (die.penalty && die.chain) words.push(`penetrating: each extra roll counts ${die.penalty} less`);
  if (die.matched) words.push("matches");
  return words;
}

function dieFace(die) {
  if (die.sides === "%" && die.percentile) {
    return die.percentile.map((p) => `${String(p.tens).padStart(2, "0")}+${p.units}`).join(" ");
  }
  if (die.sides === "F") return die.value > 0 ? "+" : die.value < 0 ? "−" : "0";
  return String(die.value);
}

/** One die as a tile: its face large, its kind (d20) and its status in words under it. */
export function dieTile(die) {
  const status = dieStatus(die);
  const classes = ["rollbook-die",
    die.kept ? "" : "rollbook-die--dropped",
    die.exploded ? "rollbook-die--exploded" : "",
    die.success === true ? "rollbook-die--success" : ""].filter(Boolean).join(" ");
  const kind = die.sides === "%" ? "d%" : `d${die.sides}`;
  return html`<li class=${classes}>
    ${die.rerolled ? html`<s class="rollbook-die__before">${die.rerolled.join(" ")}</s>` : nothing}
    <span class="rollbook-die__face">${die.kept ? dieFace(die) : html`<s>${dieFace(die)}</s>`}${die.exploded ? "!" : ""}</span>
    <span class="rollbook-die__kind">${kind}</span>
    ${status.length ? html`<span class="rollbook-die__status">${status.join(", ")}</span>` : nothing}
  </li>`;
}

/** The dice of a roll, term by term ("4d6kh3: 5 3 6 3"). */
export function diceOfRoll(result) {
  if (!result.dice?.length) return nothing;
  return html`<div class="rollbook-terms">${result.dice.map((term) => html`
    <div class="rollbook-term">
      <p class="rollbook-term__name"><code>${term.term}</code> <span>= ${term.total}</span></p>
      <ul class="rollbook-dice" aria-label=${`dice of ${term.term}`}>${term.dice.map(dieTile)}</ul>
    </div>`)}</div>`;
}

/** "7/2", "3" or "3.31662479036" (how the engine writes totals and chances) as a number, for
 *  ordering, drawing and reading only. An exact chance can have hundreds of digits on each side
 *  (400d6: 1 in 6**400, 312 digits), past the 10**308 where Number() gives Infinity (a
 *  chance read as 0, or Infinity / Infinity: NaN): such a fraction is read by the leading digits
 *  and the length of each side. */
export function fractionValue(text) {
  const [top, bottom = "1"] = String(text).split("/");
  const [over, under] = [Number(top), Number(bottom)];
  if ((Number.isFinite(over) && Number.isFinite(under)) || !/^-?\d+$/.test(top) || !/^\d+$/.test(bottom)) return over / under;
  const sign = top.startsWith("-") ? -1 : 1;
  const digits = top.replace("-", "");
  const lead = (n) => Number(`${n[0]}.${n.slice(1, 17)}`); // 1 to 10: times 10 ** (its length - 1)
  return sign * (lead(digits) / lead(bottom)) * 10 ** (digits.length - bottom.length);
}

/** The length of a bar (0 to 1) for a chance `p` (as the engine wrote it) beside the largest one,
 *  `peak` (a number): always a finite number, which <progress> needs (setting NaN or Infinity
 *  throws and stops the page). A chance that cannot be read as a number draws no bar. */
export function barLength(p, peak) {
  const length = fractionValue(p) / peak;
  return Number.isFinite(length) ? Math.min(Math.max(length, 0), 1) : 0;
}

/** A number as the engine gave it, a fraction "5/12", as a percentage for reading. */
export function percent(fraction) {
  const value = fractionValue(fraction) * 100;
  if (value === 0 || value === 100) return `${value}%`;
  const tiny = powerOfTen(value);
  if (tiny) return `${tiny.mantissa}\u202f×\u202f10${[...tiny.exponent].map((c) => SUPERSCRIPT[c]).join("")}%`;
  return `${value < 0.01 ? value.toPrecision(2) : value.toFixed(value < 1 ? 3 : 2).replace(/\.?0+$/, "")}%`;
}

/** percent() on the page: a tiny chance's notation is also said in words for a screen reader,
 *  which reads "10⁻¹¹" sign by sign ("3.0 times 10 to the power minus 11 percent"). */
export function percentView(fraction) {
  const tiny = powerOfTen(fractionValue(fraction) * 100);
  if (!tiny) return percent(fraction);
  const power = tiny.exponent.startsWith("-") ? `minus ${tiny.exponent.slice(1)}` : tiny.exponent;
  return html`<span aria-hidden="true">${percent(fraction)}</span><span class="rollbook-visually-hidden">${tiny.mantissa} times 10 to the power ${power} percent</span>`;
}

const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

/** A tiny percentage that JavaScript writes "9.2e-11" as its mantissa and exponent ("9.2", "-11"),
 *  to be written in the notation a reader learnt at school, "9.2 × 10⁻¹¹" (a rare total's chance,
 *  the tail an open-ended chain leaves out), held on one line (narrow no-break spaces: a narrow
 *  table cell split it after the ×); null for a percentage written plainly. */
function powerOfTen(value) {
  if (!(value > 0 && value < 0.01)) return null;
  const [mantissa, exponent] = value.toPrecision(2).split("e");
  return exponent === undefined ? null : { mantissa, exponent: exponent.replace("+", "") };
}

/** A chance as a percentage and, when it is not a whole certainty, the engine's exact fraction:
 *  "37.5% (3/8)", "100%". */
export function chanceText(fraction) {
  return fractionValue(fraction) === 0 || fractionValue(fraction) === 1 ? percent(fraction) : `${percent(fraction)} (${fraction})`;
}

/** The engine's error after the label of the field it is about, and where it points in what was
 *  typed (a caret under the column). */
export function errorView(error, typed, id, label = null) {
  const column = error.column ?? Number((/^column (\d+):/.exec(error.message) ?? [])[1] ?? 0);
  return html`<div class="rollbook-problem" id=${id} role="alert">
    <p>${labelled(label, error.message)}</p>
    ${column && typed ? html`<pre class="rollbook-caret" aria-hidden="true"><code>${typed}\n${" ".repeat(column - 1)}^</code></pre>` : nothing}
  </div>`;
}

// The engine's marks in a breakdown: ~~dropped~~, **a success**, _a failure_, a face rolled
// again 1↻ (before the face it ended on). A critical's own mark (20**, 1__) follows a number with
// no closing pair, and stays as written; 6→5 (a face that counts another number) and 6! read as
// they are.
const MARKS = /~~(.+?)~~|(?<![\w*])\*\*(?=[^\s*])(.+?)\*\*(?!\*)|(?<![\w_])_(?=[^\s_])(.+?)_(?![\w])|(-?\d+)↻/g;

/** The engine's one-line breakdown, "5d10>7 (**8**, 1, ~~2~~, _3_) = 1", with its marks as
 *  elements: struck through and said "dropped", <strong> a success, <em> a failure, a rerolled
 *  face struck through with its ↻ and said "rerolled". Text nodes only (lit-html escapes each
 *  part), never the engine's text as HTML. */
export function breakdown(text) {
  const parts = [];
  let at = 0;
  const source = String(text);
  for (const match of source.matchAll(MARKS)) {
    if (match.index > at) parts.push(source.slice(at, match.index));
    const [, dropped, success, failure, rerolled] = match;
    if (rerolled !== undefined) parts.push(html`<s class="rollbook-rerolled">${rerolled}</s>↻<span class="rollbook-visually-hidden"> (rerolled)</span>`);
    else if (dropped !== undefined) parts.push(html`<s>${breakdown(dropped)}</s><span class="rollbook-visually-hidden"> (dropped)</span>`);
    else if (success !== undefined) parts.push(html`<strong>${breakdown(success)}</strong><span class="rollbook-visually-hidden"> (success)</span>`);
    else parts.push(html`<em>${breakdown(failure)}</em><span class="rollbook-visually-hidden"> (failure)</span>`);
    at = match.index + match[0].length;
  }
  if (at < source.length) parts.push(source.slice(at));
  return parts;
}
