"""Replaying a game: ``tally_game`` runs its rounds in order under its rules and says what
follows (each round's dealer, contracts and points, the standings, whether the game is over,
the winners and the tie-break sentence). Pure, no Flask, no database."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scorekeeper.limits import MAX_ROUNDS
from scorekeeper.rules import N_, ContractOrder, Message, N_plural, RuleSet, TieBreak, Winner
from scorekeeper.rules.messages import listing
from scorekeeper.status import GameStatus

from ..phases import says_phases
from .checks import check_round, check_table, round_bonus
from .values import (
    ABANDONED,
    EVERYONE,
    FINISHED,
    IN_PROGRESS,
    ROUND_FIELD,
    WENT_OUT_FIELD,
    HandEntry,
    HandResult,
    Lineup,
    Problem,
    RoundEntry,
    RoundResult,
    Standing,
    Tally,
    by_contracts_made,
    deal_of,
    made_every_contract,
    tie_break_settled,
)


def tally_game(
    rules: RuleSet,
    names: Sequence[str],
    first_dealer: int,
    rounds: Sequence[RoundEntry],
    *,
    abandoned: bool = False,
    lineup: Lineup = EVERYONE,
) -> Tally:
    """Replay ``rounds`` under ``rules`` and say what follows: every refusal as a Problem
    (the rest is computed as well as the entries allow), standings best first, status,
    winners and the tie-break sentence. ``lineup`` says who left and who joined: a joiner's
    total starts at the points they brought, and a leaver never wins."""
    names = tuple(names)
    players = len(names)
    problems = check_table(rules, names, first_dealer, lineup, len(rounds))
    totals = [lineup.starting_total(seat) for seat in range(players)]
    # Where a player comes back with a total of their own (the family's choice), from then on.
    restarts = {
        (away.before_round, seat): away.total
        for seat, aways in lineup.returns.items()
        for away in aways
        if away.total is not None and seat < players
    }
    made = [0] * players
    # The most players at the table so far: the packs are shuffled for them (game-format.md).
    most = 0
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
    # The seats tied after the last round that a tie-break hand must settle, once owed.
    owed: tuple[int, ...] = ()
    settled: tuple[tuple[int, ...], Message | None] | None = None
    for number, entry in enumerate(rounds, start=1):
        if owed or entry.tie_break_hand:
            result = _tie_break_round(rules, names, number, entry, owed, results, first_dealer)
            problems.extend(result[1])
            results.append(result[0])
            if owed:
                if entry.tie_break_hand and result[0].went_out in owed:
                    settled = _settled(rules, names, results, owed, result[0])
                    ended_after = number
                owed = ()
            continue
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
            contracts = [rules.contract_after(made[seat]) for seat in range(players)]
        else:
            contracts = [rules.contract_of_round(number)] * players
        seats = lineup.seats_in(number, players)
        for (back, seat), total in restarts.items():
            if back == number:
                totals[seat] = total
        if players >= 2 and len(seats) < 2:
            problems.append(_too_few(number, len(seats)))
        most = max(most, len(seats))
        hands, round_problems = check_round(
            rules, names, number, entry, contracts, seats, packs_for=most
        )
        problems.extend(round_problems)
        for seat, hand in enumerate(hands):
            totals[seat] += hand.points
            made[seat] += hand.made_contract
            if rules.keeps_contracts and rules.hands is not None:
                # Every contract made, a player has none left to make: the count stops.
                made[seat] = min(made[seat], len(rules.phases))
        results.append(
            RoundResult(
                number=number,
                dealer=deal_of(results[-1].dealer if results else None, first_dealer, seats),
                went_out=entry.went_out,
                hands=tuple(hands),
                totals=tuple(totals),
                contracts_made=tuple(made),
                went_out_in_one_turn=round_bonus(rules, entry),
            )
        )
        if ended_after is None and _ends_game(rules, number, hands):
            ended_after = number
            stayed_then = [seat for seat in range(players) if seat not in lineup.left]
            if stayed_then and rules.tie_break is TieBreak.REPLAY and not abandoned:
                owed = tuple(_still_tied(rules, results, stayed_then))
                if owed:
                    ended_after = None

    if abandoned:
        status = ABANDONED
    elif owed:
        status = IN_PROGRESS
    elif ended_after is not None:
        status = FINISHED
    else:
        status = IN_PROGRESS
    if status == IN_PROGRESS and players >= 2:
        # The next round needs two players too: nobody may leave a table of two.
        following = len(rounds) + 1
        if len(lineup.seats_in(following, players)) < 2:
            problems.append(_too_few(following, len(lineup.seats_in(following, players))))
    winners: tuple[int, ...] = ()
    tie_break: Message | None = None
    stayed = [seat for seat in range(players) if seat not in lineup.left]
    if status == FINISHED and results and settled is not None:
        winners, tie_break = settled
    elif status == FINISHED and results and stayed:
        played = results[:ended_after] if ended_after else results
        winners, tie_break = _decide(rules, names, played, stayed)
    # The game at its end (over, or its tie-break hand owed): its last regular round.
    closing = [
        result for result in results[: ended_after or len(results)] if not result.tie_break_hand
    ]
    by_made = bool(closing) and (status == FINISHED or bool(owed))
    by_made = by_made and by_contracts_made(rules, closing[-1])
    standings = _standings(rules, names, results, status, winners, lineup, by_made)
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
        lineup=lineup,
        tie_break_owed=owed,
    )


def _too_few(number: int, count: int) -> Problem:
    return Problem(
        number,
        ROUND_FIELD,
        N_plural(
            "Round %(round)s would have %(num)s player; at least 2 players stay in every round.",
            "Round %(round)s would have %(num)s players; at least 2 players stay in every round.",
            num=count,
            round=number,
        ),
    )


def _ends_game(rules: RuleSet, number: int, hands: Sequence[HandResult]) -> bool:
    """Whether the game is over after round ``number``: the rules' last round is played, or,
    where each player keeps their contract, someone made the last contract in it."""
    if rules.rounds_in_game is not None and number >= rules.rounds_in_game:
        return True
    if rules.hands is not None:
        return False
    last = rules.last_contract
    return rules.contract_order is ContractOrder.OWN and any(
        hand.made_contract and hand.contract == last for hand in hands
    )


def _decide(
    rules: RuleSet, names: tuple[str, ...], played: Sequence[RoundResult], everyone: list[int]
) -> tuple[tuple[int, ...], Message | None]:
    """The winning seats and the tie-break sentence, from the rounds up to the one that ended
    the game, among ``everyone`` who stayed to the end (a player who left never wins)."""
    final = played[-1]
    totals = final.totals
    last = rules.last_contract
    if by_contracts_made(rules, final):
        # Under winner: last contract, a game of so many hands where each keeps their own
        # contract has as makers all who made every contract, in any hand; one whose last
        # hand nobody made the last contract in names nobody: the standings decide, as under
        # most contracts.
        return _most_contracts(rules, names, played, everyone)
    if rules.winner is Winner.LAST_CONTRACT:
        makers = [
            seat
            for seat, hand in enumerate(final.hands)
            if hand.made_contract and hand.contract == last and seat in everyone
        ]
        if len(makers) == 1:
            return (makers[0],), None
        if makers:
            return _break_tie_of_makers(rules, names, played, makers)
    lowest = min(totals[seat] for seat in everyone)
    winners = tuple(seat for seat in everyone if totals[seat] == lowest)
    if len(winners) == 1:
        return winners, None
    if rules.tie_break is TieBreak.MOST_ROUNDS_WON:
        return _most_rounds_won(names, played, winners, lowest)
    tied = listing([names[seat] for seat in winners])
    # "both" for two, "all" for more: two messages, as a language may say either its own way.
    if len(winners) == 2:
        return winners, N_plural(
            "%(names)s both finished with %(num)s point, the lowest total, and share the win.",
            "%(names)s both finished with %(num)s points, the lowest total, and share the win.",
            num=lowest,
            names=tied,
        )
    return winners, N_plural(
        "%(names)s all finished with %(num)s point, the lowest total, and share the win.",
        "%(names)s all finished with %(num)s points, the lowest total, and share the win.",
        num=lowest,
        names=tied,
    )


def _most_contracts(
    rules: RuleSet, names: tuple[str, ...], played: Sequence[RoundResult], everyone: list[int]
) -> tuple[tuple[int, ...], Message | None]:
    """``winner: most contracts``: whoever has made the most contracts wins; level on that,
    the lowest total among them; still level, the tie-break (shared, or by rounds won)."""
    final = played[-1]
    made, totals = final.contracts_made, final.totals
    most = max(made[seat] for seat in everyone)
    leaders = [seat for seat in everyone if made[seat] == most]
    if len(leaders) == 1:
        return (leaders[0],), None
    opening = _made_as_many(rules, names, final, leaders, most)
    lowest = min(totals[seat] for seat in leaders)
    winners = tuple(seat for seat in leaders if totals[seat] == lowest)
    others = sorted((seat for seat in leaders if seat not in winners), key=lambda s: totals[s])
    if len(winners) == 1 and says_phases(rules):
        return winners, _tie_sentence(opening, _fewer_points(names, totals, winners[0], others))
    if len(winners) == 1:
        outcome = N_plural(
            "%(name)s wins with %(num)s point to %(beaten)s",
            "%(name)s wins with %(num)s points to %(beaten)s",
            num=lowest,
            name=names[winners[0]],
            beaten=listing([totals[seat] for seat in others]),
        )
        return winners, _tie_sentence(opening, outcome)
    if rules.tie_break is TieBreak.MOST_ROUNDS_WON:
        winners, won = _rounds_won(names, played, winners)
        return winners, _tie_sentence(opening, won)
    return winners, _tie_sentence(opening, _level_winners(names, totals, winners, others))


def _made_as_many(
    rules: RuleSet, names: tuple[str, ...], final: RoundResult, seats: Sequence[int], made: int
) -> Message:
    """Players level on contracts made: "Ann and Ben each made 7 contracts" (a Phase 10
    game's: "each made 7 phases"); makers of the last contract in a game of so many hands
    (``made_every_contract``): "Ann and Ben made every phase", or, all in its last hand,
    "Ann and Ben both made phase 10 in round 3", as where the first maker ends the game."""
    if made_every_contract(rules, final, seats):
        if all(
            final.hands[seat].made_contract and final.hands[seat].contract == rules.last_contract
            for seat in seats
        ):
            return _made_last_in(rules, names, final, seats)
        makers = listing([names[seat] for seat in seats])
        if says_phases(rules):
            return N_("%(names)s made every phase", names=makers)
        return N_("%(names)s made every contract", names=makers)
    if says_phases(rules):
        return N_plural(
            "%(names)s each made %(num)s phase",
            "%(names)s each made %(num)s phases",
            num=made,
            names=listing([names[seat] for seat in seats]),
        )
    return N_plural(
        "%(names)s each made %(num)s contract",
        "%(names)s each made %(num)s contracts",
        num=made,
        names=listing([names[seat] for seat in seats]),
    )


def _still_tied(rules: RuleSet, played: Sequence[RoundResult], everyone: list[int]) -> list[int]:
    """The seats the rules' winner and the lowest total leave level after the game's last
    round (empty: one winner): what a tie-break hand settles (``tie_break: replay``)."""
    final = played[-1]
    totals, made = final.totals, final.contracts_made
    level = list(everyone)
    if by_contracts_made(rules, final):
        most = max(made[seat] for seat in everyone)
        level = [seat for seat in everyone if made[seat] == most]
    elif rules.winner is Winner.LAST_CONTRACT:
        makers = [
            seat
            for seat, hand in enumerate(final.hands)
            if hand.made_contract and hand.contract == rules.last_contract and seat in everyone
        ]
        level = makers or level
    lowest = min(totals[seat] for seat in level)
    tied = [seat for seat in level if totals[seat] == lowest]
    return tied if len(tied) > 1 else []


def _tie_break_round(
    rules: RuleSet,
    names: tuple[str, ...],
    number: int,
    entry: RoundEntry,
    owed: tuple[int, ...],
    results: Sequence[RoundResult],
    first_dealer: int,
) -> tuple[RoundResult, list[Problem]]:
    """A round where a tie-break hand is owed, or one entered as a tie-break hand: the tied
    players alone, on the last contract; whoever went out wins it, whether a contract was made
    is not read, and its points count in no total. Refused where it is not the hand owed (a
    tie-break hand no tie needs, or a regular round while one is owed)."""
    problems: list[Problem] = []
    players = len(names)
    if not owed:
        problems.append(
            Problem(
                number,
                ROUND_FIELD,
                N_(
                    "Round %(round)s is a tie-break hand, but no tie needs one: it follows only "
                    "the game's last round, when the tied players are level on points too.",
                    round=number,
                ),
            )
        )
    elif not entry.tie_break_hand:
        problems.append(
            Problem(
                number,
                ROUND_FIELD,
                N_(
                    "Round %(round)s: %(names)s are level after the game's last round, and only "
                    "a tie-break hand settles it: the next round is that hand.",
                    round=number,
                    names=listing([names[seat] for seat in owed]),
                ),
            )
        )
    seats = owed or tuple(range(players))
    unread = RoundEntry(
        went_out=entry.went_out,
        hands=tuple(
            HandEntry(cards=hand.cards, made_contract=None, total=hand.total)
            for hand in entry.hands
        ),
        tie_break_hand=True,
    )
    hands, round_problems = check_round(
        rules, names, number, unread, [rules.last_contract] * players, seats
    )
    problems.extend(round_problems)
    if entry.went_out is None and rules.nobody_out_allowed:
        problems.append(
            Problem(
                number,
                WENT_OUT_FIELD,
                N_(
                    "Round %(round)s: say who went out; the first to go out wins the tie-break "
                    "hand.",
                    round=number,
                ),
            )
        )
    previous = results[-1] if results else None
    return (
        RoundResult(
            number=number,
            dealer=deal_of(previous.dealer if previous else None, first_dealer, seats),
            went_out=entry.went_out,
            hands=tuple(replace(hand, made_contract=False) for hand in hands),
            totals=previous.totals if previous else (0,) * players,
            contracts_made=previous.contracts_made if previous else (0,) * players,
            tie_break_hand=True,
        ),
        problems,
    )


def _settled(
    rules: RuleSet,
    names: tuple[str, ...],
    results: Sequence[RoundResult],
    tied: tuple[int, ...],
    hand: RoundResult,
) -> tuple[tuple[int, ...], Message]:
    """The tie-break hand's winner (whoever went out), and the sentence of how the tie came
    and was settled: "Tied on phase 10 and on 185 points; Ann went out first in the tie-break
    hand."."""
    assert hand.went_out is not None
    final = [result for result in results if not result.tie_break_hand][-1]
    return (hand.went_out,), tie_break_settled(rules, final, tied, names[hand.went_out])


def _most_rounds_won(
    names: tuple[str, ...], played: Sequence[RoundResult], tied: tuple[int, ...], lowest: int
) -> tuple[tuple[int, ...], Message]:
    """Players level on the lowest total: whoever went out in the most rounds wins; level on
    that too, they share the win. One sentence: the tie, then the rounds won."""
    level_names = listing([names[seat] for seat in tied])
    if len(tied) == 2:
        opening = N_plural(
            "%(names)s both finished with %(num)s point, the lowest total",
            "%(names)s both finished with %(num)s points, the lowest total",
            num=lowest,
            names=level_names,
        )
    else:
        opening = N_plural(
            "%(names)s all finished with %(num)s point, the lowest total",
            "%(names)s all finished with %(num)s points, the lowest total",
            num=lowest,
            names=level_names,
        )
    winners, outcome = _rounds_won(names, played, tied)
    return winners, _tie_sentence(opening, outcome)


def _rounds_won(
    names: tuple[str, ...], played: Sequence[RoundResult], tied: Sequence[int]
) -> tuple[tuple[int, ...], Message]:
    """Of the ``tied`` seats, whoever went out in the most rounds: the winners, and the
    clause that says so."""
    won = {seat: sum(1 for result in played if result.went_out == seat) for seat in tied}
    most = max(won.values())
    winners = tuple(seat for seat in tied if won[seat] == most)
    others = sorted((seat for seat in tied if seat not in winners), key=lambda seat: -won[seat])
    if len(winners) == 1:
        # "Ben's 3": how many rounds each of the others went out in.
        beaten = [N_("%(name)s's %(count)s", name=names[seat], count=won[seat]) for seat in others]
        return winners, N_plural(
            "%(name)s went out in %(num)s round to %(beaten)s and wins",
            "%(name)s went out in %(num)s rounds to %(beaten)s and wins",
            num=most,
            name=names[winners[0]],
            beaten=listing(beaten),
        )
    if others:
        return winners, N_plural(
            "%(names)s each went out in %(num)s round, the most, and share the win",
            "%(names)s each went out in %(num)s rounds, the most, and share the win",
            num=most,
            names=listing([names[seat] for seat in winners]),
        )
    return winners, N_plural(
        "each went out in %(num)s round, so they share the win",
        "each went out in %(num)s rounds, so they share the win",
        num=most,
    )


def _break_tie_of_makers(
    rules: RuleSet, names: tuple[str, ...], played: Sequence[RoundResult], makers: list[int]
) -> tuple[tuple[int, ...], Message]:
    """Two or more made the last contract in the round that ended the game: they share the
    win, or the lowest total among them wins; level on that too, whoever went out in the most
    rounds wins where the tie-break says so, or else they share. One sentence of two clauses:
    who made it, then what follows."""
    final = played[-1]
    totals = final.totals
    phases = says_phases(rules)
    opening = _made_last_in(rules, names, final, makers)
    if rules.tie_break is TieBreak.SHARE:
        return tuple(makers), _tie_sentence(opening, N_("under these rules they share the win"))
    lowest = min(totals[seat] for seat in makers)
    winners = tuple(seat for seat in makers if totals[seat] == lowest)
    others = sorted((seat for seat in makers if seat not in winners), key=lambda seat: totals[seat])
    if len(winners) == 1 and phases:
        return winners, _tie_sentence(opening, _fewer_points(names, totals, winners[0], others))
    if len(winners) == 1:
        outcome = N_plural(
            "%(name)s wins with %(num)s point to %(beaten)s",
            "%(name)s wins with %(num)s points to %(beaten)s",
            num=lowest,
            name=names[winners[0]],
            beaten=listing([totals[seat] for seat in others]),
        )
        return winners, _tie_sentence(opening, outcome)
    if rules.tie_break is TieBreak.MOST_ROUNDS_WON:
        level_names = listing([names[seat] for seat in winners])
        if len(winners) == 2:
            level = N_plural(
                "%(names)s both have %(num)s point",
                "%(names)s both have %(num)s points",
                num=lowest,
                names=level_names,
            )
        else:
            level = N_plural(
                "%(names)s all have %(num)s point",
                "%(names)s all have %(num)s points",
                num=lowest,
                names=level_names,
            )
        winners, won = _rounds_won(names, played, winners)
        return winners, _tie_sentence(opening, N_("%(level)s, and %(won)s", level=level, won=won))
    return winners, _tie_sentence(opening, _level_winners(names, totals, winners, others))


def _made_last_in(
    rules: RuleSet, names: tuple[str, ...], final: RoundResult, makers: Sequence[int]
) -> Message:
    """Two or more who made the last contract in ``final``: "Ann and Ben both made phase 10
    in round 3"."""
    makers_text = listing([names[seat] for seat in makers])
    values = {"names": makers_text, "contract": rules.last_contract, "round": final.number}
    phases = says_phases(rules)
    if phases and len(makers) == 2:
        return N_("%(names)s both made phase %(contract)s in round %(round)s", **values)
    if phases:
        return N_("%(names)s all made phase %(contract)s in round %(round)s", **values)
    if len(makers) == 2:
        return N_("%(names)s both made contract %(contract)s in round %(round)s", **values)
    return N_("%(names)s all made contract %(contract)s in round %(round)s", **values)


def _fewer_points(
    names: tuple[str, ...], totals: tuple[int, ...], winner: int, others: list[int]
) -> Message:
    """The lower total wins, as a family says it: "Ann wins with fewer points: 180 to Ben's
    185"."""
    return N_(
        "%(name)s wins with fewer points: %(points)s to %(beaten)s",
        name=names[winner],
        points=totals[winner],
        beaten=listing(
            [N_("%(name)s's %(points)s", name=names[seat], points=totals[seat]) for seat in others]
        ),
    )


def _level_winners(
    names: tuple[str, ...], totals: tuple[int, ...], winners: tuple[int, ...], others: list[int]
) -> Message:
    """The makers level on the lowest total, who share the win: "Ann and Ben both have 35
    points (to Cy's 60) and share the win"."""
    tied = listing([names[seat] for seat in winners])
    lowest = totals[winners[0]]
    if others:
        beaten = listing(
            [N_("%(name)s's %(points)s", name=names[seat], points=totals[seat]) for seat in others]
        )
        if len(winners) == 2:
            return N_plural(
                "%(names)s both have %(num)s point (to %(beaten)s) and share the win",
                "%(names)s both have %(num)s points (to %(beaten)s) and share the win",
                num=lowest,
                names=tied,
                beaten=beaten,
            )
        return N_plural(
            "%(names)s all have %(num)s point (to %(beaten)s) and share the win",
            "%(names)s all have %(num)s points (to %(beaten)s) and share the win",
            num=lowest,
            names=tied,
            beaten=beaten,
        )
    if len(winners) == 2:
        return N_plural(
            "%(names)s both have %(num)s point and share the win",
            "%(names)s both have %(num)s points and share the win",
            num=lowest,
            names=tied,
        )
    return N_plural(
        "%(names)s all have %(num)s point and share the win",
        "%(names)s all have %(num)s points and share the win",
        num=lowest,
        names=tied,
    )


def _tie_sentence(opening: Message, outcome: Message) -> Message:
    """Who made the last contract, then what follows from it: one sentence."""
    return N_("%(made)s; %(outcome)s.", made=opening, outcome=outcome)


def _standings(
    rules: RuleSet,
    names: tuple[str, ...],
    results: list[RoundResult],
    status: GameStatus,
    winners: tuple[int, ...],
    lineup: Lineup,
    by_made: bool,
) -> tuple[Standing, ...]:
    """The standings, best first; ``by_made``: the most contracts made rank first, as they
    decided the game (``by_contracts_made``)."""
    players = len(names)
    if results:
        totals, made = results[-1].totals, results[-1].contracts_made
    else:
        totals = tuple(lineup.starting_total(seat) for seat in range(players))
        made = (0,) * players
    following = len(results) + 1
    # One back before the next round with a total of their own has it already.
    totals = tuple(
        total if (back := lineup.comeback_total(seat, following)) is None else back
        for seat, total in enumerate(totals)
    )
    keeps = rules.contract_order is ContractOrder.OWN
    contracts: list[int] = []
    for seat in range(players):
        # A game over: the last round the player was dealt into. One that goes on: the contract
        # the player works on next, a leaver's too (the one they come back on: a leaver who
        # made their contract in their last round is on the next).
        played = [result for result in results if result.hands[seat].in_round]
        if status != IN_PROGRESS and played:
            contracts.append(played[-1].hands[seat].contract)
        elif keeps:
            contracts.append(rules.contract_after(made[seat]))
        else:
            contracts.append(rules.contract_of_round(len(results) + 1))
    by_contracts = keeps or rules.winner is Winner.MOST_CONTRACTS or by_made
    # Players tied on everything else: the tie-break hand's points order them (lower first).
    tie_hand = {
        seat: hand.points
        for result in results
        if result.tie_break_hand
        for seat, hand in enumerate(result.hands)
        if hand.in_round
    }

    def key(seat: int) -> tuple[int, int, int, int, int]:
        # Who stayed to the end first; of those who left, whoever left later first.
        gone = -lineup.left[seat] if seat in lineup.left else -len(results) - 1
        return (
            0 if seat in winners else 1,
            gone,
            -made[seat] if by_contracts else 0,
            totals[seat],
            tie_hand.get(seat, 0),
        )

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
                contract_text=rules.contract(contracts[seat]).summary,
                contracts_made=made[seat],
                place=place,
                is_winner=seat in winners,
                left_after=lineup.left.get(seat),
            )
        )
    return tuple(standings)
