"""Running encounter steps through the JSON API, as the page will."""

from __future__ import annotations

from typing import Any

from rollbook import api


def call(command: str, **args: Any) -> dict:
    answer = api.call({"command": f"encounter {command}", "args": args})
    assert answer["ok"], answer
    return answer["result"]


def refused(command: str, **args: Any) -> str:
    answer = api.call({"command": f"encounter {command}", "args": args})
    assert not answer["ok"], answer
    return answer["error"]["message"]


def step(enc: dict, command: str, **args: Any) -> dict:
    """The new encounter after one step."""
    return call(command, encounter=enc, **args)["encounter"]


def who(enc: dict, id: str) -> dict:
    return next(c for c in enc["combatants"] if c["id"] == id)


def status(enc: dict, id: str) -> dict:
    return next(s for s in call("show", encounter=enc)["status"] if s["id"] == id)


BUCK = {"con": 32, "dex": 80, "hp": 64, "attack_skill": 60, "defense_skill": 40, "str": 76}
ORC = {"con": 30, "dex": 40, "hp": 20, "attack_skill": 40, "defense_skill": 20, "str": 70}


def opencore_fight(**rulings: Any) -> dict:
    """Buck (p1, Sword, Chain Mail) against an orc (o1, Large Club, Toughness 5), not yet started."""
    enc = call("start", rules="opencore", **rulings)["encounter"]
    enc = step(enc, "add", name="Buck", side="players", score=BUCK, weapon="Sword", armor_name="Chain Mail")
    return step(enc, "add", name="Orc", side="orcs", score={**ORC, "toughness": 5}, weapon="Large Club")


def cyno_fight() -> dict:
    enc = call("start", rules="cyno")["encounter"]
    enc = step(enc, "add", name="Kristine", side="players", weapon="2d6",
               score={"reflex": 16, "coordination": 14, "stress": 10, "actions": 2, "dp": 30, "weaponry_skill": 75})
    return step(enc, "add", name="Sid", side="gang", weapon="1d6",
                score={"reflex": 8, "coordination": 10, "stress": 14, "actions": 2, "dp": 20, "hand_to_hand_skill": 40})


def turn_of(enc: dict, id: str, **rolls: int) -> dict:
    """Advance until it is ``id``'s turn."""
    for _ in range(10):
        if enc["turn"] is not None and enc["order"][enc["turn"]] == id:
            return enc
        enc = step(enc, "next", seed=1, **({"roll": rolls} if rolls and enc["turn"] is None else {}))
    raise AssertionError(f"{id} never got a turn")


def end_round(enc: dict, **rolls: int) -> dict:
    """Advance to the next round's first turn (its initiative rolls given by id)."""
    start = enc["round"]
    while enc["round"] == start:
        last = enc["turn"] is None or enc["turn"] == len(enc["order"]) - 1
        enc = step(enc, "next", seed=1, **({"roll": rolls} if rolls and last else {}))
    return enc
