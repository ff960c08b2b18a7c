"""The arithmetic of a game, from its rules, its table and its rounds: pure, no Flask, no database.

Words used here:

- **seat**: a player's place at the table, 0 for the first name; play and the deal pass to the
  left, that is to the next seat.
- **round**: one deal, played until someone **went out** (or, where the rules allow it, until
  the stock ran out with nobody out).
- **contract**: the melds a player must lay down; where each player keeps their own
  (``contract_order == "own"``) a player works on the next contract they have not made,
  otherwise round N plays contract N for everyone.
- **leftover**: the cards left in a hand when the round ended; they score against the player.

``tally_game`` replays the rounds and returns a ``Tally``: what each round was (dealer,
contracts, points), the standings, whether the game is over and who won. It never raises for
bad input: every refusal of the game-format spec comes back as a ``Problem`` naming the round
and the player, so that the web form, the game-file import and the command line say the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.limits import CARDS_LENGTH, MAX_HAND_CARDS, MAX_PLAYERS, MAX_ROUNDS
from scorekeeper.names import name_key
from scorekeeper.rules import (
    Card,
    CardError,
    ContractOrder,
    RuleSet,
    TieBreak,
    Winner,
    format_cards,
    parse_cards,
    score_cards,
)
from scorekeeper.status import GameStatus

IN_PROGRESS = GameStatus.IN_PROGRESS
FINISHED = GameStatus.FINISHED
ABANDONED = GameStatus.ABANDONED

# Where a problem shows on the round form: the field names the form uses.
ROUND_FIELD = "round"
WENT_OUT_FIELD = "went_out"
TABLE_CARDS_FIELD = "cards"
PLAYERS_FIELD = "players"


def cards_field(seat: int) -> str:
    return f"cards-{seat}"


def made_field(seat: int) -> str:
    return f"made-{seat}"


def total_field(seat: int) -> str:
    return f"total-{seat}"


# The largest hand total that may be typed: no hand of leftover cards comes near it.
MAX_TYPED_TOTAL = 9999


@dataclass(frozen=True)
class HandEntry:
    """What was entered for one player in one round: the leftover cards in notation, and
    whether they made their contract (None: not said, as the file allows for whoever went out).

    ``total`` is the hand's points typed instead of cards, for a family that counts on paper:
    the hand then has no cards and scores exactly that."""

    cards: str = ""
    made_contract: bool | None = None
    total: int | None = None


@dataclass(frozen=True)
class RoundEntry:
    """What was entered for one round: the seat that went out (None: nobody), one hand a seat."""

    went_out: int | None
    hands: tuple[HandEntry, ...]


@dataclass(frozen=True)
class Problem:
    """One refusal: the round it concerns (None: the game as a whole), the form field it
    belongs at, and the sentence a person reads."""

    round: int | None
    field: str
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class HandResult:
    """One player's part of a played round."""

    contract: int
    made_contract: bool
    cards: str
    points: int
    # The points were typed as a total, not counted from cards.
    typed_total: bool = False


@dataclass(frozen=True)
class RoundResult:
    """A played round: its number, dealer and who went out (seats), each hand, and each seat's
    running total and contracts made after it."""

    number: int
    dealer: int
    went_out: int | None
    hands: tuple[HandResult, ...]
    totals: tuple[int, ...]
    contracts_made: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    """A player's standing: place 1 is best, tied players share a place."""

    seat: int
    name: str
    total: int
    contract: int
    contract_text: str
    contracts_made: int
    place: int
    is_winner: bool


@dataclass(frozen=True)
class Tally:
    """Everything that follows from a game's rules, table and rounds."""

    rules: RuleSet
    names: tuple[str, ...]
    first_dealer: int
    rounds: tuple[RoundResult, ...]
    standings: tuple[Standing, ...]
    status: GameStatus
    winners: tuple[int, ...]
    tie_break: str | None
    problems: tuple[Problem, ...]

    @property
    def is_over(self) -> bool:
        return self.status != IN_PROGRESS

    @property
    def keeps_contracts(self) -> bool:
        """Whether each player keeps their own contract until they make it."""
        return self.rules.keeps_contracts

    @property
    def next_round(self) -> int | None:
        return None if self.is_over else len(self.rounds) + 1

    @property
    def next_dealer(self) -> int | None:
        number = self.next_round
        return None if number is None else dealer_of(number, self.first_dealer, len(self.names))

    @property
    def cards_to_deal(self) -> int | None:
        number = self.next_round
        return None if number is None else self.rules.cards_dealt(number)

    @property
    def next_contracts(self) -> tuple[int, ...]:
        """The contract each seat works on in the next round (the last one, once it is over)."""
        by_seat = {standing.seat: standing.contract for standing in self.standings}
        return tuple(by_seat[seat] for seat in range(len(self.names)))

    @property
    def winner_names(self) -> tuple[str, ...]:
        return tuple(self.names[seat] for seat in self.winners)

    def standing(self, seat: int) -> Standing:
        return next(standing for standing in self.standings if standing.seat == seat)

    def problems_of_round(self, number: int) -> tuple[Problem, ...]:
        return tuple(problem for problem in self.problems if problem.round == number)


