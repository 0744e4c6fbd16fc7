// The file a player exports and imports: the same JSON as what is kept, {"rollbook": 2, "log": [...],
// "characters": [...], "active": id | null, "foes": [...], "encounter": {...} | null} (a file
// without "encounter" has none). Reading one checks it whole (schema.js); importing it adds only
// what is new, so nothing already kept is replaced by it.

import { checkKept, fail, FORMAT, MAX_CHARACTERS, MAX_FOES, MAX_LOG, MAX_UNDO } from "./schema.js";
import { CHOOSE } from "./words.js";

const MAX_FILE_CHARS = 2_000_000;

/** The file a player downloads: everything kept, as formatted JSON. */
export function exportKept(kept, now = new Date()) {
  return JSON.stringify({ rollbook: FORMAT, exported: now.toISOString(), ...kept }, null, 2) + "\n";
}

/** Read an exported file's text; KeptError says plainly why a file is refused. */
export function parseKeptFile(fileText) {
  if (typeof fileText !== "string" || fileText.length > MAX_FILE_CHARS) {
    fail("file", `this file is not a Rollbook export (it is larger than ${MAX_FILE_CHARS / 1e6} MB): ${CHOOSE}`);
  }
  let value;
  try {
    value = JSON.parse(fileText);
  } catch {
    fail("file", `this file is not a Rollbook export (it could not be read as one): ${CHOOSE}`);
  }
  return checkKept(value);
}

/** Add an imported file to what is kept: entries already kept (same id) stay as they are. The
 *  log keeps the newest MAX_LOG rolls by time, the file's and the kept ones alike; characters and
 *  foes beyond their limits are left out. `left` counts what was left out, so the page says it.
 *  An imported encounter (unless it is the one kept) takes the kept one's place, and the kept one
 *  goes onto its Undo states: Undo on the encounter page brings it back. */
export function mergeKept(kept, imported) {
  const haveRolls = new Set(kept.log.map((r) => r.id));
  const comingRolls = imported.log.filter((r) => !haveRolls.has(r.id));
  const log = [...kept.log, ...comingRolls].sort((a, b) => Date.parse(a.at) - Date.parse(b.at)).slice(-MAX_LOG);
  const inLog = new Set(log.map((r) => r.id));
  const newRolls = comingRolls.filter((r) => inLog.has(r.id));
  const [characters, newCharacters, comingCharacters] = joined(kept.characters, imported.characters, MAX_CHARACTERS);
  const active = kept.active ?? (imported.active && characters.some((c) => c.id === imported.active) ? imported.active : null);
  const [foes, newFoes, comingFoes] = joined(kept.foes ?? [], imported.foes ?? [], MAX_FOES);
  const have = kept.encounter ?? null;
  const coming = imported.encounter ?? null;
  const same = have && coming && JSON.stringify(have.current) === JSON.stringify(coming.current);
  let encounter = have;
  if (coming && !same) {
    encounter = have
      ? { ...coming, undo: [...coming.undo, have.current].slice(-MAX_UNDO), full: { ...have.full, ...coming.full } }
      : coming;
  }
  return {
    kept: { log, characters, active, foes, encounter },
    added: { rolls: newRolls.length, characters: newCharacters.length, foes: newFoes.length, encounter: coming && !same ? 1 : 0 },
    skipped: { rolls: imported.log.length - comingRolls.length, characters: imported.characters.length - comingCharacters,
               foes: (imported.foes ?? []).length - comingFoes, encounter: same ? 1 : 0 },
    left: { rolls: comingRolls.length - newRolls.length, keptRolls: kept.log.filter((r) => !inLog.has(r.id)).length,
            characters: comingCharacters - newCharacters.length, foes: comingFoes - newFoes.length },
  };
}

/** The kept entries, then the imported ones not kept yet up to `most`: [all, the ones added, how many were new]. */
function joined(have, coming, most) {
  const ids = new Set(have.map((e) => e.id));
  const fresh = coming.filter((e) => !ids.has(e.id));
  const added = fresh.slice(0, Math.max(0, most - have.length));
  return [[...have, ...added], added, fresh.length];
}
