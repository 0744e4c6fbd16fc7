// An abbreviation says what it stands for when tapped: "PCs" -> "Player characters". Every use in
// the rules text is an <abbr title> (docs/includes/abbreviations.md); a phone shows no title, so
// a tap on one shows it in a tip below, and a tap anywhere else, Escape or the next page hides it.
//
// This replaces Material's `content.tooltips`, which mounts a tooltip component on every
// abbreviation and titled link as the page loads: 87 of them on opencore/character-creation/
// made one 145 ms task (Lighthouse, first visit: total blocking time 420 -> 210 ms without it).
// One listener for the whole document costs nothing until a tap. A mouse still gets the
// browser's own title on hover.

let tip = null;
let shownFor = null;

function hide() {
  if (!shownFor) return;
  shownFor.removeAttribute("aria-describedby");
  shownFor = null;
  tip.hidden = true;
}

function show(abbr) {
  hide();
  if (!tip?.isConnected) {
    tip = document.createElement("span");
    tip.id = "rollbook-abbreviation";
    tip.className = "rollbook-abbreviation";
    tip.setAttribute("role", "tooltip");
    document.body.append(tip);
  }
  tip.textContent = abbr.title;
  tip.hidden = false;
  // below the abbreviation, kept inside the screen's width; in page coordinates, so it scrolls with the text
  const word = abbr.getBoundingClientRect();
  const room = document.documentElement.clientWidth;
  const width = Math.min(tip.offsetWidth, room - 16);
  const left = Math.max(8, Math.min(word.left + word.width / 2 - width / 2, room - width - 8));
  tip.style.left = `${left + scrollX}px`;
  tip.style.top = `${word.bottom + scrollY + 6}px`;
  abbr.setAttribute("aria-describedby", tip.id);
  shownFor = abbr;
}

export function registerAbbreviations(doc = document) {
  doc.addEventListener("click", (event) => {
    const abbr = event.target.closest?.("abbr[title]");
    if (abbr && abbr !== shownFor) show(abbr);
    else hide();
  });
  doc.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hide();
  });
  globalThis.document$?.subscribe(hide); // instant navigation: the abbreviation is gone
}
