// An encounter's parts as the engine writes them, for the widgets' tests: every ruling at its
// reading (as `encounter start` writes them), from the engine's facts.
import { ENCOUNTER } from "../../widgets/facts.js";

/** Each of `rules`'s rulings at its reading, the first of its choices. */
export const readings = (rules) => Object.fromEntries(Object.entries(ENCOUNTER.rulings[rules]).map(([name, r]) => [name, r.choices[0]]));
