"""What the tally reads and what it gives back: the entries of a round as typed (``HandEntry``,
``RoundEntry``), every refusal (``Problem``) with the field of the round form it belongs at, and
the results (``HandResult``, ``RoundResult``, ``Standing``, ``Tally``). Pure, no Flask, no
database.

A refusal says what is wrong as the rules engine's ``Message`` (an id and its values, English
as its ``str``): the page puts it into its own language (``scorekeeper.words``), and the game
file's import and the command line read it in English as before."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from scorekeeper.rules import N_, Message, N_plural, Packs, RuleSet, Winner
from scorekeeper.rules.messages import Value, listing
from scorekeeper.status import GameStatus

from ..phases import says_phases

IN_PROGRESS = GameStatus.IN_PROGRESS
FINISHED = GameStatus.FINISHED
ABANDONED = GameStatus.ABANDONED

# Where a problem shows on the round form: the field names the form uses.
ROUND_FIELD = "round"
WENT_OUT_FIELD = "went_out"
TABLE_CARDS_FIELD = "cards"
PLAYERS_FIELD = "players"


def names_in_words(names: Sequence[str]) -> str:
    """``"Ann"``, ``"Ann and Ben"``, ``"Ann, Ben and Cy"``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def points_in_words(points: int) -> Message:
    """A number of points, for a sentence: "1 point", "35 points"."""
    return N_plural("%(num)s point", "%(num)s points", num=points)


def nobody_made_last(rules: RuleSet, final: RoundResult) -> bool:
    """Whether ``final``, the last round of a game of so many hands (``hands``) under
    ``winner: last contract``, saw nobody make the last contract: the rule names nobody, so
    the standings decide, as under ``winner: most contracts``."""
    return (
        rules.winner is Winner.LAST_CONTRACT
        and rules.hands is not None
        and not any(
            hand.made_contract and hand.contract == rules.last_contract for hand in final.hands
        )
    )


def makers_in_any_hand(rules: RuleSet) -> bool:
    """Whether, under ``winner: last contract``, whoever made the last contract in any hand is
    one of its makers: in a game of so many hands (``hands``) where each player keeps their
    own contract, the game goes on after the first maker, who waits, having made every
    contract. The makers are then those who made every contract by the game's end; the lowest
    total among them wins, then the tie-break (rules.md: several makers, the lowest total), as
    under ``winner: most contracts``. Where the round sets the contract, everyone plays each
    hand's, and the makers are those of the last hand."""
    return (
        rules.winner is Winner.LAST_CONTRACT and rules.hands is not None and rules.keeps_contracts
    )


def made_every_contract(rules: RuleSet, final: RoundResult, seats: Sequence[int]) -> bool:
    """Whether each of ``seats`` has made every contract played by ``final``, a game of so
    many hands' last regular round (``makers_in_any_hand``)."""
    return makers_in_any_hand(rules) and all(
        final.contracts_made[seat] == len(rules.phases) for seat in seats
    )


def by_contracts_made(rules: RuleSet, final: RoundResult) -> bool:
    """Whether the most contracts made decide the game ``final`` ended: under ``winner: most
    contracts``; under ``winner: last contract``, a game of so many hands where each player
    keeps their own contract (``makers_in_any_hand``: whoever made every contract, in any
    hand) and one that ended with nobody making the last contract (``nobody_made_last``);
    then the lowest total, then the tie-break."""
    return (
        rules.winner is Winner.MOST_CONTRACTS
        or makers_in_any_hand(rules)
        or nobody_made_last(rules, final)
    )


def tied_on(rules: RuleSet, final: RoundResult, tied: Sequence[int]) -> tuple[str, int]:
    """What ``tied`` are level on besides points after ``final``, the game's last regular
    round, in a Phase 10 game's words: ("phase", 10) where they all made the last phase in
    it (or by then, in a game of so many hands: ``made_every_contract``), ("made", 2) where
    the most phases made rank first; ("", 0) otherwise (another game, or none of these)."""
    if not says_phases(rules):
        return "", 0
    if made_every_contract(rules, final, tied):
        return "phase", rules.last_contract
    if by_contracts_made(rules, final):
        return "made", final.contracts_made[tied[0]]
    if all(
        final.hands[seat].made_contract and final.hands[seat].contract == rules.last_contract
        for seat in tied
    ):
        return "phase", rules.last_contract
    return "", 0


