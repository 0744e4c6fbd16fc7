// How a wound reads wherever an attack's chain is shown (the OpenCore attack helper, and the
// encounter's "How it was reached"): one wording, so the two never drift apart (they had: "−5"
// in one, "-5" in the other).

/** What armor or Toughness took of a hit and has left: "−5 (3 left)", or "none taken (0 left)", never "−0". */
export function taken(lost, left) {
  return `${lost ? `−${lost}` : "none taken"} (${left} left)`;
}
