"""La Révolution française as a Tabletop game: the definition, views and secrets.

The rules are one table, ``table.STACK`` (a framework ``Stack``), over the modules of
each rulebook chapter (``setup`` 4-5, ``initial`` 6, ``actions`` 7.1-7.4, ``political``
7.5/11/13, ``patriot`` 8, ``military`` 9, ``coups`` 12, ``interphase`` 10/14,
``directorate`` R.7.2.2). In each, a decision's prompt, handler and the automatic steps
around it sit together; the tasks themselves are the TypedDicts of ``tasks``. ``bot``
holds the search bot's hints.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tabletop.framework import (
    Action,
    Context,
    GameDefinition,
    GameInfo,
    OptionSpec,
    Prompt,
    Result,
    State,
    views,
)
from tabletop.framework.decisions import Agreement, SecretChoices
from tabletop.framework.packaged import package_text

from . import setup
from .assembly import wings
from .core import (
    PHASES,
    armies_in,
    capital,
    civil_war,
    name,
    paris_controller,
    seat_names,
    seat_of,
    track_level,
)
from .data import CURRENTS, REGIMES, REGION_NAMES, seating
from .directorate import schedule_dieoff, shared_government
from .factions import MARAIS
from .initial.objectives import objective_kinds
from .interphase import objective_status
from .table import STACK
from .words import objective_words


def rules_text() -> str:
    return package_text(__package__, "rules-summary.md")


def _variant(key: str, label: str, help: str, *, on: str = "On") -> OptionSpec:
    """An optional rule of chapter 15: off unless the table turns it on."""
    return OptionSpec(key, label, (("off", "Off"), ("on", on)), "off", help=help)


def _constant(options: list[str]) -> Callable[[int], Sequence[str]]:
    """A resample source that offers every seat the same options."""

    def source(other: int) -> Sequence[str]:
        return options

    return source


class LaRevolutionFrancaise(GameDefinition):
    info = GameInfo(
        id="la-revolution-francaise",
        title="La Révolution française 1791-1795",
        min_players=4,
        max_players=6,
        description="Six political Currents fight for France from the Legislative to Thermidor "
        "(Historical scenario; the Marais is automated with 4 or 5 players).",
        # 0.1.1: the coup offers keep a ResponseWindow (saves mid-offer); 0.1.2 (issue
        # 37): the regime's own outlaws are offered its coups; 0.1.3: impossible
        # objectives are no longer offered, the state keeps what changed since the
        # last recap
        version="0.1.3",
        options=(
            OptionSpec(
                "scenario",
                "Scenario (4.1)",
                (("historical", "Historical"), ("open", "Open: all eleven regimes")),
                "historical",
                help="The Open scenario adds Wrath, Mercy, the Directorate, Prairial, both "
                "First Republics and the coups of chapter 12.",
            ),
            _variant(
                "army_return",
                "Army return (15.1)",
                "Eliminated Catholic & Royal, Austrian and Brunswick armies may come back on a 6.",
            ),
            _variant(
                "euro",
                "Euro-ish variant (15.3)",
                "A double 1 gains a fame point and a double 6 costs one.",
                on="On: doubles reversed",
            ),
        ),
        hidden_information=True,
    )

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return seat_names(players)

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        defaults = {"euro": "off", "scenario": "historical", "army_return": "off"}
        state = setup.new_state(players, {**defaults, **dict(options)})
        setup.start(state, ctx)
        STACK.run(state, ctx)
        return state

    def prompt(self, state: State) -> Prompt | None:
        prompt = STACK.prompt(state)
        shared = state.get("shared")
        if prompt is None or not shared_government(state, prompt):
            return prompt
        waiting = Agreement(shared).next_seat if shared else prompt.seat
        assert waiting is not None
        partner = state["gov"]["partner"]
        return Prompt(
            waiting,
            prompt.text + f" (shared Government: sealed; if the {name(partner)} and the "
            f"{name(state['gov']['controller'])} differ, a die-off decides, R.7.2.2)",
            prompt.choices,
            rule=prompt.rule,
        )

    def explain(self, state: State, prompt: Prompt) -> Prompt:
        """What a person reads and the bots need not: result letters by target,
        objectives, placements (see ``explain``)."""
        return STACK.explain(state, prompt)

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        state["recent_rolls"] = []
        # Only a two-headed Government can share a decision: skip building the prompt
        # otherwise (search bots apply thousands of actions a decision).
        prompt = STACK.prompt(state) if state["gov"].get("partner") else None
        if prompt is not None and shared_government(state, prompt):
            if not state.get("shared"):
                partner_seat = seat_of(state, state["gov"]["partner"])
                assert partner_seat is not None  # shared_government() checked it
                state["shared"] = Agreement.new("Government decision", [prompt.seat, partner_seat])
            agreement = Agreement(state["shared"])
            if not agreement.choose(seat, action, ctx):
                return
            state["shared"] = None
            if len(set(agreement.answers().values())) > 1:
                # R.7.2.2: they differ; the other Currents may back either side (+2),
                # knowing which partner wants what: the answers are public by seat
                agreement.reveal_by_seat(ctx, names=seat_names(state["players"]))
                schedule_dieoff(state, agreement.answers())
                STACK.run(state, ctx)
                return
            # Agreed: the Government's answer. Its rules read the seat from the task
            # (``core.actor_seat``), never from ``ctx.actor``, the partner who answered last.
            action, _ = agreement.settle(ctx, names=seat_names(state["players"]))
        STACK.apply(state, action, ctx)

    # Views -------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        players = state["players"]
        names = seat_names(players)
        mine = seating(players)[seat] if seat is not None else []
        held: dict[str | None, int] = {}
        control: dict[str, list[str]] = {}
        for r in REGION_NAMES:
            holder = state["regions"][r]["control"]
            if r != "Paris":
                held[holder] = held.get(holder, 0) + 1
            control.setdefault(name(holder) if holder else "Neutral", []).append(r)
        paris = paris_controller(state)
        held[paris] = held.get(paris, 0) + 1  # through the Commune when raised (B11)
        rows = []
        for row in seating(players):
            fields: dict[str, Any] = {}
            for c in row:
                cur = state["currents"][c]
                label = "" if len(row) == 1 else f"{c} "
                fields[f"{label}Fame"] = cur["fame"]
                fields[f"{label}Money"] = cur["money"]
                fields[f"{label}Regions"] = held.get(c, 0)
                a = state["assembly"][c]
                fields[f"{label}Deputies"] = (
                    a["count"] if not a["hidden"] or c in mine else "hidden"
                )
            fields["Order"] = ", ".join(
                str(state["order"].index(c) + 1) for c in row if c in state["order"]
            )
            rows.append(fields)
        marais = state["currents"][MARAIS]
        gov = state["gov"]
        table = {
            c: {
                "fame": state["currents"][c]["fame"],
                "money": state["currents"][c]["money"],
                "regions": held.get(c, 0),
                "deputies": (
                    state["assembly"][c]["count"]
                    if not state["assembly"][c]["hidden"] or c in mine
                    else "hidden"
                ),
                "order": state["order"].index(c) + 1 if c in state["order"] else None,
                "automated": seat_of(state, c) is None,
            }
            for c in CURRENTS
        }
        reg = REGIMES[state["regime"]]
        tracks = [
            views.track("Government fame", gov["fame"], 1, 20),
            *[
                views.track(f"{name(c)} fame", state["currents"][c]["fame"], 1, 20)
                for c in CURRENTS
            ],
            *[
                views.track(
                    f"{t.capitalize()} (level {track_level(state, t)})", state["tracks"][t], 1, 20
                )
                for t in ("economy", "clergy", "coalition", "commune")
            ],
        ]
        zones = [
            views.zone(f"Held by the {k}" if k != "Neutral" else "Neutral regions", v)
            for k, v in control.items()
        ]
        zones.append(
            views.zone("Revolts", [r for r in REGION_NAMES if state["regions"][r]["revolt"]])
        )
        zones.append(
            views.zone(
                "Coalition-controlled",
                [r for r in REGION_NAMES if state["regions"][r]["coalition"]],
            )
        )
        zones.append(
            views.zone(
                "Armies",
                [
                    f"{a['id'].replace('_', ' ')} ({a['side']}) at {a['where']}"
                    for a in state["armies"]
                ],
            )
        )
        commune = state["commune"]
        paris_box = (
            [
                "Commune raised"
                + (
                    f" under the {name(commune['controller'])}"
                    if commune["controller"]
                    else ", leaderless"
                )
            ]
            if commune["raised"]
            else []
        )
        zones.append(
            views.zone(
                "Paris box",
                paris_box + [a["id"].replace("_", " ") for a in armies_in(state, "Paris", "rev")],
            )
        )
        by_status: dict[str, list[str]] = {}
        placed: dict[str, list[str]] = {}
        for n, p in state["persons"].items():
            by_status.setdefault(p["status"], []).append(n)
            if p["status"] == "free" and p["where"]:
                placed.setdefault(p["where"], []).append(f"{n} ({p['current']})")
        for status, title in (
            ("prison", "Temple prison"),
            ("dead", "Guillotine"),
            ("fled", "Off the map until next turn"),
            ("exiled", "Exiled"),
            ("captured", "Prisoners of war"),
        ):
            zones.append(views.zone(title, by_status.get(status, [])))
        zones.append(
            views.zone(
                "Personalities on the map", [f"{r}: {', '.join(v)}" for r, v in placed.items()]
            )
        )
        assembly = wings(state)
        zones.append(
            views.zone(
                "Assembly",
                counts={
                    f"{wing} {('hidden' if k == 'hidden' else name(k))}": v
                    for wing, parts in assembly.items()
                    for k, v in parts.items()
                },
            )
        )
        status = (
            f"Turn {state['turn']} of 8, {PHASES.get(state['phase'], state['phase'])}: "
            f"{reg['name']}, "
            f"Government held by the {name(gov['controller'])}"
            + (f" and the {name(gov['partner'])}" if gov.get("partner") else "")
            + (f"; capital at {capital(state)}" if capital(state) != "Paris" else "")
            + ("; foreign war" if state["war"] else "")
            + ("; civil war" if civil_war(state) else "")
        )
        view: dict[str, Any] = {
            "status": status,
            "seats": views.seats(names, rows),
            "tracks": tracks,
            "zones": zones,
            "turn": state["turn"],
            "phase": state["phase"],
            "regime": state["regime"],
            "capital": capital(state),
            "government": {
                "controller": gov["controller"],
                "fame": gov["fame"],
                "money": gov["money"],
                "partner": gov.get("partner"),
            },
            "shared_decision": Agreement(state["shared"]).view_for(seat)
            if state.get("shared")
            else None,
            "marais": {
                "fame": marais["fame"],
                "money": marais["money"],
                "automated": len(seating(players)) < 6,
            },
            "regions": state["regions"],
            "commune": commune,
            "persons": state["persons"],
            "armies": state["armies"],
            "assembly": assembly,
            "war": state["war"],
            "order": state["order"],
            "last_events": state["last_events"],
            "recent_rolls": state["recent_rolls"],
            "currents": table,
            "declared": state.get("declared", {}),
            "declared_words": {
                who: objective_words(value) for who, value in state.get("declared", {}).items()
            },
            "declared_status": {
                who: objective_status(state, who, value)
                for who, value in state.get("declared", {}).items()
            },
            "objectives": {
                who: SecretChoices(data).view_for(seat)
                for who, data in state.get("objectives", {}).items()
            },
        }
        if seat is not None:
            you: dict[str, Any] = {}
            for c in mine:
                a = state["assembly"][c]
                if a["hidden"]:
                    you[f"{name(c)} hidden deputies"] = a["count"]
            for who, data in state.get("objectives", {}).items():
                yours = SecretChoices(data).view_for(seat)["yours"]
                if yours is not None and not state.get("declared"):
                    you[f"Objective of the {name(who)}"] = objective_words(yours)
            view["you"] = you
        if state["result"]:
            view["result"] = state["result"]
        return view

    def result(self, state: State) -> Result | None:
        res = state.get("result")
        if not res:
            return None
        seat_rank = res["seat_rank"]
        winners = tuple(s for s, r in enumerate(seat_rank) if r == 1)
        return Result(
            winners,
            tuple(float(7 - r) for r in seat_rank),
            f"The {name(res['winner'])} wins: {res['why']}.",
        )

    # Secrets -------------------------------------------------------------------------

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        """What ``seat`` cannot know: the other seats' sealed objectives (and the kind
        being chosen), and how hidden deputies split among the other hidden Currents of
        a wing (the wing's total is public)."""
        mine = seating(state["players"])[seat]
        for who, data in state.get("objectives", {}).items():
            sealed = SecretChoices(data)
            if seat in sealed.seats:
                continue
            options = [
                value for pairs in objective_kinds(state, who).values() for value, _ in pairs
            ]
            sealed.resample(seat, _constant(options), ctx.rng)
            if state["objective_kind"].get(who) is not None:
                state["objective_kind"][who] = ctx.rng.choice(sorted(objective_kinds(state, who)))
        shared = state.get("shared")
        if shared:
            prompt = STACK.prompt(state)
            actions_ = [c.action for c in prompt.choices] if prompt is not None else []
            Agreement(shared).resample(seat, _constant(actions_), ctx.rng)
        touched = {m["from"] for m in state["switched"]} | {m["to"] for m in state["switched"]}
        for wing in ("right", "center", "left"):
            hidden = [
                c
                for c, a in state["assembly"].items()
                if a["hidden"] and a["wing"] == wing and c not in mine
            ]
            if len(hidden) < 2 or touched & set(hidden):
                continue
            total = sum(state["assembly"][c]["count"] for c in hidden)
            cuts = sorted(ctx.rng.randint(0, total) for _ in range(len(hidden) - 1))
            parts = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
            for c, n in zip(hidden, parts, strict=True):
                state["assembly"][c]["count"] = n
        return state

    def invariants(self, state: State) -> Sequence[str]:
        problems = []
        for c, cur in state["currents"].items():
            if cur["money"] < 0:
                problems.append(f"{c} has negative money")
            if not 1 <= cur["fame"] <= 20:
                problems.append(f"{c} fame out of range")
        if state["gov"]["money"] < 0:
            problems.append("the Government has negative money")
        for t, v in state["tracks"].items():
            if not 1 <= v <= 20:
                problems.append(f"track {t} out of range")
        for c, a in state["assembly"].items():
            if a["count"] < 0:
                problems.append(f"{c} has negative deputies")
        for p, data in state["persons"].items():
            if data["status"] != "free" and data["where"] is not None and p != "Louis XVI":
                problems.append(f"{p} is {data['status']} but on the map")
        if sum(1 for a in state["armies"] if a["kind"] == "volunteer") > 16:
            problems.append("more than 16 volunteer armies")
        return problems

    def describe(self, state: State) -> str:
        return f"Turn {state['turn']}, {REGIMES[state['regime']]['name']}"

    def rules_summary(self) -> str:
        return rules_text()