def tie_break_settled(
    rules: RuleSet, final: RoundResult, tied: Sequence[int], winner: str
) -> Message:
    """How the tie-break hand decided the game, as a family says it: "Tied on phase 10 and
    on 185 points; Ann went out first in the tie-break hand."."""
    kind, number = tied_on(rules, final, tied)
    points = points_in_words(final.totals[tied[0]])
    if kind == "phase":
        return N_(
            "Tied on phase %(phase)s and on %(points)s; %(name)s went out first in the "
            "tie-break hand.",
            phase=number,
            points=points,
            name=winner,
        )
    if kind == "made":
        return N_plural(
            "Tied on %(num)s phase made and on %(points)s; %(name)s went out first in the "
            "tie-break hand.",
            "Tied on %(num)s phases made and on %(points)s; %(name)s went out first in the "
            "tie-break hand.",
            num=number,
            points=points,
            name=winner,
        )
    return N_(
        "Tied on %(points)s; %(name)s went out first in the tie-break hand.",
        points=points,
        name=winner,
    )


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
    """What was entered for one round: the seat that went out (None: nobody), one hand a seat,
    and whether whoever went out laid down their contract and went out on the same turn (the
    down-and-out bonus, only where the rules give one: ``RuleSet.has_bonus``).

    ``tie_break_hand``: the round is the tie-break hand the tied players alone play after the
    game's last round (``tie_break: replay``): whoever went out wins, and its points count in
    no total."""

    went_out: int | None
    hands: tuple[HandEntry, ...]
    went_out_in_one_turn: bool = False
    tie_break_hand: bool = False


def one_after_another(items: Sequence[Value]) -> Value:
    """Values for a sentence, one after another with semicolons (``"3 × 7♥, …; 5 × JK, …"``):
    a message's value, each item in the page's language."""
    if len(items) <= 1:
        return items[0] if items else ""
    return N_("%(first)s; %(then)s", first=items[0], then=one_after_another(items[1:]))


def owners_of(names: Sequence[str]) -> Value:
    """Whose, for a sentence: "Ben's and Cy's" (in Spanish "de Ben y de Cy")."""
    return listing([N_("%(name)s's", name=name) for name in names])


class Comeback(NamedTuple):
    """A player back at the table (``game-format.md``: a join after that player's leave): they
    left after round ``left_after`` and are back before round ``before_round`` with ``total``
    points (None: the total they had when they left), on the contract they were working on."""

    left_after: int
    before_round: int
    total: int | None = None


def comings_in_words(
    joined: tuple[int, int] | None, returns: Sequence[Comeback], left_after: int | None
) -> Message | None:
    """Where a player's total came from, for a line under their name: the join (the round
    and the points brought), each leave and comeback in order, and the last leave ("joined
    before round 5 with 135 points", "left after round 2, back before round 4"); None for a
    player who sat every round."""
    parts: list[Message] = []
    if joined is not None:
        parts.append(
            N_plural(
                "joined before round %(round)s with %(num)s point",
                "joined before round %(round)s with %(num)s points",
                num=joined[1],
                round=joined[0],
            )
        )
    for away in returns:
        parts.append(N_("left after round %(number)s", number=away.left_after))
        if away.total is None:
            parts.append(N_("back before round %(round)s", round=away.before_round))
        else:
            parts.append(
                N_plural(
                    "back before round %(round)s with %(num)s point",
                    "back before round %(round)s with %(num)s points",
                    num=away.total,
                    round=away.before_round,
                )
            )
    if left_after is not None:
        parts.append(N_("left after round %(number)s", number=left_after))
    if not parts:
        return None
    said = parts[-1]
    for part in reversed(parts[:-1]):
        said = N_("%(first)s, %(then)s", first=part, then=said)
    return said


class Arrival(NamedTuple):
    """A player dealt in again or for the first time before round ``before_round``: a joiner
    (``comeback`` False) or a player back after a leave, with the total they start it with;
    ``message`` says so in a sentence ("Fay joined the game before round 5 with 135 points")."""

    seat: int
    before_round: int
    total: int
    comeback: bool
    message: Message


