// An engine error at the field it is about, the same way in every widget: the field is found from
// the error's `fields` (the request's argument names, "name.KEY" for a keyed one), the message
// reads after the field's label ("Attack skill: enter a whole number…"), the field is marked
// aria-invalid and tied to the message, and after the tap focus and view move to it, so the
// message is on screen on a phone. A message that names no field is brought into view where it is.

/**
 * The first of the error's fields that one of `candidates` takes: `candidates` are
 * {name, args?} (a form field, and the argument names it answers for besides its own name; an
 * entry "command arg" answers for that command's argument only). A keyed argument "scores.con"
 * goes to a field named "scores.con", or else to one named "scores". `command` is the request
 * that failed (in a chain, the one the error came from). Null when none takes it.
 */
export function fieldInError(error, candidates, command = null) {
  const takes = (field, arg) => field.name === arg
    || (field.args ?? []).some((alias) => alias === arg || (command !== null && alias === `${command} ${arg}`));
  for (const arg of error?.fields ?? []) {
    const keyed = arg.includes(".") ? arg.slice(0, arg.indexOf(".")) : null;
    const field = candidates.find((f) => takes(f, arg)) ?? (keyed ? candidates.find((f) => takes(f, keyed)) : undefined);
    if (field) return field;
  }
  return null;
}

/** "Label: message", unless the message already starts with the label. */
export function labelled(label, message) {
  const text = String(message ?? "");
  if (!label) return text;
  const bare = String(label).replace(/[\s:]+$/, "");
  return text.toLowerCase().startsWith(bare.toLowerCase()) ? text : `${bare}: ${text}`;
}

/**
 * After the tap that produced an error: open the folded sections around the first field marked
 * aria-invalid in `root`, focus it and scroll it to the middle of the screen (its message sits
 * under it); with no field marked, scroll `fallback` (a selector: the message that names no
 * field) into view. Call it once the view shows the error.
 */
export function revealProblem(root, fallback = ".rollbook-problem") {
  const field = root.querySelector('[aria-invalid="true"]');
  if (field) {
    for (let fold = field.closest("details"); fold; fold = fold.parentElement?.closest("details")) fold.open = true;
    const target = field.matches("fieldset") ? field.querySelector("input") ?? field : field;
    target.focus({ preventScroll: true });
    field.scrollIntoView({ block: "center" });
    return field;
  }
  const message = root.querySelector(fallback);
  message?.scrollIntoView({ block: "center" });
  return message;
}
