// <rollbook-kept>: export everything this browser keeps (roll log, characters, the active one,
// the encounter being run)
// as a JSON file, and import such a file back. A bad file is refused with the reason and the
// place of the problem; what is already kept is never replaced by it. Where this browser keeps
// nothing (storage blocked), a file is still read, for this visit only, and said so.

import { define, html, nothing, RollbookElement } from "../element.js";
import { revealProblem } from "../field-problem.js";
import { KeptError, MAX_CHARACTERS, MAX_FOES, MAX_LOG, placeWords } from "../kept.js";
import { exportKept, keptNotice } from "../kept-notice.js";
import { kept } from "../session.js";

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** ", an encounter (round 2)" when one is kept, else nothing. */
function encounterWords(encounter) {
  return encounter ? `, an encounter (round ${encounter.current.round})` : "";
}

/** Why a file was refused, in a player's words: the file as a whole, or the place in it. */
function whyRefused(error) {
  if (!(error instanceof KeptError)) return "this browser could not read the file; try choosing it again";
  if (error.path === "file" || error.path === null) return error.reason;
  return `this Rollbook export has a part that cannot be used (${placeWords(error.path)}: ${error.reason}); it may have been changed by hand`;
}

/** What an import left out, and why: the limits of what is kept. */
function leftOut(left) {
  const said = [];
  if (left.characters) said.push(`${plural(left.characters, "character")} from the file not taken: at most ${MAX_CHARACTERS} characters are kept (delete some here, then import the file again)`);
  if (left.foes) said.push(`${plural(left.foes, "foe")} from the file not taken: at most ${MAX_FOES} foes are kept`);
  if (left.rolls || left.keptRolls) {
    const whose = [left.rolls && `${left.rolls} from the file`, left.keptRolls && `${left.keptRolls} kept here before`].filter(Boolean).join(" and ");
    said.push(`the log keeps the newest ${MAX_LOG} rolls, so the older ${plural(left.rolls + left.keptRolls, "roll")} (${whose}) were left out`);
  }
  return said.length ? ` Not taken: ${said.join("; ")}.` : "";
}

// Storage blocked: the file is read into this visit only, and the player is told how to keep it.
const VISIT_ONLY = "This browser does not let this site keep anything, so the file is on this page for this visit only:"
  + " it is gone when the page is closed or reloaded. To keep it, use Export to a file before then, and import that file on your next visit.";

class KeptData extends RollbookElement {
  static asksEngine = false;
  connected() {
    this.message = null; // {text, problem, visitOnly}: visitOnly, the import says why it is not kept
    this.listen(kept.watch(() => this.update()));
  }

  #export() {
    exportKept();
    this.message = { text: `Exported ${plural(kept.log.length, "roll")}, ${plural(kept.characters.length, "character")}${encounterWords(kept.encounter)}.` };
    this.update();
  }

  async #import(event) {
    const file = event.target.files?.[0];
    event.target.value = ""; // the same file can be chosen again
    if (!file) return;
    try {
      const had = kept.encounter !== null;
      const { added, skipped, left, kept: inBrowser } = kept.importText(await file.text());
      const already = skipped.rolls + skipped.characters + skipped.foes + skipped.encounter;
      const here = inBrowser ? "kept here" : "on this page";
      // not kept only when storage is blocked (a full one refuses the file): said here, next to
      // the tap, and not again in the notice above (see view)
      const visitOnly = !inBrowser;
      this.message = { text: `Imported ${plural(added.rolls, "roll")}, ${plural(added.characters, "character")}`
        + (added.foes ? `, ${plural(added.foes, "foe")}` : "")
        + (added.encounter ? `, an encounter${had ? ` (it took the place of the one ${here}: Undo on the encounter page brings that back)` : ""}` : "")
        + (already ? ` (${already} already ${here}, left as they are).` : ".")
        + leftOut(left)
        + (visitOnly ? ` ${VISIT_ONLY}` : ""),
        visitOnly };
    } catch (error) {
      this.message = { problem: true, text: `${file.name} was not imported, nothing changed: ${whyRefused(error)}.` };
    }
    this.update();
    if (this.message.problem) requestAnimationFrame(() => revealProblem(this));
  }

  view() {
    const refused = Boolean(this.message?.problem);
    return html`<div class="rollbook-kept">
      ${this.message?.visitOnly ? nothing : keptNotice(this)}
      <p>${kept.saved && kept.trouble !== "blocked" ? "Kept here" : "On this page, not kept in this browser"}: ${plural(kept.log.length, "roll")}, ${plural(kept.characters.length, "character")}${encounterWords(kept.encounter)}.</p>
      <div class="rollbook-row">
        <button type="button" class="md-button" @click=${() => this.#export()}>Export to a file</button>
        <label class="md-button rollbook-file">Import a file
          <input type="file" accept="application/json,.json" aria-invalid=${refused ? "true" : "false"}
            aria-describedby=${refused ? "rollbook-kept-problem" : nothing} @change=${(e) => this.#import(e)}></label>
      </div>
      ${this.message ? html`<p class=${refused ? "rollbook-problem" : "rollbook-done"} id=${refused ? "rollbook-kept-problem" : nothing}
        role=${refused ? "alert" : "status"}>${this.message.text}</p>` : nothing}
    </div>`;
  }
}

define("rollbook-kept", KeptData);
