"""The rulings a table may switch to their alternative, as one value every rule reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Options:
    """The rulings a table may switch to their alternative (see rulings.toml, field ``option``)."""

    aim_lines: Literal["natural", "aimed"] = "natural"  # cyno-aim-and-natural-lines
    target_size: Literal["one", "both"] = "one"  # cyno-large-and-small-target
    impossible_dodge: Literal["costs-action", "free"] = "costs-action"  # cyno-impossible-dodge
    failed_skilled_parry: Literal["free", "action"] = "free"  # cyno-parry-with-skill
    ranged_parry: Literal["blow-only", "allowed"] = "blow-only"  # cyno-parry-blows-only


DEFAULT = Options()
