"""The rules of La Révolution française in one table: every decision and automatic step
of the turn, by the name its tasks carry in ``state["tasks"]``.

The framework's ``Stack`` runs them (``key="tasks"``, ``field="kind"``: the state keeps
the names it always had, so saves and digests do not change). A rule module pushes the
tasks that follow it with ``core.schedule`` and finishes a decision with
``core.finish``; none imports this table, so the table is the only module that sees
them all. The order below is the turn's (5.0), chapter by chapter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.framework import Action, Context, Prompt, State
from tabletop.framework.stack import Decision, Stack, Step

from . import (
    actions,
    coups,
    directorate,
    explain,
    initial,
    interphase,
    military,
    patriot,
    political,
    setup,
)

PromptOrNone = Callable[[State, Any], Prompt | None]


def asked(
    name: str,
    prompt: PromptOrNone,
    apply: Callable[[State, Any, Action, Context], None],
    skipped: Callable[[State, Any, Context], None] | None = None,
    explain: Callable[[State, Any, Prompt], Prompt] | None = None,
) -> Decision[Any]:
    """A decision whose prompt returns None when there is nothing to ask (no choice left,
    every seat has voted): it is then skipped, or ``skipped`` closes it (a tally)."""

    def question(state: State, task: Any) -> Prompt:
        found = prompt(state, task)
        if found is None:
            raise AssertionError(f"{name}: asked with nothing to ask")
        return found

    def needed(state: State, task: Any) -> bool:
        return prompt(state, task) is not None

    return Decision(name, question, apply, needed=needed, skipped=skipped, explain=explain)


def dieoff(state: State, task: Any, ctx: Context) -> None:
    """R.7.2.2: the die-off's winning answer is the Government's, given to the decision
    still waiting below it."""
    decided = directorate.dieoff_winner(state, task, ctx)
    below = state["tasks"][-1]
    rule = STACK.rules[below["kind"]]
    assert isinstance(rule, Decision)
    rule.apply(state, below, decided, ctx)


STACK = Stack(
    [
        # setup
        Step("turn", setup.run_turn),
        Step("turn_start", setup.run_turn_start),
        # initial
        Step("negotiations_start", initial.negotiations_start),
        asked(
            "negotiate",
            initial.negotiate_prompt,
            initial.negotiate_handle,
            skipped=initial.negotiate_empty,
        ),
        asked("offer_amount", initial.offer_amount_prompt, initial.offer_amount_handle),
        asked("offer_answer", initial.offer_answer_prompt, initial.offer_answer_handle),
        asked("desert", initial.desert_prompt, initial.desert_handle),
        asked(
            "assembly_decision",
            initial.assembly_prompt,
            initial.assembly_handle,
            skipped=initial.assembly_done,
        ),
        Step("assembly_tally", initial.assembly_tally),
        Step("random_events", initial.random_events),
        Step("event_table", initial.event_table),
        asked(
            "gov_decision",
            initial.gov_decision_prompt,
            initial.gov_decision_handle,
            skipped=initial.gov_decision_empty,
        ),
        Step("turn_order", initial.turn_order),
        Step("objectives_start", initial.objectives_start),
        asked(
            "objectives",
            initial.objectives_prompt,
            initial.objectives_handle,
            skipped=initial.objectives_done,
            explain=explain.explain_objective,
        ),
        Step("objectives_reveal", initial.objectives_reveal),
        Step("placement_start", initial.placement_start),
        asked(
            "placement",
            initial.placement_prompt,
            initial.placement_handle,
            skipped=initial.placement_empty,
            explain=explain.explain_place,
        ),
        # actions
        Step("actions_start", actions.actions_start),
        asked("act", actions.act_prompt, actions.act_handle, explain=explain.explain_act),
        asked(
            "attempt", actions.attempt_prompt, actions.attempt_handle, skipped=actions.attempt_empty
        ),
        Step("attempt_roll", actions.attempt_roll),
        asked("pick_result", actions.pick_prompt, actions.pick_handle),
        Step("marais_plot", actions.marais_plot),
        # political
        asked(
            "referendum",
            political.referendum_prompt,
            political.referendum_handle,
            skipped=political.referendum_done,
        ),
        Step("referendum_tally", political.referendum_tally),
        Step("pending_regime", political.pending_regime),
        Step("end_of_turn_referendum", political.end_of_turn_referendum),
        asked(
            "mercy_referendum", political.mercy_referendum_prompt, political.mercy_referendum_handle
        ),
        Step("political_start", political.political_start),
        asked("regime_change", political.regime_change_prompt, political.regime_change_handle),
        asked("partner_choice", political.partner_prompt, political.partner_handle),
        Step("elections", political.elections_run),
        asked("sway", political.sway_prompt, political.sway_handle),
        asked("king_action", political.king_prompt, political.king_handle),
        Step("laws_start", political.laws_start),
        asked("propose", political.propose_prompt, political.propose_handle),
        asked(
            "law_vote",
            political.law_vote_prompt,
            political.law_vote_handle,
            skipped=political.law_vote_done,
        ),
        Step("law_tally", political.law_tally),
        asked(
            "fame_vote",
            political.fame_vote_prompt,
            political.fame_vote_handle,
            skipped=political.fame_vote_done,
        ),
        Step("fame_roll", political.fame_roll),
        asked(
            "thermidor_choice",
            political.thermidor_prompt,
            political.thermidor_handle,
            skipped=political.thermidor_empty,
        ),
        Step("install_regime", political.install_regime),
        asked("veto", political.veto_prompt, political.veto_handle),
        # patriot
        asked("king_pardon", patriot.king_pardon_prompt, patriot.king_pardon_handle),
        Step("patriot_start", patriot.patriot_start),
        Step("justice_roll", patriot.justice_roll),
        asked(
            "justice_vote",
            patriot.justice_vote_prompt,
            patriot.justice_vote_handle,
            skipped=patriot.justice_vote_done,
        ),
        Step("justice_tally", patriot.justice_tally),
        Step("criticism_start", patriot.criticism_start),
        asked(
            "partner_election",
            patriot.partner_election_prompt,
            patriot.partner_election_handle,
            skipped=patriot.partner_election_done,
        ),
        Step("partner_election_tally", patriot.partner_election_tally),
        asked(
            "confidence",
            patriot.confidence_prompt,
            patriot.confidence_handle,
            skipped=patriot.confidence_done,
        ),
        Step("confidence_tally", patriot.confidence_tally),
        Step("deputies_return", patriot.deputies_return),
        # military
        Step("army_return", military.army_return),
        asked("landing", military.landing_prompt, military.landing_handle),
        Step("military_start", military.military_start),
        Step("coalition_reinforce", military.coalition_reinforce),
        asked("catholic_reinforce", military.catholic_prompt, military.catholic_handle),
        Step("volunteers_start", military.volunteers_start),
        asked("place_volunteer", military.volunteer_prompt, military.volunteer_handle),
        Step("maintenance", military.maintenance),
        Step("pinning_start", military.pinning_start),
        asked("pin", military.pin_prompt, military.pin_handle),
        asked(
            "king_follow",
            military.king_follow_prompt,
            military.king_follow_handle,
            skipped=military.king_follow_empty,
        ),
        Step("catholic_move_start", military.catholic_move_start),
        asked(
            "catholic_move",
            military.catholic_move_prompt,
            military.catholic_move_handle,
            skipped=military.catholic_move_empty,
        ),
        Step("hiding_start", military.hiding_start),
        asked("hide", military.hide_prompt, military.hide_handle),
        Step("kidnap_check", military.kidnap_check),
        asked("kidnap", military.kidnap_prompt, military.kidnap_handle),
        Step("capital_check", military.capital_check),
        asked(
            "capital",
            military.capital_prompt,
            military.capital_handle,
            skipped=military.capital_empty,
        ),
        Step("capital_auto", military.capital_auto),
        Step("allied_move", military.allied_move),
        Step("gov_move_start", military.gov_move_start),
        asked(
            "gov_move",
            military.gov_move_prompt,
            military.gov_move_handle,
            skipped=military.gov_move_empty,
        ),
        asked("loss", military.loss_prompt, military.loss_handle),
        Step("combat", military.combat),
        Step("military_control", military.military_control),
        # coups
        Step("coup_offer_start", coups.coup_offer_start),
        asked("coup_offer", coups.coup_offer_prompt, coups.coup_offer_handle),
        asked("coup_permission", coups.coup_permission_prompt, coups.coup_permission_handle),
        asked(
            "coup_reactions",
            coups.reactions_prompt,
            coups.reactions_handle,
            skipped=coups.reactions_done,
        ),
        Step("coup_roll", coups.coup_roll),
        asked("military_offer", coups.military_offer_prompt, coups.military_offer_handle),
        asked(
            "intercept",
            coups.intercept_prompt,
            coups.intercept_handle,
            skipped=coups.intercept_done,
        ),
        Step("military_coup_battle", coups.military_coup_battle),
        # interphase
        Step("interphase", interphase.interphase),
        Step("turn_end", interphase.turn_end),
        # directorate (R.7.2.2)
        asked(
            "dieoff_backing",
            directorate.backing_prompt,
            directorate.backing_handle,
            skipped=directorate.backing_done,
        ),
        Step("dieoff", dieoff),
    ],
    key="tasks",
    field="kind",
)
