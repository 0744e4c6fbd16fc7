// OpenCore's kinds of Power that attack (the engine's "power" choices), in a player's words: the
// combat helper and the encounter card offer the same ones, said alike, short enough to be read
// whole in a select on a phone.
export const POWER_WORDS = {
  touch: "Touch Power (Hand-to-Hand)",
  physical: "Physical Power (its score)",
  mental: "Mental Power (not blocked)",
};
