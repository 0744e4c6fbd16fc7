"""Rolling with pinned dice: each modifier's effect on the faces, the total and the breakdown."""

from __future__ import annotations

import random

import pytest

from rollbook.dice import roll


class Pinned(random.Random):
    """Shows the given 1-based faces in order (d% takes two: tens and units, each 1-10 for 0-9)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randrange(self, n, *args, **kwargs):
        face = self.faces.pop(0)
        assert 1 <= face <= n, (face, n)
        return face - 1


@pytest.mark.parametrize(
    ("expression", "faces", "text"),
    [
        ("4d6kh3", [6, 5, 2, 4], "4d6kh3 (6, 5, ~~2~~, 4) = 15"),
        ("4d6dl1", [6, 5, 2, 4], "4d6dl1 (6, 5, ~~2~~, 4) = 15"),
        ("2d20kl1", [15, 3], "2d20kl1 (~~15~~, 3) = 3"),
        ("4d6dh1", [6, 6, 2, 4], "4d6dh1 (6, ~~6~~, 2, 4) = 12"),  # ties: the earlier die is kept
        ("3d6kh1", [4, 4, 1], "3d6kh1 (4, ~~4~~, ~~1~~) = 4"),  # ties: the earlier die is kept
        ("2d6r1", [1, 1, 5, 3], "2d6r1 (1↻1↻5, 3) = 8"),
        ("2d6ro1", [1, 1, 3], "2d6ro1 (1↻1, 3) = 4"),
        ("1d20ro<3", [2, 17], "1d20ro<3 (2↻17) = 17"),
        ("3d6!", [6, 6, 2, 3, 1], "3d6! (6!, 6!, 2, 3, 1) = 18"),
        ("2d6!>=5", [5, 1, 2], "2d6!>=5 (5!, 1, 2) = 8"),
        ("2d6!!", [6, 6, 2, 3], "2d6!! ((6 + 6 + 2), 3) = 17"),
        ("1d6!p", [6, 6, 4], "1d6!p (6!, 6→5!, 4→3) = 14"),  # each added die counts one less than it shows
        ("1d6!!p", [6, 6, 4], "1d6!!p (6 + 6→5 + 4→3) = 14"),  # compounded into one die
        # Roll20: "{3d20+5}>21 - Roll 3 d20's, for each roll add 5 and then count a success for each
        # result of 21 or more" (Rollbook's > is strictly greater: that is {3d20+5}>=21)
        ("{3d20+5}>=21", [16, 15, 20], "{3d20 (**16**, 15, **20**) + 5}>=21 = 2"),
        ("{3d6+1}<3", [1, 2, 3], "{3d6 (**1**, 2, 3) + 1}<3 = 1"),  # "for each dice roll add on 1, then compare"
        ("{2d6-1}>=3f<2", [2, 4], "{2d6 (_2_, **4**) - 1}>=3f<2 = 0"),
        ("{2d6+3}kh1", [2, 4], "{2d6 (~~2~~, 4) + 3}kh1 = 7"),  # keep alone: the number is added once
        # Roll20: "If the exploding dice cause a match, the match will display in the results as well"
        ("3d6!mt", [6, 2, 6, 3, 4], "3d6mt! (6!≡, 2, 6!≡, 3, 4) = 1"),
        ("2d6!p>=5", [5, 5, 1, 3], "2d6!p>=5 (5!, 5→4!, 1→0, 3) = 12"),  # a 5 penetrates as 4: the natural face counts
        ("10d10>=8", [8, 7, 10, 1, 2, 3, 4, 5, 6, 9], "10d10>=8 (**8**, 7, **10**, 1, 2, 3, 4, 5, 6, **9**) = 3"),
        ("3d10>=8!", [10, 9, 3, 8], "3d10>=8! (**10!**, **9**, 3, **8**) = 3"),  # the added die counts too
        ("4d6kh2>=5", [6, 2, 5, 1], "4d6kh2>=5 (**6**, ~~2~~, **5**, ~~1~~) = 2"),
        ("4d6mi3", [1, 5, 2, 6], "4d6mi3 (1→3, 5, 2→3, 6) = 17"),
        ("2d6ma4", [6, 3], "2d6ma4 (6→4, 3) = 7"),
        ("4dF", [1, 2, 3, 3], "4dF (-1, 0, 1, 1) = 1"),
        ("4dFr", [1, 2, 3, 3, 1, 1, 3], "4dFr (-1↻0, 1, 1, -1↻-1↻1) = 3"),  # a -1 rolled again reads as a reroll
        ("{1d20, 1d12}kh1", [7, 11], "{~~1d20 (7)~~, 1d12 (11)}kh1 = 11"),
        ("{1d20+5, 1d20+3}>=15", [12, 9], "{**1d20 (12) + 5**, 1d20 (9) + 3}>=15 = 1"),
        ("1d20+5 # Climb", [13], "Climb: 1d20 (13) + 5 = 18"),
        ("2d6*3-1", [2, 5], "2d6 (2, 5) * 3 - 1 = 20"),
        ("1d6/2", [5], "1d6 (5) / 2 = 2.5"),  # exact, as on Roll20
        ("floor(1d6/2)", [5], "floor(1d6 (5) / 2) = 2"),  # the rule books' rounding down
        ("1d6/3", [5], "1d6 (5) / 3 = 5/3"),
        ("-(1d6)", [4], "-(1d6 (4)) = -4"),
        ("(1d4)d6", [2, 6, 1], "(1d4 (2))d6 (6, 1) = 7"),
        ("2d20oe", [20, 20, 5, 1, 4], "2d20oe ((20 + 20 + 5), (1 - 4)) = 42"),
        ("d100oeh5", [3], "1d100oeh5 (3) = 3"),  # the low end is not open
        ("d100oel5", [98], "1d100oel5 (98) = 98"),  # the high end is not open
        ("0d6", [], "0d6 () = 0"),
    ],
)
def test_breakdown(expression, faces, text):
    rng = Pinned(faces)
    result = roll(expression, rng)
    assert result.text == text
    assert rng.faces == []  # every pinned face was used


def test_percentile_reads_tens_and_units():
    # tens die 0-9 and units die 0-9 are randrange(10): pinned faces 1-10 stand for 0-9
    assert roll("d%", Pinned([5, 8])).total == 47
    assert roll("d%", Pinned([1, 1])).total == 100  # 00 + 0
    assert roll("d%", Pinned([1, 2])).total == 1
    assert roll("d%", Pinned([10, 10])).total == 99
    die = roll("d%", Pinned([1, 1])).dice[0]["dice"][0]
    assert die["percentile"] == [{"tens": 0, "units": 0}]


def test_die_records():
    r = roll("2d6r1kh1", Pinned([1, 4, 6]))
    (term,) = r.dice
    assert term["term"] == "2d6r1kh1" and term["total"] == 6
    first, second = term["dice"]
    assert first == {"sides": 6, "value": 4, "rolls": [1, 4], "rerolled": [1], "kept": False}
    assert second == {"sides": 6, "value": 6, "rolls": [6], "kept": True}
    chain = roll("d20oe", Pinned([1, 20, 5])).dice[0]["dice"][0]
    assert chain["chain"] == [1, -20, -5] and chain["rolls"] == [1, 20, 5] and chain["value"] == -24


def test_long_reroll_runs_end():
    # 'r<10000' leaves one face in 10,000: after MAX_REROLLS shown, the standing face is drawn directly
    result = roll("1d10000r<10000", random.Random(5))
    assert result.total == 10000


def test_systemrandom_by_default():
    assert 1 <= roll("1d6").total <= 6
