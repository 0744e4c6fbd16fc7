// What a player keeps in this browser: the roll log, characters, the active character, the foe
// templates a GM saves and the encounter being run (tools/encounter/: its current state and the
// states Undo takes back). One module per job under kept/, all of it named here for the widgets:
//   kept/schema.js   what a kept value may hold, checked from the engine's facts (widgets/facts.js)
//   kept/migrate.js  an older format brought forward, one format at a time
//   kept/file.js     the file exported and imported, and merging it with what is kept
//   kept/store.js    the store over localStorage: changes, settling across tabs, faults
//   kept/words.js    the places and reasons in a player's words

export { FORMAT, MAX_LOG, MAX_CHARACTERS, MAX_FOES, ABILITIES, CHARACTER_RULINGS, MAX_TEXT, MAX_LABEL, MAX_UNDO, MAX_ENCOUNTER_CHARS,
  KeptError, put, checkRoll, checkCharacter, checkFoe, checkEncounterState, checkEncounter, checkKept } from "./kept/schema.js";
export { exportKept, parseKeptFile, mergeKept } from "./kept/file.js";
export { STORAGE_KEY, SETTLE_LOCK, KeptStore, newId } from "./kept/store.js";
export { CHANGED_ELSEWHERE, namesInWords, placeWords } from "./kept/words.js";
