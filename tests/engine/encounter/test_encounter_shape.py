"""The encounter as data: checked on the way in, bounded, and every step pure and explained."""

from __future__ import annotations

import copy
import json

import pytest
from encounter_helpers import BUCK, call, cyno_fight, opencore_fight, refused, step
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook import api
from rollbook.encounter import shape


@pytest.mark.parametrize(("change", "message"), [
    (lambda e: e.update(encounter=2), "The encounter was kept by a newer version of Rollbook"),
    (lambda e: e.pop("round"), "The round is missing"),
    (lambda e: e["combatants"][1].update(hp="12"), "Orc's HP: enter a whole number from -1,000,000 to 1,000,000"),
    (lambda e: e["combatants"][0].update(dex=101), "Buck's DEX: 101 is out of range; enter a whole number from 0 to 100"),
    (lambda e: e["combatants"][0].update(mana=3), "Buck has a value this version of Rollbook does not know"),
    (lambda e: e["combatants"][0]["effects"].append({"kind": "sleep"}),
     "Buck's effect 1 is “sleep”, an effect Rollbook does not know"),
    (lambda e: e["combatants"][0]["effects"].append({"kind": "stun", "rounds": None, "dealt": 0, "ends": "rounds"}),
     "Buck's effect 1: an effect that counts down needs its rounds left"),
    (lambda e: e["rulings"].update(death_at="never"), "The ruling on death: choose one of: negative-con, zero"),
    (lambda e: e.update(order=["p1", "zz"]), "The encounter's turn order must name each combatant once"),
    (lambda e: e["combatants"][1].update(id="p1"), "The encounter's combatants: two of them have the same id “p1”"),
])
def test_a_bad_encounter_is_refused_naming_the_field_as_the_page_does(change, message):
    enc = opencore_fight()
    change(enc)
    assert refused("show", encounter=enc).startswith(message)


def test_steps_never_change_the_encounter_they_are_given():
    """Undo is taking the previous encounter back: it must be exactly as it was."""
    enc = step(opencore_fight(), "next", seed=4)
    before = copy.deepcopy(enc)
    call("attack", encounter=enc, attacker=enc["order"][0], target=enc["order"][1], seed=9)
    call("damage", encounter=enc, target="o1", amount=40, critical_type="impact", seed=2)
    assert enc == before


def test_the_log_keeps_the_last_entries_and_counts_them_all():
    enc = opencore_fight()
    for n in range(shape.LOG_KEPT + 5):
        enc = step(enc, "effect", who="p1", kind="note", text=f"note {n}")
    assert len(enc["log"]) == shape.LOG_KEPT and enc["logged"] == shape.LOG_KEPT + 8
    assert enc["log"][-1]["text"] == f"Buck: note {shape.LOG_KEPT + 4} (by hand)"


def busy_encounter(count: int) -> dict:
    """``count`` combatants fighting until the log is full and effects pile up."""
    enc = call("start", rules="opencore")["encounter"]
    for n in range(count):
        enc = step(enc, "add", name=f"Fighter number {n + 1:02d} of the long-named company", side=("orcs", "players")[n % 2],
                   score={**BUCK, "hp": 300, "hp_max": 300, "toughness": 5}, weapon="Sword", armor_name="Chain Mail")
    for seed in range(8 * count):
        now = enc["order"][enc["turn"]] if enc["turn"] is not None else None
        if now is not None:
            target = enc["order"][(enc["turn"] + 1) % len(enc["order"])]
            answer = api.call({"command": "encounter attack", "args": {"encounter": enc, "attacker": now, "target": target,
                                                                        "attack_roll": 95, "seed": seed}})
            enc = answer["result"]["encounter"] if answer["ok"] else enc
        enc = step(enc, "next", seed=seed)
    return enc


@pytest.mark.parametrize("count", [12, shape.MOST_COMBATANTS])
def test_an_encounter_with_its_log_fits_in_a_request(count):
    enc = busy_encounter(count)
    assert len(enc["log"]) == shape.LOG_KEPT
    request = api.dumps({"command": "encounter next", "args": {"encounter": enc, "seed": 1}})
    assert len(request) < api.MAX_REQUEST_CHARS * (0.4 if count == 12 else 0.8)
    assert json.loads(api.call_json(request))["ok"]


def test_start_writes_every_ruling_and_refuses_the_other_rule_sets():
    enc = call("start", rules="cyno")["encounter"]
    assert enc["rulings"] == {"impossible_dodge": "costs-action", "failed_skilled_parry": "free", "aim_lines": "natural",
                              "target_size": "one", "ranged_parry": "blow-only"}
    assert "belongs to the other rule set" in refused("start", rules="cyno", death_at="zero")
    assert "is a rule of OpenCore" in refused("attack", encounter=cyno_fight(), attacker="p1", target="g1")


