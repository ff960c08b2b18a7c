"""Replaying a game: ``tally_game`` runs its rounds in order under its rules and says what
follows (each round's dealer, contracts and points, the standings, whether the game is over,
the winners and the tie-break sentence). Pure, no Flask, no database."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.limits import MAX_ROUNDS
from scorekeeper.rules import N_, ContractOrder, RuleSet, TieBreak, Winner
from scorekeeper.status import GameStatus

from .checks import check_round, check_table
from .values import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    ROUND_FIELD,
    HandResult,
    Problem,
    RoundEntry,
    RoundResult,
    Standing,
    Tally,
    dealer_of,
    names_in_words,
)


def tally_game(
    rules: RuleSet,
    names: Sequence[str],
    first_dealer: int,
    rounds: Sequence[RoundEntry],
    *,
    abandoned: bool = False,
) -> Tally:
    """Replay ``rounds`` under ``rules`` and say what follows: every refusal as a Problem
    (the rest is computed as well as the entries allow), standings best first, status,
    winners and the tie-break sentence."""
    names = tuple(names)
    players = len(names)
    problems = check_table(rules, names, first_dealer)
    last = len(rules.contracts)
    totals = [0] * players
    made = [0] * players
    results: list[RoundResult] = []
    ended_after: int | None = None

    if len(rounds) > MAX_ROUNDS:
        problems.append(
            Problem(
                len(rounds),
                ROUND_FIELD,
                N_(
                    "A game has at most %(most)s rounds; this one would have %(count)s.",
                    most=MAX_ROUNDS,
                    count=len(rounds),
                ),
            )
        )
    for number, entry in enumerate(rounds, start=1):
        if ended_after is not None:
            problems.append(
                Problem(
                    number,
                    ROUND_FIELD,
                    N_(
                        "Round %(round)s was played after the game ended (it ended after "
                        "round %(last)s).",
                        round=number,
                        last=ended_after,
                    ),
                )
            )
        if rules.contract_order is ContractOrder.OWN:
            contracts = [min(made[seat] + 1, last) for seat in range(players)]
        else:
            contracts = [min(number, last)] * players
        hands, round_problems = check_round(rules, names, number, entry, contracts)
        problems.extend(round_problems)
        for seat, hand in enumerate(hands):
            totals[seat] += hand.points
            made[seat] += hand.made_contract
        results.append(
            RoundResult(
                number=number,
                dealer=dealer_of(number, first_dealer, players) if players else 0,
                went_out=entry.went_out,
                hands=tuple(hands),
                totals=tuple(totals),
                contracts_made=tuple(made),
            )
        )
        if ended_after is None and _ends_game(rules, number, hands):
            ended_after = number

    if abandoned:
        status = ABANDONED
    elif ended_after is not None:
        status = FINISHED
    else:
        status = IN_PROGRESS
    winners: tuple[int, ...] = ()
    tie_break: str | None = None
    if status == FINISHED and results:
        winners, tie_break = _decide(rules, names, results[ended_after - 1 if ended_after else -1])
    standings = _standings(rules, names, results, status, winners)
    return Tally(
        rules=rules,
        names=names,
        first_dealer=first_dealer,
        rounds=tuple(results),
        standings=standings,
        status=status,
        winners=winners,
        tie_break=tie_break,
        problems=tuple(problems),
    )


def _ends_game(rules: RuleSet, number: int, hands: Sequence[HandResult]) -> bool:
    """Whether the game is over after round ``number``: the rules' last round is played, or,
    where each player keeps their contract, someone made the last contract in it."""
    if rules.rounds_in_game is not None and number >= rules.rounds_in_game:
        return True
    last = len(rules.contracts)
    return rules.contract_order is ContractOrder.OWN and any(
        hand.made_contract and hand.contract == last for hand in hands
    )


def _decide(
    rules: RuleSet, names: tuple[str, ...], final: RoundResult
) -> tuple[tuple[int, ...], str | None]:
    """The winning seats and the tie-break sentence, from the round that ended the game."""
    totals = final.totals
    everyone = list(range(len(names)))
    last = len(rules.contracts)
    if rules.winner is Winner.LAST_CONTRACT:
        makers = [
            seat
            for seat, hand in enumerate(final.hands)
            if hand.made_contract and hand.contract == last
        ]
        if len(makers) == 1:
            return (makers[0],), None
        if makers:
            return _break_tie_of_makers(rules, names, final, makers)
    lowest = min(totals[seat] for seat in everyone)
    winners = tuple(seat for seat in everyone if totals[seat] == lowest)
    if len(winners) == 1:
        return winners, None
    tied = [names[seat] for seat in winners]
    both = "both" if len(tied) == 2 else "all"
    return winners, (
        f"{names_in_words(tied)} {both} finished with {lowest} points, the lowest total, "
        "and share the win."
    )


def _break_tie_of_makers(
    rules: RuleSet, names: tuple[str, ...], final: RoundResult, makers: list[int]
) -> tuple[tuple[int, ...], str]:
    totals = final.totals
    last = len(rules.contracts)
    makers_text = names_in_words([names[seat] for seat in makers])
    both = "both" if len(makers) == 2 else "all"
    opening = f"{makers_text} {both} made contract {last} in round {final.number}"
    if rules.tie_break is TieBreak.SHARE:
        return tuple(makers), f"{opening}; under these rules they share the win."
    lowest = min(totals[seat] for seat in makers)
    winners = tuple(seat for seat in makers if totals[seat] == lowest)
    others = sorted((seat for seat in makers if seat not in winners), key=lambda seat: totals[seat])
    if len(winners) == 1:
        beaten = names_in_words([str(totals[seat]) for seat in others])
        return winners, f"{opening}; {names[winners[0]]} wins with {lowest} points to {beaten}."
    tied = names_in_words([names[seat] for seat in winners])
    sentence = f"{opening}; {tied} {'both' if len(winners) == 2 else 'all'} have {lowest} points"
    if others:
        beaten = names_in_words([f"{names[seat]}'s {totals[seat]}" for seat in others])
        sentence += f" (to {beaten})"
    return winners, sentence + " and share the win."


def _standings(
    rules: RuleSet,
    names: tuple[str, ...],
    results: list[RoundResult],
    status: GameStatus,
    winners: tuple[int, ...],
) -> tuple[Standing, ...]:
    players = len(names)
    last = len(rules.contracts)
    totals = results[-1].totals if results else (0,) * players
    made = results[-1].contracts_made if results else (0,) * players
    keeps = rules.contract_order is ContractOrder.OWN
    contracts: list[int] = []
    for seat in range(players):
        if status != IN_PROGRESS:
            contracts.append(results[-1].hands[seat].contract if results else 1)
        elif keeps:
            contracts.append(min(made[seat] + 1, last))
        else:
            contracts.append(min(len(results) + 1, last))

    def key(seat: int) -> tuple[int, int, int]:
        return (0 if seat in winners else 1, -made[seat] if keeps else 0, totals[seat])

    order = sorted(range(players), key=key)
    standings: list[Standing] = []
    for index, seat in enumerate(order):
        tied_with_previous = index > 0 and key(order[index - 1]) == key(seat)
        place = standings[-1].place if tied_with_previous else index + 1
        standings.append(
            Standing(
                seat=seat,
                name=names[seat],
                total=totals[seat],
                contract=contracts[seat],
                contract_text=rules.contract(contracts[seat]).description,
                contracts_made=made[seat],
                place=place,
                is_winner=seat in winners,
            )
        )
    return tuple(standings)
