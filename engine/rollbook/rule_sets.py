"""The rule sets, by the key used in commands, data files and ruling ids, in the order the site
presents them, with the names their documents give them.

Its own module, below the tables, the rulings and the rules, which all read it."""

from __future__ import annotations

RULE_SETS: dict[str, str] = {
    "opencore": "OpenCore",
    "codex": "Ogre CharacterCodex",
    "cyno": "Cyno's Role-Play",
}