# --- properties over random fights --------------------------------------------------------------

ACTIONS = st.lists(st.tuples(st.sampled_from(["next", "attack", "damage", "crit", "heal", "stabilize", "effect"]),
                             st.integers(0, 10**6)), min_size=1, max_size=25)


def random_step(enc: dict, action: str, n: int) -> dict | None:
    """One step chosen from ``n``; the answer (None when the rules refuse it, which is fine)."""
    ids = [c["id"] for c in enc["combatants"]]
    target = ids[n % len(ids)]
    args: dict = {
        "next": {"seed": n},
        "attack": {"attacker": enc["order"][enc["turn"]] if enc["turn"] is not None else ids[0], "target": target,
                   "seed": n},
        "damage": {"target": target, "amount": n % 45, "critical_type": "slash", "seed": n},
        "crit": {"target": target, "type": ("slash", "impact", "puncture", "shrapnel", "burn")[n % 5], "seed": n},
        "heal": {"target": target, "amount": 1 + n % 20},
        "stabilize": {"target": target},
        "effect": {"who": target, "kind": "stun", "rounds": 1 + n % 3},
    }[action]
    answer = api.call({"command": f"encounter {action}", "args": {"encounter": enc, **args}})
    return answer["result"] if answer["ok"] else None


@settings(max_examples=60)
@given(ACTIONS, st.sampled_from(["after-dealt", "dealt-round"]), st.sampled_from(["end-of-round", "own-turn"]))
def test_random_fights_keep_their_promises(actions, rounds_count, bloodloss_at):
    enc = opencore_fight(rounds_count=rounds_count, bloodloss_at=bloodloss_at)
    dealt: dict[tuple, int] = {}  # (who, kind, round dealt) -> the rounds dealt
    for action, n in actions:
        before = copy.deepcopy(enc)
        answer = random_step(enc, action, n)
        assert enc == before  # undo: the encounter given is untouched
        if answer is None:
            continue
        enc = answer["encounter"]
        assert json.loads(json.dumps(enc)) == enc and shape.checked(enc) == enc  # survives a JSON round trip
        for c in enc["combatants"]:  # HP never changes without a logged cause
            old = next(o for o in before["combatants"] if o["id"] == c["id"])
            logged = sum(e.get("hp", 0) for e in answer["events"] if e["who"] == c["id"])
            assert c["hp"] - old["hp"] == logged, answer["text"]
        for c in enc["combatants"]:  # effects never last longer than dealt
            new = {e["effect"] for e in answer["events"] if e["kind"] == "effect" and e["who"] == c["id"]}
            for item in c["effects"]:
                if item["rounds"] is None:
                    continue
                key = (c["id"], item["kind"], item["dealt"])
                if item["kind"] in new and item["dealt"] == enc["round"]:
                    dealt[key] = max(dealt.get(key, 0), item["rounds"])
                assert item["rounds"] <= dealt[key]
                # dealt before round 1, an effect counts from round 1 under either reading
                last = item["dealt"] + dealt[key] - (rounds_count == "dealt-round" and item["dealt"] > 0)
                assert enc["round"] <= last, (item, enc["round"])


# --- the command line over a file ---------------------------------------------------------------


