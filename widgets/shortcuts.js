// Keyboard shortcuts (desktop): `r` rolls the last roll again. Material keeps its own keys
// (`/`, `s` or `f` search; `p` and `n` previous and next page), and no shortcut fires while the
// reader types in a field or the search is open.

import { showNotice } from "./notice.js";
import { kept, rollIntoLog } from "./session.js";

/** The newest roll in the log that can be rolled again (a tool's result has no expression). */
export function lastRoll(log) {
  for (let i = log.length - 1; i >= 0; i -= 1) if (log[i].expression) return log[i];
  return null;
}

/** Is the key going to a field, a select, an editable region (or a widget that takes keys)? */
export function typingInto(target) {
  return Boolean(target?.closest?.("input, textarea, select, [contenteditable=''], [contenteditable='true']"));
}

async function rollAgain() {
  const entry = lastRoll(kept.log);
  if (!entry) {
    showNotice("Nothing to roll again yet: roll some dice first, then r rolls them again.", { seconds: 5 });
    return;
  }
  const { answer, entry: rolled } = await rollIntoLog({ expression: entry.expression, vars: entry.vars, label: entry.label });
  showNotice(answer.ok
    ? `Rolled again: ${rolled.label} = ${rolled.total_text ?? rolled.total}`
    : `Could not roll ${entry.label} again: ${answer.error.message}`, { seconds: 6 });
}

export function registerShortcuts(doc = document) {
  doc.addEventListener("keydown", (event) => {
    if (event.key !== "r" || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    if (event.defaultPrevented || typingInto(event.target)) return;
    if (doc.querySelector("[data-md-toggle=search]")?.checked) return; // the search field has the keys
    event.preventDefault();
    rollAgain();
  });
}
