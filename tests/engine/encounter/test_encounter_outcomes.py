"""Each step's `outcomes`: one line for each combatant it changed, shown on that combatant's card
(issue 38: the answer where the thumb is); and `attack_refused`, why a combatant's turn offers no
attack, in the words the refused step would give."""

from __future__ import annotations

from encounter_helpers import call, cyno_fight, opencore_fight, refused, status, step, turn_of


def lines(answer: dict) -> dict[str, str]:
    return {o["id"]: o["text"] for o in answer["outcomes"]}


def test_an_attack_that_hits_says_what_it_cost_on_both_cards() -> None:
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    # Buck's Sword (1d8+STR modifier) through the orc's Toughness 5; a slash critical 75 on the rest
    answer = call("attack", encounter=enc, attacker="p1", target="o1", attack_roll=90, defense_roll=5, damage_roll=8,
                  critical_roll=75)
    detail = answer["events"][0]["detail"]
    wound = detail["wound"]
    lost = 20 - wound["hp"]
    said = lines(answer)
    assert said["p1"].startswith(f"Hit Orc: {lost} HP lost, {wound['hp']} of 20 left")
    assert said["o1"].startswith(f"Hit by Buck: {lost} HP lost, {wound['hp']} of 20 left")
    assert f"Toughness took {wound['to_toughness']} (0 left)" in said["o1"]
    for effect in status(answer["encounter"], "o1")["effects"]:  # the critical's effects, as the badges word them
        assert effect in said["o1"]


def test_a_miss_says_why_on_the_attackers_card_and_who_missed_on_the_targets() -> None:
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    answer = call("attack", encounter=enc, attacker="p1", target="o1", attack_roll=30, defense_roll=90)
    assert lines(answer) == {"p1": f"Missed Orc ({answer['events'][0]['detail']['reason']})", "o1": "Buck missed"}


def test_a_hit_that_armor_stops_says_what_the_armor_took_never_a_bare_zero() -> None:
    enc = turn_of(opencore_fight(), "o1", p1=1, o1=20)
    # Buck's Chain Mail takes a small club hit whole
    answer = call("attack", encounter=enc, attacker="o1", target="p1", attack_roll=90, defense_roll=30, damage_roll=4)
    wound = answer["events"][0]["detail"]["wound"]
    assert wound["to_hp"] == 0 and wound["to_armor"] == 4
    assert lines(answer) == {"o1": f"Hit Buck: armor took 4 ({wound['armor']} left)",
                             "p1": f"Hit by Orc: armor took 4 ({wound['armor']} left)"}


def test_a_stunned_combatants_turn_says_why_there_is_no_attack_in_the_refusals_words() -> None:
    enc = turn_of(opencore_fight(), "o1", p1=1, o1=20)
    assert status(enc, "o1")["attack_refused"] is None
    enc = step(enc, "crit", target="p1", type="impact", roll=75)  # stun 1 round
    enc = step(enc, "next", seed=1)
    reason = status(enc, "p1")["attack_refused"]
    assert reason == "Buck is stunned: unable to attack"
    assert reason in refused("attack", encounter=enc, attacker="p1", target="o1")
    assert status(enc, "p1")["action_refused"] is None  # Defense and Bide are still open


def test_an_attack_taken_closes_the_turns_action_with_the_words_a_second_tap_would_get() -> None:
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    enc = step(enc, "attack", attacker="p1", target="o1", attack_roll=30, defense_roll=90)
    reason = status(enc, "p1")["action_refused"]
    assert reason == "Buck has taken this round's action" == status(enc, "p1")["attack_refused"]
    assert reason in refused("attack", encounter=enc, attacker="p1", target="o1")


def test_a_cyno_strike_shows_the_damage_and_a_dodge_that_held() -> None:
    enc = turn_of(cyno_fight(), "p1", p1=4, g1=1)
    answer = call("strike", encounter=enc, attacker="p1", target="g1", roll=15, damage_roll=7)
    said = lines(answer)
    assert said["p1"] == "Hit Sid: 7 DP lost, 13 of 20 left"
    assert said["g1"] == "Hit by Kristine: 7 DP lost, 13 of 20 left"
    dodged = call("strike", encounter=enc, attacker="p1", target="g1", roll=12, defense="dodge", defense_roll=20)
    said = lines(dodged)
    assert said["p1"] == "Hit Sid, but the dodge held" and said["g1"].startswith("Kristine hit, the dodge held")


def test_cyno_no_action_left_is_said() -> None:
    enc = turn_of(cyno_fight(), "p1", p1=4, g1=1)
    enc = step(enc, "strike", attacker="p1", target="g1", roll=2)
    enc = step(enc, "strike", attacker="p1", target="g1", roll=2)
    assert status(enc, "p1")["attack_refused"] == "Kristine has no action left this turn"
    assert status(enc, "g1")["attack_refused"] is None


def test_the_round_end_says_bleeding_and_effects_that_ended_and_nothing_else() -> None:
    enc = turn_of(opencore_fight(), "o1", p1=1, o1=20)
    enc = step(enc, "crit", target="p1", type="slash", roll=75)  # bloodloss
    enc = step(enc, "next", seed=1)  # Buck's turn, the round's last
    answer = call("next", encounter=enc, seed=1)  # the round's end: bloodloss at the end of the round
    said = lines(answer)
    assert said.get("p1", "").startswith("1 HP lost, ")
    assert "o1" not in said
    assert call("show", encounter=enc)["outcomes"] == []


def test_a_strikes_modifiers_read_as_a_sentence_with_no_stray_full_stop() -> None:
    enc = call("start", rules="cyno")["encounter"]
    for name, side in (("Ace", "crew"), ("Ganger", "gang")):
        enc = step(enc, "add", name=name, side=side, typical=True, score={"weaponry_skill": 40})
    enc = turn_of(enc, "c1", c1=3, g1=1)
    answer = call("strike", encounter=enc, attacker="c1", target="g1", roll=8, condition=["half-cover"])
    text = answer["events"][0]["text"]
    assert text.startswith("Ace strikes Ganger: 8 +0 (coordination 10) -2 (Weaponry skill lower than 41%) "
                           "-2 (Half of the target is behind cover) = 4"), text
    assert ".)" not in text


def test_initiative_with_no_one_in_the_encounter_says_what_to_do_first() -> None:
    enc = call("start", rules="opencore")["encounter"]
    assert refused("next", encounter=enc, seed=1) == "no one is in the encounter yet: add the combatants first, then roll initiative"


def test_a_critical_by_hand_with_no_extra_damage_says_so_never_minus_zero() -> None:
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    answer = call("crit", encounter=enc, target="o1", type="impact", roll=1)  # "no extra damage"
    text = answer["events"][0]["text"]
    assert "no HP lost: 20 HP" in text and "-0" not in text, text