@dataclass(frozen=True)
class Lineup:
    """Who comes and goes (issue 43): ``left`` maps a seat to the last round it played (it is
    in no later round); ``joined`` maps a seat to the round it joined before and the points it
    brought (it is in no earlier round). A seat in neither plays every round. ``returns`` maps
    a seat to the leaves it came back from, in order (``Comeback``): it is in no round between
    each such leave and its return. ``left`` is a seat's last leave, where it did not come back
    (still away at the end), and ``joined`` its first join, made before any leave."""

    left: Mapping[int, int] = field(default_factory=dict)
    joined: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    returns: Mapping[int, tuple[Comeback, ...]] = field(default_factory=dict)

    @property
    def changes(self) -> bool:
        """Whether anyone left, joined or came back (else everyone plays every round)."""
        return bool(self.left or self.joined or self.returns)

    def plays(self, seat: int, number: int) -> bool:
        """Whether ``seat`` is dealt into round ``number``."""
        first = self.joined[seat][0] if seat in self.joined else 1
        if not first <= number <= self.left.get(seat, number):
            return False
        return not any(
            away.left_after < number < away.before_round for away in self.returns.get(seat, ())
        )

    def comings_in_words(self, seat: int) -> Message | None:
        """Where ``seat``'s total came from (``comings_in_words``): None where it sat every
        round."""
        return comings_in_words(
            self.joined.get(seat), self.returns.get(seat, ()), self.left.get(seat)
        )

    def starting_total(self, seat: int) -> int:
        return self.joined[seat][1] if seat in self.joined else 0

    def comeback_total(self, seat: int, number: int) -> int | None:
        """The total ``seat`` comes back with before round ``number`` (None: it does not come
        back then, or comes back with the total it had)."""
        for away in self.returns.get(seat, ()):
            if away.before_round == number:
                return away.total
        return None

    def arrivals(self) -> set[int]:
        """The rounds the table may grow at: the first, and each join's and comeback's."""
        firsts = {1, *(first for first, _ in self.joined.values())}
        firsts.update(away.before_round for aways in self.returns.values() for away in aways)
        return firsts

    def seats_in(self, number: int, players: int) -> tuple[int, ...]:
        return tuple(seat for seat in range(players) if self.plays(seat, number))

    def most_at_table(self, number: int, players: int) -> int:
        """The most players at the table in any round up to ``number``: whom the packs were
        made up for (a leave never shrinks them; a join may need more, game-format.md)."""
        if not self.changes:
            return players
        return max((len(self.seats_in(n, players)) for n in range(1, number + 1)), default=0)


EVERYONE = Lineup()


