// The encounter's form fields: a labelled select or text input, the ruling beside a choice.

import { html, nothing } from "../../element.js";
import { SITE_ROOT } from "../../session.js";

export function select(id, label, value, options, change, { ruling = null, wide = false } = {}) {
  return html`<div class=${wide ? "rollbook-field rollbook-field--wide" : "rollbook-field"}>
    <label for=${id}>${label}</label>
    <select id=${id} @change=${(e) => change(e.target.value)}>
      ${options.map(([v, text]) => html`<option value=${v} ?selected=${v === value}>${text}</option>`)}
    </select>
    ${ruling ? html`<a class="rollbook-field__help" href=${new URL(`rulings/#${ruling}`, SITE_ROOT).href}>Ruling ${ruling}</a>` : nothing}
  </div>`;
}

export function input(id, label, value, change, { numeric = true, placeholder = nothing } = {}) {
  return html`<div class="rollbook-field">
    <label for=${id}>${label}</label>
    <input type="text" id=${id} .value=${value} autocomplete="off" spellcheck="false" placeholder=${placeholder}
      inputmode=${numeric ? "numeric" : nothing} @input=${(e) => change(e.target.value)}>
  </div>`;
}
