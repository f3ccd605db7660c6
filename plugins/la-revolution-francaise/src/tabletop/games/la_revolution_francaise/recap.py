"""What changed since the last recap: every change of fame (with its reasons), money,
control, armies, the Government and the regime, and the events the numbers alone do not
tell (a bankruptcy, a vote of confidence).

A recap (``ctx.summary``) pauses the screen on a period of the turn: the objectives
(6.4), the Military Phase (9), the Interphase (10), the end (14). The state keeps, in
``state["recap"]``, how things stood when the last recap was shown, why each fame
point moved since and the events to tell (``core.adjust_fame`` and ``core.recap_note``
add to it); ``changes`` compares that with the state now and starts a new
period. Recaps built from the state this way cannot leave out what the log says, which
``test_lrf_recaps.py`` checks over whole games.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import State

from .core import fame, money, name
from .data import CURRENTS, REGIMES, REGION_NAMES
from .words import army_name

HOLDERS = (*CURRENTS, "gov")


def snapshot(state: State) -> dict[str, Any]:
    """How things stand now, for the next recap to compare with."""
    regions = state["regions"]
    gov = state["gov"]
    return {
        "fame": {h: fame(state, h) for h in HOLDERS},
        "money": {h: money(state, h) for h in HOLDERS},
        "control": {r: [regions[r]["control"], regions[r]["coalition"]] for r in REGION_NAMES},
        "armies": {a["id"]: a["side"] for a in state["armies"]},
        "gov": [gov["controller"], gov.get("partner")],
        "regime": state["regime"],
        "why": {},
        "notes": [],
    }


def holder_name(who: str) -> str:
    return "Government" if who == "gov" else name(who)


def _control_words(control: list[Any]) -> str:
    holder, coalition = control
    if coalition:
        return f"the {name(holder)} and the Coalition" if holder else "the Coalition"
    return f"the {name(holder)}" if holder else "neutral"


def changes(state: State) -> list[str]:
    """The lines that tell what changed since the last recap, then start a new period.
    Every holder whose fame moved is named with its reasons even when the moves cancel
    out; money, control, armies, the Government and the regime by what differs."""
    ledger = state.get("recap")
    now = snapshot(state)
    state["recap"] = now
    if ledger is None:
        return []
    lines = list(ledger["notes"])
    for who in HOLDERS:
        reasons: dict[str, int] = {}
        for delta, text in ledger["why"].get(who, []):
            reasons[text] = reasons.get(text, 0) + delta
        before, after = ledger["fame"][who], now["fame"][who]
        if not reasons and before == after:
            continue
        why = ", ".join(f"{delta:+d} {text}" for text, delta in reasons.items())
        lines.append(f"Fame: {holder_name(who)} {before} -> {after}" + (f" ({why})" if why else ""))
    money_parts = [
        f"{holder_name(who)} {ledger['money'][who]} -> {now['money'][who]}"
        for who in HOLDERS
        if ledger["money"][who] != now["money"][who]
    ]
    if money_parts:
        lines.append("Money: " + ", ".join(money_parts))
    control_parts = [
        f"{r}: {_control_words(ledger['control'][r])} -> {_control_words(now['control'][r])}"
        for r in REGION_NAMES
        if ledger["control"][r] != now["control"][r]
    ]
    if control_parts:
        lines.append("Control: " + "; ".join(control_parts))
    new = [army_name(a) for a in now["armies"] if a not in ledger["armies"]]
    gone = [army_name(a) for a in ledger["armies"] if a not in now["armies"]]
    if new:
        lines.append("Armies raised or arrived: " + ", ".join(new))
    if gone:
        lines.append("Armies gone: " + ", ".join(gone))
    if ledger["regime"] != now["regime"]:
        lines.append(
            f"Regime: the {REGIMES[ledger['regime']]['name']} -> "
            f"the {REGIMES[now['regime']]['name']}"
        )
    if ledger["gov"] != now["gov"]:
        lines.append(f"Government: {_gov_words(ledger['gov'])} -> {_gov_words(now['gov'])}")
    return lines


def _gov_words(gov: list[Any]) -> str:
    controller, partner = gov
    return f"the {name(controller)}" + (f" and the {name(partner)}" if partner else "")