@dataclass(frozen=True)
class Problem:
    """One refusal: the round it concerns (None: the game as a whole), the form field it
    belongs at, and the sentence a person reads (its English is ``str(problem)``)."""

    round: int | None
    field: str
    message: Message

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
    # False for a seat not dealt into the round (left before it, or joined after it): no hand
    # is stored for it, and it scores nothing.
    in_round: bool = True


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
    # Whoever went out made their contract and went out on one turn: their points hold the
    # rules' down-and-out bonus.
    went_out_in_one_turn: bool = False
    # The tie-break hand of the tied players (``RoundEntry.tie_break_hand``): its points are
    # in ``hands`` and in no total.
    tie_break_hand: bool = False


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
    # The last round played by a player who left the game (None: still at the table).
    left_after: int | None = None


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
    # Why a tie was broken as it was (``replay``): a message, its English the stored text.
    tie_break: Message | None
    problems: tuple[Problem, ...]
    lineup: Lineup = EVERYONE
    # The seats tied after the game's last round whom a tie-break hand must settle next
    # (``tie_break: replay``); empty when none is owed.
    tie_break_owed: tuple[int, ...] = ()

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
    def regular_rounds(self) -> int:
        """The rounds of the game's own play, a tie-break hand left out (phase-10.md: it is
        played after the game's last round, by the tied players alone): 10 of a Phase 10
        game decided by one in round 11."""
        return sum(1 for result in self.rounds if not result.tie_break_hand)

    @property
    def played_tie_break_hand(self) -> bool:
        """Whether a tie-break hand was played (it is the game's last round)."""
        return any(result.tie_break_hand for result in self.rounds)

    @property
    def next_dealer(self) -> int | None:
        number = self.next_round
        if number is None:
            return None
        previous = self.rounds[-1].dealer if self.rounds else None
        return deal_of(previous, self.first_dealer, self.dealt_in(number))

    def dealt_in(self, number: int) -> tuple[int, ...]:
        """The seats dealt into round ``number``, played or the next one: a stored round's
        hands in it; the tie-break hand owed next, the tied players alone; any other next
        round, whoever the lineup seats then. Every path that asks who plays a round asks
        this, so that a tie-break hand is dealt the same way on each."""
        if number <= len(self.rounds):
            hands = self.rounds[number - 1].hands
            return tuple(seat for seat, hand in enumerate(hands) if hand.in_round)
        if self.tie_break_owed and number == len(self.rounds) + 1:
            return self.tie_break_owed
        return self.lineup.seats_in(number, len(self.names))

    def is_tie_break(self, number: int) -> bool:
        """Whether round ``number`` (played, or the next one) is a tie-break hand: a stored
        one stays one when corrected; the next one is one while a tie owes it."""
        if number <= len(self.rounds):
            return self.rounds[number - 1].tie_break_hand
        return bool(self.tie_break_owed) and number == len(self.rounds) + 1

    def table_size(self, number: int) -> int:
        """Whom round ``number``'s packs are for: the most players at the table in any round
        up to it (a leave never shrinks the packs; at least one)."""
        return max(self.lineup.most_at_table(number, len(self.names)), 1)

    def packs_of(self, number: int) -> Packs:
        """The packs of round ``number`` (``table_size``)."""
        return self.rules.packs(self.table_size(number))

    @property
    def next_packs(self) -> Packs:
        """The packs of the next round (of the last one, once the game is over)."""
        return self.packs_of(self.next_round or max(len(self.rounds), 1))

    @property
    def more_packs(self) -> int | None:
        """Where the next round needs more packs than the round before (a join): how many
        players are at the table for it; else None."""
        number = self.next_round
        if number is None or number == 1 or self.next_packs == self.packs_of(number - 1):
            return None
        return len(self.lineup.seats_in(number, len(self.names)))

    @property
    def cards_to_deal(self) -> int | None:
        number = self.next_round
        return None if number is None else self.rules.cards_dealt(number)

    @property
    def next_contracts(self) -> tuple[int, ...]:
        """The contract each seat works on in the next round (the last one, once it is over):
        in a tie-break hand owed, the rules' last contract, whatever phase the tie was on."""
        if self.tie_break_owed:
            return (self.rules.last_contract,) * len(self.names)
        by_seat = {standing.seat: standing.contract for standing in self.standings}
        return tuple(by_seat[seat] for seat in range(len(self.names)))

    @property
    def winner_names(self) -> tuple[str, ...]:
        return tuple(self.names[seat] for seat in self.winners)

    @property
    def winner_words(self) -> Message | None:
        """Who won, in a few words ("Ann wins", "Ann and Ben share the win"); None where
        nobody did (the game goes on, or was abandoned). A message: the page puts it into its
        language (``scorekeeper.words``), its ``str`` is the English."""
        if not self.winners:
            return None
        names = listing(self.winner_names)
        if len(self.winners) == 1:
            return N_("%(names)s wins", names=names)
        return N_("%(names)s share the win", names=names)

    @property
    def why_won(self) -> Message | None:
        """Why the winners won, in the game's own ranking: the tie-break where there was one,
        else the winner's contracts made and points (where contracts made rank first, as in
        12-Step) or points; None without winners."""
        if not self.winners:
            return None
        if self.tie_break:
            return self.tie_break
        won = [standing for standing in self.standings if standing.is_winner]
        if len(won) != 1:
            return None
        winner = won[0]
        regular = [result for result in self.rounds if not result.tie_break_hand]
        if (
            self.status == FINISHED
            and regular
            and nobody_made_last(self.rules, regular[-1])
            and not (self.keeps_contracts and winner.contracts_made == len(self.rules.phases))
        ):
            return self._nobody_made_last(winner, regular[-1].number)
        if self.keeps_contracts and says_phases(self.rules):
            if self.rules.winner is Winner.LAST_CONTRACT and winner.contracts_made == len(
                self.rules.phases
            ):
                return N_(
                    "%(name)s made phase %(phase)s first, with %(points)s.",
                    name=winner.name,
                    phase=self.rules.last_contract,
                    points=points_in_words(winner.total),
                )
            return N_plural(
                "%(name)s made %(num)s phase, with %(points)s: phases made rank first, then "
                "points.",
                "%(name)s made %(num)s phases, with %(points)s: phases made rank first, then "
                "points.",
                num=winner.contracts_made,
                name=winner.name,
                points=points_in_words(winner.total),
            )
        if self.keeps_contracts:
            return N_plural(
                "%(name)s made %(num)s contract, with %(points)s: contracts made rank first, "
                "then points.",
                "%(name)s made %(num)s contracts, with %(points)s: contracts made rank first, "
                "then points.",
                num=winner.contracts_made,
                name=winner.name,
                points=points_in_words(winner.total),
            )
        return N_plural(
            "%(name)s finished with %(num)s point, the fewest.",
            "%(name)s finished with %(num)s points, the fewest.",
            num=winner.total,
            name=winner.name,
        )

    def _nobody_made_last(self, winner: Standing, last_hand: int) -> Message:
        """Why ``winner`` won a game of so many hands in whose last hand nobody made the last
        contract: the most contracts made, "Nobody made phase 10 in hand 3, the last; Ann made
        the most phases (2), with 15 points."."""
        if says_phases(self.rules):
            return N_(
                "Nobody made phase %(contract)s in hand %(round)s, the last; %(name)s made "
                "the most phases (%(made)s), with %(points)s.",
                contract=self.rules.last_contract,
                round=last_hand,
                name=winner.name,
                made=winner.contracts_made,
                points=points_in_words(winner.total),
            )
        return N_(
            "Nobody made contract %(contract)s in hand %(round)s, the last; %(name)s made "
            "the most contracts (%(made)s), with %(points)s.",
            contract=self.rules.last_contract,
            round=last_hand,
            name=winner.name,
            made=winner.contracts_made,
            points=points_in_words(winner.total),
        )

    @property
    def game_over(self) -> Message:
        """The line a page shows once the game is over: who won and why, from this tally."""
        if self.status == ABANDONED:
            if self.rounds:
                return N_(
                    "This game was abandoned after round %(round)s: it has no winner.",
                    round=len(self.rounds),
                )
            return N_("This game was abandoned before the first round: it has no winner.")
        if self.winner_words is None:
            return N_("This game is over.")
        if self.why_won:
            return N_(
                "This game is over: %(winners)s. %(why)s",
                winners=self.winner_words,
                why=self.why_won,
            )
        return N_("This game is over: %(winners)s.", winners=self.winner_words)

    @property
    def left_rank(self) -> Message | None:
        """How a player who left ranks (``game-format.md``), where one is away at the end: a
        leaver's low total is no win."""
        if not self.lineup.left:
            return None
        return N_(
            "A player who left ranks after everyone who stayed (whoever left later first) "
            "and does not win."
        )

    @cached_property
    def arrivals(self) -> tuple[Arrival, ...]:
        """Every join and comeback, in the order of the rounds they come before, each with
        the total the player starts that round with."""
        found: list[Arrival] = []
        for seat, (before, brought) in self.lineup.joined.items():
            found.append(
                Arrival(
                    seat,
                    before,
                    brought,
                    False,
                    N_plural(
                        "%(name)s joined the game before round %(round)s with %(num)s point.",
                        "%(name)s joined the game before round %(round)s with %(num)s points.",
                        num=brought,
                        name=self.names[seat],
                        round=before,
                    ),
                )
            )
        for seat, aways in self.lineup.returns.items():
            for away in aways:
                # Back with the total given, or with the one they had when they left.
                gone = away.left_after
                had = self.rounds[gone - 1].totals[seat] if gone <= len(self.rounds) else 0
                total = had if away.total is None else away.total
                found.append(
                    Arrival(
                        seat,
                        away.before_round,
                        total,
                        True,
                        N_plural(
                            "%(name)s came back before round %(round)s with %(num)s point.",
                            "%(name)s came back before round %(round)s with %(num)s points.",
                            num=total,
                            name=self.names[seat],
                            round=away.before_round,
                        ),
                    )
                )
        return tuple(sorted(found, key=lambda arrival: (arrival.before_round, arrival.seat)))

    def arrivals_before(self, number: int) -> tuple[tuple[bool, dict[int, Arrival]], ...]:
        """The rows of a round-by-round grid before round ``number``: the joiners, then those
        back, each as (comeback, {seat: arrival}), none where nobody arrives then."""
        rows: list[tuple[bool, dict[int, Arrival]]] = []
        for comeback in (False, True):
            here = {
                arrival.seat: arrival
                for arrival in self.arrivals
                if arrival.before_round == number and arrival.comeback is comeback
            }
            if here:
                rows.append((comeback, here))
        return tuple(rows)

    @property
    def tie_break_next(self) -> Message | None:
        """While a tie-break hand is owed, who is tied, on what, and that the next hand is
        theirs alone: "Ann and Ben are tied on phase 10 and on 185 points. The next hand is
        the tie-break hand, with only Ann and Ben, on phase 10: the first to go out wins, and
        its points count in no total."; None otherwise."""
        if not self.tie_break_owed:
            return None
        tied = self.tie_break_owed
        final = [result for result in self.rounds if not result.tie_break_hand][-1]
        names = listing([self.names[seat] for seat in tied])
        kind, number = tied_on(self.rules, final, tied)
        points = points_in_words(final.totals[tied[0]])
        level: Message
        if kind == "phase":
            level = N_(
                "%(names)s are tied on phase %(phase)s and on %(points)s.",
                names=names,
                phase=number,
                points=points,
            )
        elif kind == "made":
            level = N_plural(
                "%(names)s are tied on %(num)s phase made and on %(points)s.",
                "%(names)s are tied on %(num)s phases made and on %(points)s.",
                num=number,
                names=names,
                points=points,
            )
        else:
            level = N_("%(names)s are tied on %(points)s.", names=names, points=points)
        if says_phases(self.rules):
            hand = N_(
                "The next hand is the tie-break hand, with only %(names)s, on phase "
                "%(phase)s: the first to go out wins, and its points count in no total.",
                names=names,
                phase=self.rules.last_contract,
            )
        else:
            hand = N_(
                "The next hand is the tie-break hand, with only %(names)s, on contract "
                "%(contract)s: the first to go out wins, and its points count in no total.",
                names=names,
                contract=self.rules.last_contract,
            )
        return N_("%(level)s %(hand)s", level=level, hand=hand)

    @property
    def tie_break_played(self) -> Message | None:
        """The tie-break hand once played, as a round of its own: "Tie-break hand (round 13):
        Ann 0 points and Ben 25 points, added to no total."; None where none was played."""
        played = [result for result in self.rounds if result.tie_break_hand]
        if not played:
            return None
        hand = played[-1]
        seats = sorted(
            (seat for seat, dealt in enumerate(hand.hands) if dealt.in_round),
            key=lambda seat: (seat != hand.went_out, hand.hands[seat].points),
        )
        return N_(
            "Tie-break hand (round %(round)s): %(hands)s, added to no total.",
            round=hand.number,
            hands=listing(
                [
                    N_(
                        "%(name)s %(points)s",
                        name=self.names[seat],
                        points=points_in_words(hand.hands[seat].points),
                    )
                    for seat in seats
                ]
            ),
        )

    def standing(self, seat: int) -> Standing:
        return next(standing for standing in self.standings if standing.seat == seat)

    def problems_of_round(self, number: int) -> tuple[Problem, ...]:
        return tuple(problem for problem in self.problems if problem.round == number)


def deal_of(previous: int | None, first_dealer: int, seats: Sequence[int]) -> int:
    """The seat that deals a round: the deal passes to the left each round, among the players
    in that round (``seats``, in seating order): the first of them at or after the first
    dealer for round 1 (``previous`` None), else the first after the last round's dealer."""
    if not seats:
        return first_dealer
    start = first_dealer if previous is None else previous + 1
    after = [seat for seat in seats if seat >= start]
    return after[0] if after else seats[0]
