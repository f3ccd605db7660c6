"""The rules of La Révolution française in one table: every decision and automatic step
of the turn, by the name its tasks carry in ``state["tasks"]``.

The framework's ``Stack`` runs them over ``core.TASKS`` (``key="tasks"``,
``field="kind"``: the state keeps the names it always had, so saves and digests do not
change). A rule module schedules the tasks that follow it with ``TASKS.schedule`` and
finishes a decision with ``TASKS.finish``; none imports this table, so the table is the
only module that sees them all. A decision that may have nothing to ask says so with its
``needed`` (a seat still to vote, a target left, money for a roll), beside its prompt,
which then always asks; ``skipped`` closes it otherwise. The order below is the turn's
(5.0), chapter by chapter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.framework import Context, Prompt, State, Verb
from tabletop.framework.stack import Decision, Stack, Step

from .actions.act import (
    act_handle,
    act_needed,
    act_prompt,
    actions_start,
)
from .actions.attempt import (
    attempt_empty,
    attempt_handle,
    attempt_needed,
    attempt_prompt,
    attempt_roll,
    pick_handle,
    pick_prompt,
)
from .actions.marais import marais_plot
from .core import TASKS
from .coups.military_coup import (
    intercept_done,
    intercept_handle,
    intercept_needed,
    intercept_prompt,
    military_coup_battle,
    military_offer_handle,
    military_offer_needed,
    military_offer_prompt,
)
from .coups.offer import (
    coup_offer_handle,
    coup_offer_needed,
    coup_offer_prompt,
    coup_offer_start,
    coup_permission_handle,
    coup_permission_prompt,
    reactions_prompt,
)
from .coups.outcome import coup_roll
from .directorate import backing_done, backing_prompt, dieoff_winner
from .explain import explain_act, explain_objective, explain_place
from .initial.event_decisions import (
    assembly_prompt,
    assembly_tally,
    desert_handle,
    desert_needed,
    desert_prompt,
    gov_decision_empty,
    gov_decision_handle,
    gov_decision_needed,
    gov_decision_prompt,
)
from .initial.events import event_table, random_events
from .initial.negotiations import (
    negotiate_empty,
    negotiate_handle,
    negotiate_needed,
    negotiate_prompt,
    negotiations_start,
    offer_amount_handle,
    offer_amount_prompt,
    offer_answer_handle,
    offer_answer_prompt,
)
from .initial.objectives import (
    objectives_done,
    objectives_handle,
    objectives_needed,
    objectives_prompt,
    objectives_reveal,
    objectives_start,
)
from .initial.order import turn_order
from .initial.placement import (
    placement_empty,
    placement_handle,
    placement_needed,
    placement_prompt,
    placement_start,
)
from .interphase import interphase, turn_end
from .military.capital import (
    capital_auto,
    capital_check,
    capital_empty,
    capital_handle,
    capital_needed,
    capital_prompt,
)
from .military.combat import combat, loss_handle, loss_prompt, military_control
from .military.gov_moves import (
    gov_move_empty,
    gov_move_handle,
    gov_move_needed,
    gov_move_prompt,
    gov_move_start,
)
from .military.kidnap import kidnap_check, kidnap_handle, kidnap_prompt
from .military.movement import (
    allied_move,
    king_follow_empty,
    king_follow_handle,
    king_follow_needed,
    king_follow_prompt,
    pin_handle,
    pin_prompt,
    pinning_start,
)
from .military.reinforcements import (
    army_return,
    catholic_handle,
    catholic_needed,
    catholic_prompt,
    coalition_reinforce,
    landing_handle,
    landing_prompt,
    maintenance,
    military_start,
    volunteer_handle,
    volunteer_needed,
    volunteer_prompt,
    volunteers_start,
)
from .military.vendee import (
    catholic_move_empty,
    catholic_move_handle,
    catholic_move_needed,
    catholic_move_prompt,
    catholic_move_start,
    hide_handle,
    hide_prompt,
    hiding_start,
)
from .patriot import (
    confidence_prompt,
    confidence_tally,
    criticism_start,
    deputies_return,
    justice_roll,
    justice_tally,
    justice_vote_done,
    justice_vote_needed,
    justice_vote_prompt,
    king_pardon_handle,
    king_pardon_needed,
    king_pardon_prompt,
    partner_election_prompt,
    partner_election_tally,
    patriot_start,
)
from .political.enact import (
    install_regime,
    thermidor_empty,
    thermidor_handle,
    thermidor_needed,
    thermidor_prompt,
    veto_handle,
    veto_needed,
    veto_prompt,
)
from .political.install import elections_run, partner_handle, partner_prompt
from .political.king import (
    king_handle,
    king_needed,
    king_prompt,
)
from .political.proposals import (
    laws_start,
    propose_handle,
    propose_needed,
    propose_prompt,
)
from .political.referendum import (
    end_of_turn_referendum,
    mercy_referendum_handle,
    mercy_referendum_needed,
    mercy_referendum_prompt,
    pending_regime,
    referendum_prompt,
    referendum_tally,
)
from .political.regime import (
    political_start,
    regime_change_handle,
    regime_change_needed,
    regime_change_prompt,
)
from .political.sway import (
    sway_handle,
    sway_needed,
    sway_prompt,
)
from .political.votes import (
    fame_roll,
    fame_vote_prompt,
    law_tally,
    law_vote_prompt,
)
from .setup import run_turn, run_turn_start
from .verbs import BACK, ELECT, MOD, REACT, VOTE
from .voting import ballot, tally_with, vote_open


def voted(
    name: str, prompt: Callable[[State, Any], Prompt], verb: Verb, *, then: str
) -> Decision[Any]:
    """A vote (``voting``): each seat's ballot is ``verb``'s argument, asked while a seat
    is still to vote; once all have voted, the tally step ``then`` takes the task's
    place."""
    return Decision(name, prompt, ballot(verb), needed=vote_open, skipped=tally_with(then))


def dieoff(state: State, task: Any, ctx: Context) -> None:
    """R.7.2.2: the die-off's winning answer is the Government's, given to the decision
    still waiting below it."""
    decided = dieoff_winner(state, task, ctx)
    below = TASKS.top(state)
    assert below is not None  # the die-off was scheduled above the decision it settles
    rule = STACK.rules[below["kind"]]
    assert isinstance(rule, Decision)
    rule.apply(state, below, decided, ctx)


STACK = Stack(
    [
        # setup
        Step("turn", run_turn),
        Step("turn_start", run_turn_start),
        # initial
        Step("negotiations_start", negotiations_start),
        Decision(
            "negotiate",
            negotiate_prompt,
            negotiate_handle,
            needed=negotiate_needed,
            skipped=negotiate_empty,
        ),
        Decision("offer_amount", offer_amount_prompt, offer_amount_handle),
        Decision("offer_answer", offer_answer_prompt, offer_answer_handle),
        Decision("desert", desert_prompt, desert_handle, needed=desert_needed),
        voted("assembly_decision", assembly_prompt, VOTE, then="assembly_tally"),
        Step("assembly_tally", assembly_tally),
        Step("random_events", random_events),
        Step("event_table", event_table),
        Decision(
            "gov_decision",
            gov_decision_prompt,
            gov_decision_handle,
            needed=gov_decision_needed,
            skipped=gov_decision_empty,
        ),
        Step("turn_order", turn_order),
        Step("objectives_start", objectives_start),
        Decision(
            "objectives",
            objectives_prompt,
            objectives_handle,
            needed=objectives_needed,
            skipped=objectives_done,
            explain=explain_objective,
        ),
        Step("objectives_reveal", objectives_reveal),
        Step("placement_start", placement_start),
        Decision(
            "placement",
            placement_prompt,
            placement_handle,
            needed=placement_needed,
            skipped=placement_empty,
            explain=explain_place,
        ),
        # actions
        Step("actions_start", actions_start),
        Decision("act", act_prompt, act_handle, needed=act_needed, explain=explain_act),
        Decision(
            "attempt", attempt_prompt, attempt_handle, needed=attempt_needed, skipped=attempt_empty
        ),
        Step("attempt_roll", attempt_roll),
        Decision("pick_result", pick_prompt, pick_handle),
        Step("marais_plot", marais_plot),
        # political
        voted("referendum", referendum_prompt, VOTE, then="referendum_tally"),
        Step("referendum_tally", referendum_tally),
        Step("pending_regime", pending_regime),
        Step("end_of_turn_referendum", end_of_turn_referendum),
        Decision(
            "mercy_referendum",
            mercy_referendum_prompt,
            mercy_referendum_handle,
            needed=mercy_referendum_needed,
        ),
        Step("political_start", political_start),
        Decision(
            "regime_change", regime_change_prompt, regime_change_handle, needed=regime_change_needed
        ),
        Decision("partner_choice", partner_prompt, partner_handle),
        Step("elections", elections_run),
        Decision("sway", sway_prompt, sway_handle, needed=sway_needed),
        Decision("king_action", king_prompt, king_handle, needed=king_needed),
        Step("laws_start", laws_start),
        Decision("propose", propose_prompt, propose_handle, needed=propose_needed),
        voted("law_vote", law_vote_prompt, VOTE, then="law_tally"),
        Step("law_tally", law_tally),
        voted("fame_vote", fame_vote_prompt, MOD, then="fame_roll"),
        Step("fame_roll", fame_roll),
        Decision(
            "thermidor_choice",
            thermidor_prompt,
            thermidor_handle,
            needed=thermidor_needed,
            skipped=thermidor_empty,
        ),
        Step("install_regime", install_regime),
        Decision("veto", veto_prompt, veto_handle, needed=veto_needed),
        # patriot
        Decision("king_pardon", king_pardon_prompt, king_pardon_handle, needed=king_pardon_needed),
        Step("patriot_start", patriot_start),
        Step("justice_roll", justice_roll),
        Decision(
            "justice_vote",
            justice_vote_prompt,
            ballot(VOTE),
            needed=justice_vote_needed,
            skipped=justice_vote_done,
        ),
        Step("justice_tally", justice_tally),
        Step("criticism_start", criticism_start),
        voted("partner_election", partner_election_prompt, ELECT, then="partner_election_tally"),
        Step("partner_election_tally", partner_election_tally),
        voted("confidence", confidence_prompt, VOTE, then="confidence_tally"),
        Step("confidence_tally", confidence_tally),
        Step("deputies_return", deputies_return),
        # military
        Step("army_return", army_return),
        Decision("landing", landing_prompt, landing_handle),
        Step("military_start", military_start),
        Step("coalition_reinforce", coalition_reinforce),
        Decision("catholic_reinforce", catholic_prompt, catholic_handle, needed=catholic_needed),
        Step("volunteers_start", volunteers_start),
        Decision("place_volunteer", volunteer_prompt, volunteer_handle, needed=volunteer_needed),
        Step("maintenance", maintenance),
        Step("pinning_start", pinning_start),
        Decision("pin", pin_prompt, pin_handle),
        Decision(
            "king_follow",
            king_follow_prompt,
            king_follow_handle,
            needed=king_follow_needed,
            skipped=king_follow_empty,
        ),
        Step("catholic_move_start", catholic_move_start),
        Decision(
            "catholic_move",
            catholic_move_prompt,
            catholic_move_handle,
            needed=catholic_move_needed,
            skipped=catholic_move_empty,
        ),
        Step("hiding_start", hiding_start),
        Decision("hide", hide_prompt, hide_handle),
        Step("kidnap_check", kidnap_check),
        Decision("kidnap", kidnap_prompt, kidnap_handle),
        Step("capital_check", capital_check),
        Decision(
            "capital", capital_prompt, capital_handle, needed=capital_needed, skipped=capital_empty
        ),
        Step("capital_auto", capital_auto),
        Step("allied_move", allied_move),
        Step("gov_move_start", gov_move_start),
        Decision(
            "gov_move",
            gov_move_prompt,
            gov_move_handle,
            needed=gov_move_needed,
            skipped=gov_move_empty,
        ),
        Decision("loss", loss_prompt, loss_handle),
        Step("combat", combat),
        Step("military_control", military_control),
        # coups
        Step("coup_offer_start", coup_offer_start),
        Decision("coup_offer", coup_offer_prompt, coup_offer_handle, needed=coup_offer_needed),
        Decision("coup_permission", coup_permission_prompt, coup_permission_handle),
        voted("coup_reactions", reactions_prompt, REACT, then="coup_roll"),
        Step("coup_roll", coup_roll),
        Decision(
            "military_offer",
            military_offer_prompt,
            military_offer_handle,
            needed=military_offer_needed,
        ),
        Decision(
            "intercept",
            intercept_prompt,
            intercept_handle,
            needed=intercept_needed,
            skipped=intercept_done,
        ),
        Step("military_coup_battle", military_coup_battle),
        # interphase
        Step("interphase", interphase),
        Step("turn_end", turn_end),
        # directorate (R.7.2.2)
        Decision(
            "dieoff_backing", backing_prompt, ballot(BACK), needed=vote_open, skipped=backing_done
        ),
        Step("dieoff", dieoff),
    ],
    tasks=TASKS,
)
