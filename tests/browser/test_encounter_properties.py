"""Property tests of the encounter page (issue 39, item 3): generated sequences of steps, taps,
quick double taps, taps in two tabs at the same instant, reloads and back/forward, in two tabs of
one browser (they share storage), each sequence checked against the engine's own replay.

The model is the list of steps the page said it kept, in the order they were kept: after every
step each tab's words are read (its answer, a refusal, or nothing for a second tap not taken),
and each step said kept is replayed on CPython (rollbook.api) from the state the model holds. So:

- a step said kept must have been made from the last kept state (else one was lost) and with the
  encounter's next seed; replayed, it gives the state kept; a step said refused changes nothing;
- what storage holds, and what every tab draws (after a reload too), is the replay's state:
  round, turn, each combatant's name and HP or DP, the number of steps Undo can take back.

Seeded: a failing sequence prints its seed and steps; ROLLBOOK_PROPERTY_SEED=N replays it,
ROLLBOOK_PROPERTY_RUNS=K runs K sequences (fixed seeds unless ROLLBOOK_PROPERTY_FRESH=1), and
ROLLBOOK_PROPERTY_STEPS the steps of each. The default fits ~2 minutes on a loaded 2-core machine.
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Page, TimeoutError as PlaywrightTimeout, expect

from browserkit import ENGINE_TIMEOUT_MS, encounter_quiet
from rollbook import api
from vocabulary import engine_words

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

KEY = "rollbook.kept.v1"
RUNS = int(os.environ.get("ROLLBOOK_PROPERTY_RUNS", "3"))
STEPS = int(os.environ.get("ROLLBOOK_PROPERTY_STEPS", "16"))
if os.environ.get("ROLLBOOK_PROPERTY_SEED"):
    SEEDS = [int(os.environ["ROLLBOOK_PROPERTY_SEED"])]
elif os.environ.get("ROLLBOOK_PROPERTY_FRESH"):
    SEEDS = [random.SystemRandom().randrange(10**6) for _ in range(RUNS)]
else:
    # and the sequences that once failed, kept: 408231 ends with Attack in one tab and Undo in the
    # other at the same instant; the Attack refused "Not kept: changed in another tab" was shown at
    # no place, as Undo had taken its form away with the turn (fresh seeds, 2026-12-06)
    SEEDS = [3901 + n for n in range(RUNS)] + [408231]

# Every request the page sends its engine worker, handed to the test with the page it came from
# (a binding: it outlives the page's navigations, so a step cut short by one is still known).
ASKED = """
const PageWorker = Worker;
globalThis.Worker = class extends PageWorker {
  postMessage(message, ...rest) {
    if (message?.request) globalThis.__rollbookAsked?.(JSON.stringify(message.request));
    super.postMessage(message, ...rest);
  }
};
"""
# What a tab's tracker says before a tap, to tell afterwards what the tap was answered with.
BEFORE = """() => {
  const t = document.querySelector("rollbook-encounter");
  globalThis.__before = t && { t, mine: t.mine, problem: t.problem, step: t.step, ended: t.ended };
  return Boolean(t);
}"""
SAID = """() => {
  const t = document.querySelector("rollbook-encounter"), b = globalThis.__before;
  if (!t || !b || b.t !== t) return null; // reloaded or navigated: the tap's words are gone
  const problem = t.problem !== b.problem && t.problem ? t.problem.message : null;
  const shown = problem ? [...t.querySelectorAll(".rollbook-problem")].some((p) => p.textContent.includes(problem)) : true;
  return { mine: t.mine !== b.mine, problem, shown, step: t.step !== b.step ? (t.step?.title ?? "") : null,
           said: t.said, ended: Boolean(t.ended) && t.ended !== b.ended };
}"""
# What a tab draws of the encounter: its heading, each card's name and first bar, Undo's count.
SHOWN = """() => {
  const t = document.querySelector("rollbook-encounter");
  if (!t || !t.classList.contains("rollbook-widget")) return { drawn: false };
  if (t.querySelector(".rollbook-encounter__start")) return { drawn: true, fight: null };
  const head = t.querySelector(".rollbook-encounter__now");
  if (!head) return { drawn: true, fight: "unreadable", text: t.innerText.slice(0, 300) };
  return { drawn: true, fight: {
    head: head.textContent.replace(/\\s+/g, " ").trim(),
    cards: [...t.querySelectorAll("li.rollbook-combatant")].map((li) => {
      const h = li.querySelector(".rollbook-combatant__name");
      const side = h.querySelector(".rollbook-combatant__side")?.textContent ?? "";
      return { id: li.dataset.id, name: h.textContent.slice(0, h.textContent.length - side.length).trim(),
               bar: li.querySelector(".rollbook-meter__value")?.textContent.trim() ?? null };
    }),
    undo: t.querySelector(".rollbook-encounter__undo")?.textContent.trim(),
  } };
}"""
# Each tab taps its button at the same instant of the browser's clock (one Playwright call after
# the other is too late: the first tab's step has reached the second by then). Each notes that its
# timer has fired: on a loaded machine one can fire after the wait that followed, and its step then
# came after the state was read (a run of pytest -n 3 read the kept encounter mid-step so).
AT_THE_SAME_INSTANT = """([at, selector, text, twice]) => setTimeout(() => {
  const button = [...document.querySelectorAll(selector)].find((b) => !text || b.textContent.trim() === text);
  button?.click();
  if (twice) button?.click();
  window.rollbookTapped = true;
}, at - Date.now())"""
WRITES = {"encounter start", "encounter add", "encounter remove", "encounter next", "encounter attack", "encounter action",
          "encounter damage", "encounter crit", "encounter heal", "encounter stabilize", "encounter effect",
          "encounter end-effect", "encounter surprise", "encounter hold", "encounter strike"}
# Hostile and ordinary values a player may type: names at and past the engine's 80 characters,
# markup, the prototype's names, blanks, numbers as words or past any limit.
NAMES = ["Orc", "Goblin", "A" * 80, "B" * 81, "<img src=x onerror=alert(1)>", "__proto__", "constructor", "  Ünïcødé 🐉  ",
         "", "Orc", "toString", "Zed"]
AMOUNTS = ["3", "7", "0", "-2", "abc", "1e3", "99999999999999999999", " 5 ", "", "12"]


# Clicks that reached their target, counted where they end (a click Playwright's own hit check
# stops, on the way to another element, is not counted): see press().
TAPS = "addEventListener('click', () => { window.rollbookTaps = (window.rollbookTaps ?? 0) + 1; });"


def press(button: Any, twice: bool = False) -> None:
    """A tap; `twice`: two in one task, the second before anything of the first has happened. A
    tap the sticky header or the Next bar would take (the page moved under the pointer while another
    tab's step was drawn) is made on the button itself: what is tested is what the tap does."""
    if twice:
        button.evaluate("(b) => { b.click(); b.click(); }")
        return
    taps = button.page.evaluate("window.rollbookTaps ?? 0")
    try:
        button.click(timeout=3000)
    except PlaywrightTimeout:
        # Playwright's time can run out after its click landed (a loaded machine: seed 387444's one
        # tap on "A typical foe" added two, each made from the one before): made again only if not
        if button.page.evaluate("window.rollbookTaps ?? 0") == taps:
            button.evaluate("(b) => b.click()")


def engine(command: str, args: dict[str, Any]) -> dict[str, Any]:
    return json.loads(api.call_json(json.dumps({"command": command, "args": args})))


@dataclass
class Fight:
    """The encounter as the steps the page said it kept make it (replayed on CPython)."""
    current: dict[str, Any]
    undo: list[dict[str, Any]]
    seed: int | None


@dataclass
class Model:
    fight: Fight | None = None
    ended: dict[int, Fight] = field(default_factory=dict)  # tab -> the fight it ended (its Bring it back)
    trail: list[str] = field(default_factory=list)  # what was done, for the failure's message

    def kept_step(self, request: dict[str, Any]) -> None:
        """A step said kept: made from the last kept state, with the next seed; replayed."""
        assert self.fight is not None, "a step said kept with no encounter kept"
        args = request["args"]
        assert args["encounter"] == self.fight.current, \
            f"{request['command']} was made from another state than the last kept one (a step was lost or made twice)"
        if "seed" in args and self.fight.seed is not None:
            assert args["seed"] == self.fight.seed, f"{request['command']} rolled with seed {args['seed']}, the fight's next is {self.fight.seed}"
        answer = engine(request["command"], args)
        assert answer["ok"], f"the page kept a step the engine refuses: {answer['error']['message']}"
        self.fight = Fight(answer["result"]["encounter"], (self.fight.undo + [self.fight.current])[-20:],
                           self.fight.seed + 1 if "seed" in args and self.fight.seed is not None else self.fight.seed)


class Tabs:
    """Two tabs of one browser context on the encounter page, the requests each sends its engine."""

    def __init__(self, context: Any, base_url: str, seed: int) -> None:
        self.base_url = base_url
        self.url = f"{base_url}tools/encounter/?seed={seed}"
        self.asked: list[tuple[Page, dict[str, Any]]] = []
        self.requests_left: list[dict[str, Any]] = []  # a step's requests sent before its tab left the page
        self.errors: list[str] = []
        self.pages = [context.new_page(), context.new_page()]
        for page in self.pages:  # each tab's own (the context is the returning phone, shared by tests)
            page.expose_binding("__rollbookAsked", lambda source, text: self.asked.append((source["page"], json.loads(text))))
            page.add_init_script(ASKED)
            page.add_init_script(TAPS)
        for page in self.pages:
            page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
            page.on("dialog", lambda dialog: (self.errors.append(f"a dialog opened: {dialog.message}"), dialog.dismiss()))
            page.goto(self.url)
            self.ready(page)

    def ready(self, page: Page) -> None:
        tracker = page.locator("rollbook-encounter")
        expect(tracker.locator(".rollbook-encounter__start, .rollbook-encounter__now")).to_have_count(1, timeout=ENGINE_TIMEOUT_MS)
        # the engine's tables and typical combatants asked for (the typed form's weapons, the typical foe)
        page.wait_for_function("() => document.querySelector('rollbook-encounter')?.rulingTitles", timeout=ENGINE_TIMEOUT_MS)

    def quiet(self) -> None:
        """Wait until nothing of the encounter is in flight in either tab."""
        encounter_quiet(*self.pages)

    def requests(self, page: Page, since: int) -> list[dict[str, Any]]:
        return [r for p, r in self.asked[since:] if p == page and r["command"] in WRITES]


def expected_view(fight: Fight | None) -> Any:
    if fight is None:
        return None
    enc = fight.current
    by_id = {c["id"]: c for c in enc["combatants"]}
    active = by_id[enc["order"][enc["turn"]]] if enc.get("turn") is not None else None
    head = "Before the first round" if enc["round"] == 0 else f"Round {enc['round']}" + (f": {active['name']}'s turn" if active else "")
    ordered = [by_id[i] for i in enc["order"] if i in by_id] + [c for c in enc["combatants"] if c["id"] not in enc["order"]]
    bar = (lambda c: f"{c['dp']} / {c['dp_max']}") if enc["rules"] == "cyno" else (lambda c: f"{c['hp']} / {c['hp_max']}")
    return {"head": head, "cards": [{"id": c["id"], "name": c["name"].strip(), "bar": bar(c)} for c in ordered],
            "undo": f"Undo ({len(fight.undo)})" if fight.undo else "Undo"}


def check_kept_and_shown(tabs: Tabs, model: Model, when: str) -> None:
    """Storage holds the model's fight, and every tab draws it (storage events may take a moment)."""
    stored = json.loads(tabs.pages[0].evaluate(f"() => localStorage.getItem('{KEY}')") or "{}").get("encounter")
    fight = model.fight
    if fight is None:
        assert stored is None, f"{when}: an encounter is kept where none should be"
    else:
        assert stored is not None, f"{when}: the encounter the page said it kept is gone"
        assert stored["current"] == fight.current, f"{when}: the kept encounter is not the replay of the steps said kept"
        assert stored["undo"] == fight.undo, f"{when}: Undo's steps are not the replay's"
        assert stored["seed"] == fight.seed, f"{when}: the kept next seed {stored['seed']} is not {fight.seed}"
    want = expected_view(fight)
    for n, page in enumerate(tabs.pages):
        deadline = time.monotonic() + 10
        while True:
            shown = page.evaluate(SHOWN)
            if shown["drawn"] and shown["fight"] == want:
                break
            assert time.monotonic() < deadline, f"{when}: tab {n + 1} draws {shown}, the replay is {want}"
            page.wait_for_timeout(150)


class Sequence:
    """One generated sequence: its random steps, each on a tab, and the model they are checked against."""

    def __init__(self, tabs: Tabs, seed: int) -> None:
        self.tabs = tabs
        self.rng = random.Random(seed)
        self.model = Model()
        self.seed = seed

    def trail(self, words: str) -> None:
        self.model.trail.append(words)

    # --- what a tap was answered with ---------------------------------------------------------

    def said(self, page: Page) -> dict[str, Any] | None:
        return page.evaluate(SAID)

    def problem_words(self, said: dict[str, Any]) -> None:
        if said and said["problem"]:
            assert said["shown"], f"a refusal not shown on the page: {said['problem']}"
            assert engine_words(said["problem"]) == [], f"engine words in a refusal: {said['problem']}"

    def settle_steps(self, acted: list[tuple[Page, int]]) -> None:
        """The tabs that tapped (page, index of the first request the tap could have sent): each step
        said kept is replayed in the order the steps were kept (each made from the one before)."""
        self.tabs.quiet()
        kept: list[dict[str, Any]] = []
        for page, since in acted:
            said = self.said(page)
            self.problem_words(said)
            requests = self.tabs.requests(page, since)
            if said is None:  # the tab left mid-step: kept or not, storage says which
                kept += [r for r in requests if r["command"] != "encounter start"][-1:]
                continue
            if said["mine"]:
                assert not said["problem"], f"a step said kept and refused at once: {said['problem']}"
                assert requests, "a step said kept that asked the engine nothing"
                kept.append(requests[-1])
            elif said["problem"] and requests and "Not kept" not in said["problem"]:
                # refused by the engine: the engine on CPython refuses it too, from the same state
                last = requests[-1]
                if self.model.fight and last["args"].get("encounter") == self.model.fight.current:
                    assert not engine(last["command"], last["args"])["ok"], f"the page refused what the engine takes: {said['problem']}"
        stored = json.loads(self.tabs.pages[0].evaluate(f"() => localStorage.getItem('{KEY}')") or "{}").get("encounter")
        while kept:
            fight = self.model.fight
            now = next((r for r in kept if fight and r["args"]["encounter"] == fight.current), None)
            if now is None:
                if all(r in self.tabs.requests_left for r in kept):
                    break
                assert False, f"steps said kept, none made from the last kept state: {[r['command'] for r in kept]}"
            kept.remove(now)
            if now in self.tabs.requests_left and (stored is None or stored["current"] == fight.current):
                continue  # cut short by leaving the page: not kept, and nothing was said
            self.model.kept_step(now)

    # --- the steps ---------------------------------------------------------------------------

    def tracker(self, page: Page) -> Any:
        return page.locator("rollbook-encounter")

    def tap(self, tab: int, locator: Any, twice: bool = False) -> None:
        page = self.tabs.pages[tab]
        page.evaluate(BEFORE)
        since = len(self.tabs.asked)
        press(locator, twice)
        self.settle_steps([(page, since)])

    def step(self) -> None:
        rng, model = self.rng, self.model
        tab = rng.randrange(2)
        page = self.tabs.pages[tab]
        t = self.tracker(page)
        fight = model.fight
        if page.locator("rollbook-encounter .rollbook-encounter__start").count():
            back = t.get_by_role("button", name="Bring it back")
            if back.count() and rng.random() < 0.4:
                return self.bring_back(tab, back)
            return self.start(tab, "cyno" if rng.random() < 0.25 else "opencore")
        assert fight is not None
        enc = fight.current
        choices = ["typical", "typical", "typed", "next", "next", "undo", "reload", "away", "race", "edit"]
        if enc["round"] > 0:
            choices += ["attack", "attack", "attack", "race", "edit"]
        if len(model.trail) > 6:
            choices.append("end")
        what = rng.choice(choices)
        getattr(self, what.replace("-", "_"))(tab)

    def start(self, tab: int, rules: str) -> None:
        t = self.tracker(self.tabs.pages[tab])
        self.trail(f"tab {tab + 1}: start {rules}")
        t.get_by_label("Rules").select_option(rules)
        page = self.tabs.pages[tab]
        page.evaluate(BEFORE)
        since = len(self.tabs.asked)
        press(t.get_by_role("button", name="Start the encounter"))
        self.tabs.quiet()
        said = self.said(page)
        self.problem_words(said)
        if said and said["step"] == "Encounter started":
            [request] = self.tabs.requests(page, since)
            answer = engine(request["command"], request["args"])
            assert answer["ok"]
            self.model.fight = Fight(answer["result"]["encounter"], [], self.seed)
        else:
            assert said and said["problem"], f"Start answered with nothing: {said}"

    def bring_back(self, tab: int, button: Any) -> None:
        self.trail(f"tab {tab + 1}: bring it back")
        page = self.tabs.pages[tab]
        page.evaluate(BEFORE)
        press(button)
        self.tabs.quiet()
        said = self.said(page)
        if said and said["said"] == "Encounter brought back.":
            assert self.model.fight is None, "said brought back while another encounter is kept"
            self.model.fight = self.model.ended.pop(tab)

    def end(self, tab: int) -> None:
        self.trail(f"tab {tab + 1}: end the encounter")
        page = self.tabs.pages[tab]
        t = self.tracker(page)
        t.locator(".rollbook-encounter__more").evaluate("(d) => { d.open = true; }")
        page.evaluate(BEFORE)
        press(t.get_by_role("button", name="End the encounter"))
        self.tabs.quiet()
        said = self.said(page)
        if said and said["said"] == "Encounter ended.":
            assert self.model.fight is not None
            self.model.ended = {tab: self.model.fight}  # (the other tab's Bring it back, if any, finds one kept or not: its own)
            self.model.fight = None

    def typical(self, tab: int) -> None:
        twice = self.rng.random() < 0.3
        self.trail(f"tab {tab + 1}: a typical foe{' (double tap)' if twice else ''}")
        t = self.tracker(self.tabs.pages[tab])
        self.open_add(t)
        self.tap(tab, t.get_by_role("button", name="A typical foe"), twice)

    def open_add(self, t: Any) -> None:
        add = t.locator("details.rollbook-encounter__add")
        add.evaluate("(d) => { d.open = true; }")

    def typed(self, tab: int) -> None:
        name, side = self.rng.choice(NAMES), self.rng.choice(["foes", "players", "", "<b>x</b>"])
        self.trail(f"tab {tab + 1}: add {name!r} of side {side!r}")
        t = self.tracker(self.tabs.pages[tab])
        self.open_add(t)
        form = t.locator("form[data-anchor=add]")
        form.get_by_label("Name").fill(name)
        form.get_by_label("Side").fill(side)
        if self.fight_rules() == "opencore":
            form.get_by_label("HP", exact=True).fill(self.rng.choice(AMOUNTS))
        else:
            form.get_by_label("DP", exact=True).fill(self.rng.choice(AMOUNTS))
        self.tap(tab, form.get_by_role("button", name="Add to the encounter"))

    def fight_rules(self) -> str:
        assert self.model.fight is not None
        return self.model.fight.current["rules"]

    def next(self, tab: int) -> None:
        twice = self.rng.random() < 0.3
        self.trail(f"tab {tab + 1}: Next{' (double tap)' if twice else ''}")
        self.tap(tab, self.tracker(self.tabs.pages[tab]).locator(".rollbook-encounter__next"), twice)

    def undo(self, tab: int) -> None:
        t = self.tracker(self.tabs.pages[tab])
        if not t.locator(".rollbook-encounter__undo").is_enabled():
            return self.next(tab)
        twice = self.rng.random() < 0.3
        self.trail(f"tab {tab + 1}: Undo{' (double tap)' if twice else ''}")
        page = self.tabs.pages[tab]
        page.evaluate(BEFORE)
        press(t.locator(".rollbook-encounter__undo"), twice)
        self.tabs.quiet()
        said = self.said(page)
        self.problem_words(said)
        if said and said["mine"]:
            assert said["step"] == "Undone"
            self.undone()

    def undone(self) -> None:
        fight = self.model.fight
        assert fight is not None and fight.undo, "said undone with nothing to undo"
        self.model.fight = Fight(fight.undo[-1], fight.undo[:-1], fight.seed)

    def attack(self, tab: int) -> None:
        t = self.tracker(self.tabs.pages[tab])
        button = t.locator("li[aria-current='true'] .rollbook-encounter__attack")
        if not button.count():
            return self.next(tab)
        twice = self.rng.random() < 0.3
        self.trail(f"tab {tab + 1}: {button.inner_text()}{' (double tap)' if twice else ''}")
        self.tap(tab, button, twice)

    def edit(self, tab: int) -> None:
        fight = self.model.fight
        assert fight is not None
        if not fight.current["combatants"]:
            return self.typical(tab)
        who = self.rng.choice(fight.current["combatants"])
        t = self.tracker(self.tabs.pages[tab])
        card = t.locator(f"li.rollbook-combatant[data-id='{who['id']}']")
        label = "Damage or HP" if fight.current["rules"] == "opencore" else "Damage or DP"
        # the card's Edit fold (a Cyno card's Strike options is a fold of the same class)
        edit = card.locator("details.rollbook-combatant__edit").filter(has=self.tabs.pages[tab].get_by_label(label))
        edit.evaluate("(d) => { d.open = true; }")
        amount = self.rng.choice(AMOUNTS)
        card.get_by_label(label).fill(amount)
        action = self.rng.choice(["Damage", "Heal", "Damage"])
        self.trail(f"tab {tab + 1}: {action} {amount!r} to {who['name']!r}")
        self.tap(tab, card.get_by_role("button", name=action, exact=True), self.rng.random() < 0.2)

    def reload(self, tab: int) -> None:
        self.trail(f"tab {tab + 1}: reload")
        page = self.tabs.pages[tab]
        page.reload()
        self.tabs.ready(page)
        check_kept_and_shown(self.tabs, self.model, f"after {self.model.trail[-1]}")

    def away(self, tab: int) -> None:
        """Next tapped, then at once another page and back: the step is kept whole or not at all."""
        self.trail(f"tab {tab + 1}: Next, then away and back before its answer")
        page = self.tabs.pages[tab]
        since = len(self.tabs.asked)
        page.evaluate(BEFORE)
        press(self.tracker(page).locator(".rollbook-encounter__next"))
        page.wait_for_timeout(self.rng.choice([0, 30, 120]))
        page.goto(self.tabs.base_url + "tools/roller/")
        page.go_back()
        self.tabs.ready(page)
        self.tabs.requests_left = self.tabs.requests(page, since)
        self.settle_steps([(page, since)])
        self.tabs.requests_left = []

    def race(self, tab: int) -> None:
        """Both tabs tap at the same instant: Next, Undo, Attack or a typical foe, one each."""
        fight = self.model.fight
        assert fight is not None
        buttons = [(".rollbook-encounter__next", ""), (".rollbook-encounter__pick", "A typical foe")]
        if fight.undo:
            buttons.append((".rollbook-encounter__undo", ""))
        if fight.current["round"] > 0:
            buttons.append(("li[aria-current='true'] .rollbook-encounter__attack", ""))
        picks = [self.rng.choice(buttons) for _ in self.tabs.pages]
        self.trail(f"both tabs at the same instant: {[text or selector for selector, text in picks]}")
        for page in self.tabs.pages:
            if any(text for _, text in picks):
                self.open_add(self.tracker(page))
            page.evaluate(BEFORE)
        since = len(self.tabs.asked)
        at = self.tabs.pages[0].evaluate("Date.now()") + 500  # time enough for both calls on a loaded machine
        for page, (selector, text) in zip(self.tabs.pages, picks):
            page.evaluate("() => { window.rollbookTapped = false; }")
            page.evaluate(AT_THE_SAME_INSTANT, [at, f"rollbook-encounter {selector}", text, False])
        for page in self.tabs.pages:
            page.wait_for_function("() => window.rollbookTapped", timeout=ENGINE_TIMEOUT_MS)
        self.tabs.pages[0].wait_for_timeout(150)
        undone = []
        for page, (selector, _) in zip(self.tabs.pages, picks):
            if "undo" in selector:
                said = self.said(page)
                if said and said["mine"] and said["step"] == "Undone":
                    undone.append(page)
        if undone:  # an Undo kept: its place among the steps is by the state it was made from
            self.tabs.quiet()
            assert len(undone) == 1 or self.fail("two Undos said kept at the same instant")
            other = [p for p in self.tabs.pages if p not in undone]
            steps = [r for p in other for r in self.tabs.requests(p, since)] if other and self.said(other[0])["mine"] else []
            fight = self.model.fight
            if steps and steps[-1]["args"]["encounter"] == fight.current:
                self.model.kept_step(steps[-1])
                self.undone()
            else:
                self.undone()
                if steps:
                    self.model.kept_step(steps[-1])
            for p in self.tabs.pages:
                self.problem_words(self.said(p))
            return
        self.settle_steps([(page, since) for page in self.tabs.pages])

    def fail(self, words: str) -> bool:
        raise AssertionError(words)


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_steps_in_two_tabs_keep_what_was_said_kept_and_show_the_engines_replay(phone, base_url: str, seed: int) -> None:
    tabs = Tabs(phone, base_url, seed)
    sequence = Sequence(tabs, seed)
    try:
        for _ in range(STEPS):
            began = time.monotonic()
            sequence.step()
            if os.environ.get("ROLLBOOK_PROPERTY_TRACE"):
                print(f"{time.monotonic() - began:5.1f} s  {sequence.model.trail[-1] if sequence.model.trail else ''}")
            tabs.quiet()
            check_kept_and_shown(tabs, sequence.model, f"after {sequence.model.trail[-1]}")
            assert tabs.errors == [], tabs.errors
        for page in tabs.pages:  # what a reload shows: every step said kept, none said refused
            page.reload()
            tabs.ready(page)
        check_kept_and_shown(tabs, sequence.model, "after reloading both tabs")
        assert tabs.errors == [], tabs.errors
    except Exception as error:  # (the model's own slip, a KeyError say, is reported with its steps too)
        steps = "\n  ".join(sequence.model.trail)
        raise AssertionError(f"{type(error).__name__}: {error}\nseed {seed} (replay: ROLLBOOK_PROPERTY_SEED={seed} "
                             f"ROLLBOOK_PROPERTY_STEPS={STEPS}), steps:\n  {steps}\n{shown(tabs)}") from error


def shown(tabs: Tabs) -> str:
    """What each tab shows and its engine says, for a failure's report (a timing seldom replays)."""
    lines = []
    for n, page in enumerate(tabs.pages, start=1):
        try:
            text = page.locator("rollbook-encounter").inner_text(timeout=2000)
            engine_state = page.evaluate("() => document.querySelector('.rollbook-engine-state')?.textContent ?? null")
        except Exception as error:  # noqa: BLE001 (a report of what could be read: never a second failure)
            text, engine_state = f"(unreadable: {error})", None
        lines.append(f"tab {n} shows ({page.url}, engine notice {engine_state!r}):\n    " + text.replace("\n", "\n    ")[:1500])
    return "\n".join(lines)