def dealer_of(round_number: int, first_dealer: int, players: int) -> int:
    """The seat that deals round ``round_number``: the deal passes to the left each round."""
    return (first_dealer + round_number - 1) % players


def names_in_words(names: Sequence[str]) -> str:
    """``"Ann"``, ``"Ann and Ben"``, ``"Ann, Ben and Cy"``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def points_of(text: str, rules: RuleSet) -> int:
    """What leftover cards written ``text`` score; raises CardError."""
    return score_cards(parse_cards(text), rules)


def check_table(rules: RuleSet, names: Sequence[str], first_dealer: int = 0) -> list[Problem]:
    """The refusals about who plays: too few or too many for the rules, or a name twice."""
    problems: list[Problem] = []
    count = len(names)
    if count < max(2, rules.min_players):
        fewest = max(2, rules.min_players)
        problems.append(
            Problem(
                None,
                PLAYERS_FIELD,
                f"{rules.name} needs at least {fewest} players; this game has {count}.",
            )
        )
    if count > MAX_PLAYERS:
        problems.append(
            Problem(
                None,
                PLAYERS_FIELD,
                f"A game has at most {MAX_PLAYERS} players; this one has {count}.",
            )
        )
    elif rules.max_players is not None and count > rules.max_players:
        problems.append(
            Problem(
                None,
                PLAYERS_FIELD,
                f"{rules.name} is for at most {rules.max_players} players; this game has {count}.",
            )
        )
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if not key:
            problems.append(Problem(None, PLAYERS_FIELD, "A player's name is empty."))
        elif key in seen:
            problems.append(
                Problem(
                    None,
                    PLAYERS_FIELD,
                    f"{name} is named twice ({seen[key]} and {name}); "
                    "every player needs a name of their own.",
                )
            )
        else:
            seen[key] = name
    if names and not 0 <= first_dealer < count:
        problems.append(
            Problem(None, "first_dealer", "The first dealer must be one of the players.")
        )
    return problems


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
                f"A game has at most {MAX_ROUNDS} rounds; this one would have {len(rounds)}.",
            )
        )
    for number, entry in enumerate(rounds, start=1):
        if ended_after is not None:
            problems.append(
                Problem(
                    number,
                    ROUND_FIELD,
                    f"Round {number} was played after the game ended "
                    f"(it ended after round {ended_after}).",
                )
            )
        if rules.contract_order is ContractOrder.OWN:
            contracts = [min(made[seat] + 1, last) for seat in range(players)]
        else:
            contracts = [min(number, last)] * players
        hands, round_problems = _check_round(rules, names, number, entry, contracts)
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


def _check_round(
    rules: RuleSet,
    names: tuple[str, ...],
    number: int,
    entry: RoundEntry,
    contracts: list[int],
) -> tuple[list[HandResult], list[Problem]]:
    problems: list[Problem] = []
    players = len(names)
    went_out = entry.went_out
    if went_out is not None and not 0 <= went_out < players:
        problems.append(
            Problem(number, WENT_OUT_FIELD, f"Round {number}: who went out is not a player.")
        )
        went_out = None
    elif went_out is None and not rules.nobody_out_allowed:
        problems.append(
            Problem(
                number,
                WENT_OUT_FIELD,
                f"Round {number}: say who went out; under {rules.name} a round ends only "
                "when someone goes out.",
            )
        )
    if len(entry.hands) != players:
        problems.append(
            Problem(
                number,
                ROUND_FIELD,
                f"Round {number}: every player of the game must appear in every round.",
            )
        )
    hands: list[HandResult] = []
    table: list[Card] = []
    for seat in range(players):
        name = names[seat]
        hand = entry.hands[seat] if seat < len(entry.hands) else HandEntry()
        contract = contracts[seat]
        going_out_only = rules.contract(contract).going_out_only
        if hand.total is not None:
            typed = _typed_hand(
                rules, number, name, seat, seat == went_out, hand, contract, problems
            )
            hands.append(typed)
            continue
        # Whether what was entered could be read (a refusal is already listed when not).
        readable = True
        try:
            cards = parse_cards(hand.cards)
        except CardError as error:
            problems.append(Problem(number, cards_field(seat), f"Round {number}, {name}: {error}."))
            cards = []
            readable = False
        if len(cards) > MAX_HAND_CARDS:
            problems.append(
                Problem(
                    number,
                    cards_field(seat),
                    f"Round {number}, {name}: {len(cards)} cards are entered; a hand holds at "
                    f"most {MAX_HAND_CARDS}.",
                )
            )
            cards = []
            readable = False
        elif len(format_cards(cards)) > CARDS_LENGTH:
            problems.append(
                Problem(
                    number,
                    cards_field(seat),
                    f"Round {number}, {name}: more cards are entered than any hand holds.",
                )
            )
            cards = []
            readable = False
        table.extend(cards)
        made_contract = bool(hand.made_contract)
        if seat == went_out:
            if hand.made_contract is False:
                problems.append(_went_out_made_it(number, seat, name, contract))
            made_contract = True
            if cards:
                problems.append(
                    Problem(
                        number,
                        cards_field(seat),
                        f"Round {number}: {name} went out, so {name} holds no cards "
                        f"(entered: {format_cards(cards)}).",
                    )
                )
            points = 0
        else:
            # Separators alone ("," or "-") are no cards either.
            if not cards and readable:
                problems.append(
                    Problem(
                        number,
                        cards_field(seat),
                        f"Round {number}: {name} did not go out, so {name} holds cards; "
                        f"enter the cards left in {name}'s hand.",
                    )
                )
            if made_contract and going_out_only:
                problems.append(_made_only_going_out(number, seat, name, contract, rules))
                made_contract = False
            points = score_cards(cards, rules)
        hands.append(
            HandResult(
                contract=contract,
                made_contract=made_contract,
                cards=format_cards(cards),
                points=points,
            )
        )
    if players:
        overflow = rules.packs(players).overflow(table)
        if overflow:
            problems.append(
                Problem(
                    number,
                    TABLE_CARDS_FIELD,
                    f"Round {number}: more cards are entered across the table than the "
                    f"game's packs hold: {'; '.join(overflow)}.",
                )
            )
    return hands, problems


def _typed_hand(
    rules: RuleSet,
    number: int,
    name: str,
    seat: int,
    went_out: bool,
    hand: HandEntry,
    contract: int,
    problems: list[Problem],
) -> HandResult:
    """A hand given as a typed total: a whole number 0 to MAX_TYPED_TOTAL, 0 for whoever went
    out, and no cards beside it (one or the other: both would disagree sooner or later)."""
    total = hand.total if hand.total is not None else 0
    field = total_field(seat)
    if isinstance(total, bool) or not 0 <= total <= MAX_TYPED_TOTAL:
        problems.append(
            Problem(
                number,
                field,
                f"Round {number}, {name}: a total is a whole number from 0 to "
                f"{MAX_TYPED_TOTAL} (entered: {total}).",
            )
        )
        total = 0
    if hand.cards.strip():
        problems.append(
            Problem(
                number,
                field,
                f"Round {number}, {name}: give the cards left or a total, not both.",
            )
        )
    made_contract = bool(hand.made_contract)
    if went_out:
        if total != 0:
            problems.append(
                Problem(
                    number,
                    field,
                    f"Round {number}: {name} went out, so {name} scores 0 (entered: {total}).",
                )
            )
            total = 0
        if hand.made_contract is False:
            problems.append(_went_out_made_it(number, seat, name, contract))
        made_contract = True
    elif made_contract and rules.contract(contract).going_out_only:
        problems.append(_made_only_going_out(number, seat, name, contract, rules))
        made_contract = False
    return HandResult(
        contract=contract,
        made_contract=made_contract,
        cards="",
        points=total,
        typed_total=True,
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


def _went_out_made_it(number: int, seat: int, name: str, contract: int) -> Problem:
    """The refusal of a hand that went out yet is marked as not having made its contract."""
    return Problem(
        number,
        made_field(seat),
        f"Round {number}: {name} went out, so {name} made contract {contract}; "
        "it cannot be marked as not made.",
    )


def _made_only_going_out(
    number: int, seat: int, name: str, contract: int, rules: RuleSet
) -> Problem:
    """The refusal of a contract marked made by a player who did not go out, where the
    contract is made only by going out (bellevue 10, contract-rummy 7)."""
    return Problem(
        number,
        made_field(seat),
        f"Round {number}: {name} did not go out, so {name} cannot have made "
        f"contract {contract} ({rules.contract(contract).description}): "
        "it is made only by going out.",
    )
