// A kept value of an older format (a file, or what an older version stored) brought forward, one
// format at a time, so nothing kept before is refused.

/** From each older format to the next: format 2 added the foe templates (none before). The
 *  formats written so far, each read in tests/widgets/kept.test.mjs: 1 as first written (a log,
 *  characters, the active one), 1 with the encounter (added without a new number: a value without
 *  one has none), 2. A field added later within a format has a default in schema.js (a roll's
 *  total_text and link) or in the engine (an encounter's later rulings, facts.js
 *  ENCOUNTER.later_rulings). */
export const MIGRATIONS = {
  1: (value) => ({ ...value, rollbook: 2, foes: [] }),
};

/** `value` brought forward to the newest format it has a step for (as it is when it has none). */
export function migrated(value) {
  while (Number.isSafeInteger(value.rollbook) && Object.hasOwn(MIGRATIONS, value.rollbook)) value = MIGRATIONS[value.rollbook](value);
  return value;
}
