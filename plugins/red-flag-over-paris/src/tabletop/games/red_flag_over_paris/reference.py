"""Reference sections generated from the data files and added to the rules summary.

The rules screen shows the rules summary; these sections make every card (number,
operations value, colour, event text) and the map's directed adjacency readable there
too, from the same data the game plays by, so the two cannot drift apart.
"""

from __future__ import annotations

from functools import cache

from .data import (
    CARDS,
    COMMUNE,
    DIMENSIONS,
    FINAL_CRISIS_CARD,
    HQ,
    OBJECTIVE_IDS,
    POT,
    SPACES,
    STRATEGY_IDS,
    VERSAILLES,
    rules_text,
    space_name,
)


def _card_line(card: int) -> str:
    c = CARDS[card]
    return f"- **#{card} {c.title}** ({c.ops} OP): {c.event.get('text', '')}"


def cards_section() -> str:
    """Every card by colour, then the Final Crisis cards and the objectives."""
    lines = [
        "## Cards",
        "",
        "Every card with its number, operations value (OP) and event. A card's colour says "
        "who may play its event (§7.1); anyone may spend its OP (§7.2).",
    ]
    groups = (
        ("Versailles (blue) cards", [c for c in STRATEGY_IDS if CARDS[c].faction == VERSAILLES]),
        ("Commune (red) cards", [c for c in STRATEGY_IDS if CARDS[c].faction == COMMUNE]),
        ("Gray cards (either side)", [c for c in STRATEGY_IDS if CARDS[c].faction is None]),
        ("Final Crisis cards (§7.8, §12.2)", list(FINAL_CRISIS_CARD)),
    )
    for title, cards in groups:
        lines += ["", f"### {title}", ""]
        lines += [_card_line(c) for c in cards]
    lines += [
        "",
        "### Objective cards (§11)",
        "",
        "Whoever controls the objective's space when objectives are revealed scores 1 VP of "
        "that space's type; the owner who controls it may also perform the event.",
        "",
    ]
    for card in OBJECTIVE_IDS:
        c = CARDS[card]
        lines.append(
            f"- **#{card} {c.title}** — {space_name(c.space or '')}: {c.event.get('text', '')}"
        )
    return "\n".join(lines) + "\n"


def map_section() -> str:
    """The spaces by dimension and the directed adjacency that opens each one (§2.2, §7.2)."""
    lines = [
        "## Map",
        "",
        "A space opens to a side's operations when that side is present there or controls a "
        "space listed after its arrow (§7.2). The arrows are one-way: controlling Royalists "
        "opens National Assembly, not the reverse.",
        "",
    ]
    for dim, meta in DIMENSIONS.items():
        lines.append(f"### {meta['name']} ({meta['kind']})")
        lines.append("")
        for space in SPACES.values():
            if space.dimension == dim:
                star = " (Pivotal)" if space.pivotal else ""
                opened = ", ".join(space_name(a) for a in space.adjacent)
                lines.append(f"- {space.name}{star} <- {opened}")
        lines.append("")
    lines.append("### Off the dimensions")
    lines.append("")
    control = {
        HQ: "always controlled by Versailles",
        POT: "controlled by Versailles when Prussian Collaboration is at 3",
    }
    for s, space in SPACES.items():
        if space.dimension is None:
            opens = ", ".join(t.name for t in SPACES.values() if s in t.adjacent)
            lines.append(
                f"- {space.name} holds no pieces (§2.1), is {control.get(s, 'never controlled')} "
                f"(§3.2), and opens {opens}"
            )
    return "\n".join(lines) + "\n"


@cache
def rules_with_reference() -> str:
    """The rules summary followed by the generated card list and map."""
    return rules_text().rstrip("\n") + "\n\n" + cards_section() + "\n" + map_section()
