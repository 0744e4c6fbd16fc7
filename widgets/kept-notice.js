// When this browser does not keep what the player does (storage blocked or full, or what it kept
// could not be read), every page says so once, near the kept things: in the first widget of the
// page that shows kept things (HOSTS), else as a notice of its own at the foot of the screen.
// The notice offers the way to keep it anyway: Export to a file (and, for an unreadable value,
// its copy as it was; Start afresh when it could not be set aside).

import { html, nothing } from "./element.js";
import { onMaterial } from "./material-later.js";
import { showNotice } from "./notice.js";
import { kept } from "./session.js";

const HOSTS = "rollbook-character, rollbook-encounter, rollbook-kept, rollbook-log";

/** Give `text` to the player as a file named `name`. */
export function download(text, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

const today = () => new Date().toISOString().slice(0, 10);

export function exportKept() {
  download(kept.exportText(), `rollbook-${today()}.json`);
}

function exportUnreadable() {
  download(kept.damagedText(), `rollbook-unreadable-${today()}.json`);
}

/** The notice, drawn by `host` when it is the page's first widget showing kept things. */
export function keptNotice(host) {
  if (!kept.problem || host !== host.ownerDocument.querySelector(HOSTS)) return nothing;
  const damaged = kept.damaged;
  return html`<div class="rollbook-problem rollbook-kept-notice" role="alert">
    <p id="rollbook-kept-notice">${kept.problem}</p>
    <div class="rollbook-row">
      <button type="button" class="md-button" @click=${exportKept}>Export to a file</button>
      ${damaged ? html`<button type="button" class="md-button" @click=${exportUnreadable}>Export the unreadable copy</button>
        <button type="button" class="md-button" @click=${() => kept.forgetDamaged()}>${damaged.aside ? "Forget the unreadable copy" : "Start afresh"}</button>` : nothing}
    </div>
  </div>`;
}

let said = null; // the page and words last said by a notice of its own

/** On a page with no widget showing kept things (a rules page, the criticals), the notice is a
 *  block of its own under the page's title: in the text, over nothing, said once per page. A
 *  later change that was not kept is said at once too, in a passing notice at the foot. */
function sayOnPage() {
  const article = document.querySelector("article.md-content__inner");
  const block = article?.querySelector(":scope > .rollbook-kept-notice");
  if (!kept.problem || !article || document.querySelector(HOSTS)) return block?.remove();
  const now = `${location.pathname}\n${kept.problem}`;
  if (said === now && block) return;
  const changed = said?.startsWith(`${location.pathname}\n`) && block;
  said = now;
  const notice = block ?? document.createElement("div");
  notice.className = "rollbook-problem rollbook-kept-notice";
  notice.setAttribute("role", "alert");
  const text = document.createElement("p");
  text.textContent = kept.problem;
  const row = document.createElement("div");
  row.className = "rollbook-row";
  row.append(button("Export to a file", exportKept));
  if (kept.damaged) row.append(button("Export the unreadable copy", exportUnreadable));
  notice.replaceChildren(text, row);
  if (!block) (article.querySelector(":scope > h1") ?? article.firstElementChild)?.after(notice);
  if (changed) showNotice(kept.problem);
}

function button(label, action) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "md-button";
  b.textContent = label;
  b.addEventListener("click", action);
  return b;
}

export function registerKeptNotice() {
  kept.watch(sayOnPage);
  sayOnPage();
  // and on each page instant navigation brings (document$ first replays this page: said already, not again)
  onMaterial(() => globalThis.document$?.subscribe(() => sayOnPage()));
}