def test_the_command_line_reads_and_writes_the_encounter_file(tmp_path, capsys):
    from rollbook import cli

    path = str(tmp_path / "fight.json")
    assert cli.main(["encounter", "start", "--rules", "opencore", "--out", path]) == 0
    assert cli.main(["encounter", "add", path, "--name", "Buck", "--side", "players", "--score", "con=32",
                     "--score", "dex=80", "--score", "hp=64", "--score", "attack_skill=60", "--score",
                     "defense_skill=40", "--score", "str=76", "--weapon", "Sword"]) == 0
    assert cli.main(["encounter", "add", path, "--name", "Orc", "--side", "orcs", "--score", "con=30", "--score",
                     "dex=40", "--score", "hp=20", "--score", "attack_skill=40", "--score", "defense_skill=20",
                     "--weapon", "Rifle"]) == 0
    capsys.readouterr()
    assert cli.main(["encounter", "next", path, "--roll", "p1=20", "--roll", "o1=1", "--seed", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "Round 1: Buck's turn"
    with open(path, encoding="utf-8") as saved:
        enc = json.load(saved)
    assert enc["round"] == 1 and enc["order"] == ["p1", "o1"]
    assert cli.main(["encounter", "show", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"][0]["state"] == "conscious"
    assert cli.main(["encounter", "attack", path, "--attacker", "o1", "--target", "p1"]) == 2
    assert "it is Buck's turn, not Orc's" in capsys.readouterr().err
    with open(path, encoding="utf-8") as saved:
        assert json.load(saved) == enc  # a refused step leaves the file as it was


def test_removing_a_combatant_keeps_the_turn_where_it_was():
    enc = step(opencore_fight(), "add", name="Grak", side="orcs", score={**BUCK, "dex": 1}, weapon="Sword")
    enc = step(enc, "next", roll={"p1": 20, "o1": 10, "o2": 1}, seed=1)
    enc = step(enc, "next", seed=1)  # the orc's turn, second of three
    assert "Orc is acting now, so cannot leave yet (move on to the next turn, then remove Orc)" == refused("remove", encounter=enc, who="o1")
    enc = step(enc, "remove", who="p1")
    assert enc["order"] == ["o1", "o2"] and enc["order"][enc["turn"]] == "o1"
    assert "initiative is rolled when a round begins" in refused("next", encounter=enc, roll={"o1": 3}, seed=1)


def test_an_effect_ends_by_its_place_or_all_of_its_kind():
    enc = step(opencore_fight(), "effect", who="p1", kind="stun", rounds=2)
    enc = step(enc, "effect", who="p1", kind="stun", rounds=1)
    enc = step(enc, "effect", who="p1", kind="note", text="blinded by sand")
    assert [e["rounds"] for e in step(enc, "end-effect", who="p1", index=0)["combatants"][0]["effects"]] == [1, None]
    assert [e["kind"] for e in step(enc, "end-effect", who="p1", kind="stun")["combatants"][0]["effects"]] == ["note"]
    assert "Buck no longer has that effect (its effects now: stun, 2 rounds left; stun, 1 round left; blinded by sand)" == refused(
        "end-effect", encounter=enc, who="p1", index=3)
    assert "lasts a number of rounds" in refused("effect", encounter=enc, who="p1", kind="stun")
    assert "takes hp per round" in refused("effect", encounter=enc, who="p1", kind="bloodloss", text="x")


def test_a_location_effect_is_one_of_the_critical_tables_states():
    """A hit location's state is one the critical tables give (LOCATIONS): free text was kept
    before, and a kept encounter could hold a state no rule knows."""
    enc = step(opencore_fight(), "effect", who="p1", kind="location", location="broken", skill_penalty=-30)
    assert enc["combatants"][0]["effects"][-1]["location"] == "broken"
    answer = api.call({"command": "encounter effect", "args": {"encounter": opencore_fight(), "who": "p1", "kind": "location",
                                                                 "location": "elbow", "skill_penalty": -30}})
    assert not answer["ok"] and answer["error"]["fields"] == ["location"]
    assert answer["error"]["message"].startswith("a location is damaged, severely damaged, broken, severed or destroyed, not “elbow”")
    kept = {**opencore_fight()}
    kept["combatants"] = [{**c, "effects": [{**enc["combatants"][0]["effects"][-1], "location": "elbow"}]} if c["id"] == "p1" else c
                          for c in kept["combatants"]]
    assert "choose one of: damaged, severely damaged" in refused("show", encounter=kept)


CYNO_ACTIONS = st.lists(st.tuples(st.sampled_from(["next", "strike", "damage", "heal", "surprise", "hold"]),
                                  st.integers(0, 10**6)), min_size=1, max_size=25)


def random_cyno_step(enc: dict, action: str, n: int) -> dict | None:
    ids = [c["id"] for c in enc["combatants"]]
    now = enc["order"][enc["turn"]] if enc["turn"] is not None else ids[0]
    other = next(i for i in ids if i != now)
    args: dict = {
        "next": {"seed": n},
        "strike": {"attacker": now, "target": other, "defense": ("none", "dodge", "blind-dodge", "parry")[n % 4],
                   "ranged": n % 7 == 0, "seed": n},
        "damage": {"target": ids[n % 2], "amount": n % 25, "level": ("", "da", "d")[n % 3], "seed": n},
        "heal": {"target": ids[n % 2], "amount": 1 + n % 9},
        "surprise": {"who": ids[n % 2], "seed": n},
        "hold": {"who": now, "after": other, "seed": n},
    }[action]
    answer = api.call({"command": f"encounter {action}", "args": {"encounter": enc, **args}})
    return answer["result"] if answer["ok"] else None


@settings(max_examples=60)
@given(CYNO_ACTIONS)
def test_random_cyno_fights_keep_their_promises(actions):
    enc = cyno_fight()
    for action, n in actions:
        before = copy.deepcopy(enc)
        answer = random_cyno_step(enc, action, n)
        assert enc == before
        if answer is None:
            continue
        enc = answer["encounter"]
        assert json.loads(json.dumps(enc)) == enc and shape.checked(enc) == enc
        for c in enc["combatants"]:  # DP never change without a logged cause
            old = next(o for o in before["combatants"] if o["id"] == c["id"])
            assert c["dp"] - old["dp"] == sum(e.get("dp", 0) for e in answer["events"] if e["who"] == c["id"])
            assert 0 <= c["actions_left"] <= c["actions"]
