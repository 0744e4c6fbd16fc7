"""The numbers of OpenCore's Actions and Terminology tables that the rules read (Bide's bonus,
Stun's penalty, Bloodloss per round), in the tables' words.
"""

from __future__ import annotations

from rollbook import tables


def action_value(action: str, field: str) -> int:
    """A number of the Actions table: Bide's initiative bonus, Defense's skill multiplier."""
    return next(r for r in tables.get("opencore.actions").rows if r["action"] == action)[field]


def term_meaning(term: str) -> str:
    """What the Terminology table says a critical's effect means, in its words."""
    return str(next(r for r in tables.get("opencore.terminology").rows if r["term"] == term)["meaning"])


def stun_defense_penalty() -> int:
    """Stun: unable to attack, -50 to defense rolls (Terminology)."""
    return next(r for r in tables.get("opencore.terminology").rows if r["term"] == "Stun")["defense_penalty"]


def bloodloss_per_round() -> int:
    """Bloodloss: -1 HP loss per round (Terminology)."""
    return next(r for r in tables.get("opencore.terminology").rows if r["term"] == "Bloodloss")["hp_per_round"]
