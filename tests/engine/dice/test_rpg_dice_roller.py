"""The same dice, the same totals: a seeded cross-check against the real rpg-dice-roller.

tests/peer/rpg_dice_roller.mjs rolls each notation with the npm package (pinned in package.json)
on Node and reports every face it drew; Rollbook is then given exactly those faces, in the same
order, and must draw the same dice and reach the same total. rpg-dice-roller rolls every die before it explodes or rerolls any, where Rollbook finishes each die
first: for several exploding or rerolled dice the draws are put in Rollbook's order (each die, then
its own extra rolls), which the faces themselves decide. Its summary statistics are never used:
they are often wrong.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from rollbook.dice import faces as F
from rollbook.dice import parse, roll
from rollbook.dice.tree import Dice

pytestmark = pytest.mark.cpython_only  # runs Node

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "tests" / "peer" / "rpg_dice_roller.mjs"
SEEDS = range(1, 26)

SHARED = [
    "4d6", "4d6kh3", "4d6k3", "2d20kl1", "4d6dl1", "4d6d1", "5d10dh2", "4d10dh1dl2", "3d10k1d1", "3d10k1dh1",
    "6d8k3", "4d6min3", "4d6max3", "4d6min2max5", "5d10>=8", "6d10<=4", "4d3>1", "2d6=6", "2d6<>4",
    "4d6>4f<3", "2d20cs", "4d10cs>7", "2d20cf", "4d10cf<3", "4d6s", "4d6sa", "4d6sd",
    "d6r", "d6ro", "d6r<3", "d20ro<3", "d6!", "d6!>=5", "d10!>=8", "d6!!", "d6!!>4", "d6!p", "d6!!p",
    "d6!p>=5", "4d6u", "5d10uo", "4d6u=5", "10d4u<=2", "3d8uo>6",
    "{4d6, 2d10}kh1", "{3d6, 3d6, 3d6}>10", "{4d6+3d8}k4", "{4d6+3d8}d2", "{2d6, 2d6}>6f<4",
    "round(4d10/3)", "floor(4d10/3)", "ceil(4d10/3)", "abs(4d10-25)", "sign(1d6-3)", "max(4d6, 2d10)",
    "min(4d6, 2d10)", "pow(2d4, 2)", "sqrt(4d10)", "sqrt(4d10/3)", "exp(1d4)", "log(2d6)", "sin(1d6)",
    "d15%2", "3d20^2", "3d20**2", "1d20+1.45", "2d6*3-1d4/2", "(1d6+2)*3", "1d6/3", "4dF", "4dF.2", "4dF.1",
    "(4-2)d10", "3d(2*6)", "2d6[fire]+1d4[cold]", "1d20+1d4 // Climb", "1d20 /* x */ + 2",
    # several dice exploding or rerolled: the draws reordered die by die
    "3d6!", "5d10!k2", "4d6!d1", "4d6!kl2", "6d10!>=8>=8", "3d6!!", "4d6!!kh3", "3d6!p", "3d6!pk2", "2d6!!p",
    "4d10!>=9", "3d6r", "4d6r<3", "4d6ro", "3d20ro<3kh2",
]


def rollbook_order(notation: str, draws: list[list[int]]) -> list[list[int]]:
    """rpg-dice-roller's draws for ``NdS`` with an explosion or a reroll (all first rolls, then each
    die's extra rolls in turn) in Rollbook's order: each die followed by its own extra rolls."""
    d = parse(notation).root
    if not (isinstance(d, Dice) and (d.explode or d.reroll)):
        return draws
    count = int(d.count.value)  # type: ignore[union-attr]
    faces = F.faces_of(int(d.sides.value))  # type: ignore[union-attr]
    top = max(F.roll_weights(d, faces))
    first, extra = draws[:count], list(draws[count:])
    ordered = []
    for draw in first:
        ordered.append(draw)
        last, rolls = draw[2], 0
        while extra and ((d.explode and F.explodes(d, last, top)) or
                         (d.reroll and F.any_holds(F.reroll_conditions(d, faces), last)
                          and not (d.reroll.once and rolls))):
            draw = extra.pop(0)
            ordered.append(draw)
            last, rolls = draw[2], rolls + 1
    return ordered + extra


class Drawn(random.Random):
    """Plays back rpg-dice-roller's draws: each of its integer(min, max) is one randrange."""

    def __init__(self, draws: list[list[int]]) -> None:
        super().__init__(0)
        self.draws = list(draws)

    def randrange(self, n, *args, **kwargs):
        assert self.draws, "Rollbook draws more dice than rpg-dice-roller"
        low, high, value = self.draws.pop(0)
        assert high - low + 1 == n, f"rpg-dice-roller draws {low}..{high} where Rollbook draws one of {n}"
        return value - low


@cache
def peer_rolls() -> dict[tuple[str, int], dict]:
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "@dice-roller" / "rpg-dice-roller").is_dir():
        pytest.fail("needs Node and node_modules (make setup installs @dice-roller/rpg-dice-roller)")
    requests = [{"notation": n, "seed": s} for n in SHARED for s in SEEDS]
    done = subprocess.run([node, str(SCRIPT)], input=json.dumps(requests), capture_output=True, text=True,
                          cwd=ROOT, check=True, timeout=120)
    answers = json.loads(done.stdout)
    return {(r["notation"], r["seed"]): a for r, a in zip(requests, answers)}


@pytest.mark.parametrize("notation", SHARED)
def test_the_same_dice_give_the_same_total(notation):
    for seed in SEEDS:
        peer = peer_rolls()[notation, seed]
        assert "error" not in peer, (notation, peer)
        rng = Drawn(rollbook_order(notation, peer["draws"]))
        ours = roll(notation, rng)
        assert rng.draws == [], f"{notation} seed {seed}: rpg-dice-roller drew more: {peer['output']}"
        # rpg-dice-roller rounds totals to 2 decimals; Rollbook's are exact
        assert round(float(ours.total), 2) == pytest.approx(peer["total"]), \
            f"{notation} seed {seed}: {ours.text} but {peer['output']}"
