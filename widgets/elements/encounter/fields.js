// The encounter's form fields: a labelled select or text input, the ruling beside a choice (by
// its title), and the engine's refusal next to the field it is about: the field marked
// aria-invalid, the message ("<Label>: <message>") tied to it with aria-describedby.

import { html, nothing } from "../../element.js";
import { labelled } from "../../field-problem.js";
import { SITE_ROOT } from "../../session.js";

/** The field's problem (the message, when the last refusal is about it), as its attributes and line. */
function problemOf(id, label, problem) {
  if (!problem) return { invalid: "false", describedBy: nothing, line: nothing };
  return { invalid: "true", describedBy: `${id}-problem`,
    line: html`<p class="rollbook-problem" id=${`${id}-problem`} role="alert">${labelled(label, problem)}</p>` };
}

/** A link to a ruling on the Rulings page, by its title. */
export function rulingLink(ruling, titles) {
  return html`<a class="rollbook-field__help" href=${new URL(`rulings/#${ruling}`, SITE_ROOT).href}>Ruling: ${titles?.get(ruling) ?? "how Rollbook reads this"}</a>`;
}

export function select(id, label, value, options, change, { ruling = null, titles = null, wide = false, problem = null } = {}) {
  const p = problemOf(id, label, problem);
  return html`<div class=${wide ? "rollbook-field rollbook-field--wide" : "rollbook-field"}>
    <label for=${id}>${label}</label>
    <select id=${id} aria-invalid=${p.invalid} aria-describedby=${p.describedBy} @change=${(e) => change(e.target.value)}>
      ${options.map(([v, text]) => html`<option value=${v} ?selected=${v === value}>${text}</option>`)}
    </select>
    ${p.line}
    ${ruling ? rulingLink(ruling, titles) : nothing}
  </div>`;
}

export function input(id, label, value, change, { numeric = true, placeholder = nothing, problem = null, wide = false } = {}) {
  const p = problemOf(id, label, problem);
  return html`<div class=${wide ? "rollbook-field rollbook-field--wide" : "rollbook-field"}>
    <label for=${id}>${label}</label>
    <input type="text" id=${id} .value=${value} autocomplete="off" spellcheck="false" placeholder=${placeholder}
      inputmode=${numeric ? "numeric" : nothing} enterkeyhint="go" aria-invalid=${p.invalid} aria-describedby=${p.describedBy}
      @input=${(e) => change(e.target.value)}>
    ${p.line}
  </div>`;
}
