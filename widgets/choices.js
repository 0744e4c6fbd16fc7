// The choices a widget offers for a command's parameter: the values and their order are the
// engine's (the parameter's `choices` in widgets/facts.js), only the words are the widget's.

/** `choices` (the engine's values, in its order) as a form's options, each in `words` (value ->
 *  words); a value without words is shown as it is, so a choice the engine gains is offered, not lost. */
export function choiceOptions(choices, words) {
  return choices.map((value) => ({ value, label: words[value] ?? value }));
}
