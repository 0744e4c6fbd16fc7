"""The rulings a table may switch to their alternative, as one value every rule reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Options:
    """The rulings a table may switch to their alternative (see rulings.toml, field ``option``)."""

    save_direction: Literal["under", "over"] = "under"  # opencore-save-direction
    willpower_composite: Literal["SDAC", "IPW"] = "SDAC"  # opencore-willpower-composite
    perception: Literal["above", "at-or-below"] = "above"  # opencore-perception-direction
    dex_modifier: Literal["centred", "none"] = "centred"  # opencore-dex-modifier
    str_damage: Literal["modifier", "score"] = "modifier"  # opencore-str-damage
    death_at: Literal["negative-con", "zero"] = "negative-con"  # opencore-death-threshold


DEFAULT = Options()
