"""Checking what was entered: who sits at the table (``check_table``) and one round's hands
(``check_round``), each refusal a ``Problem`` naming the round, the player and the form's field,
its sentence a message of the rules engine's (``N_``: put into words where it is shown). Pure,
no Flask, no database."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scorekeeper.limits import CARDS_LENGTH, MAX_HAND_CARDS, MAX_NAMES, MAX_PLAYERS
from scorekeeper.names import name_key
from scorekeeper.rules import (
    N_,
    PHASE_10,
    Card,
    CardError,
    GoingOut,
    Message,
    N_plural,
    Packs,
    RuleSet,
    format_cards,
    parse_cards,
    score_cards,
)

from .values import (
    EVERYONE,
    MAX_TYPED_TOTAL,
    PLAYERS_FIELD,
    ROUND_FIELD,
    TABLE_CARDS_FIELD,
    WENT_OUT_FIELD,
    HandEntry,
    HandResult,
    Lineup,
    Problem,
    RoundEntry,
    cards_field,
    made_field,
    one_after_another,
    total_field,
)


def points_of(text: str, rules: RuleSet) -> int:
    """What leftover cards written ``text`` score; raises CardError."""
    return score_cards(parse_cards(text, rules), rules)


def may_float(rules: RuleSet) -> bool:
    """Whether a player who did not go out may hold no cards (a floater, ``phase-10.md``):
    on a Phase 10 deck where going out needs a discard, a player who hit every card waits
    with none for a card to discard. Where a hand empty at the end of the turn has gone out
    (``either``), and in every game on standard cards (``game-format.md``), a hand with no
    cards went out."""
    return rules.deck == PHASE_10 and rules.going_out is GoingOut.DISCARD


def hand_problem(rules: RuleSet, players: int, text: str) -> Message | None:
    """Why the cards written ``text`` cannot be one player's hand in a game of ``players``
    under ``rules`` (a card that does not exist, more cards than a hand holds, more of a card
    or more jokers than the game's packs hold), or None when they can. The round's check
    (``check_round``) says the same of every hand together."""
    try:
        cards = parse_cards(text, rules)
    except CardError as error:
        return error.message
    if len(cards) > MAX_HAND_CARDS:
        return _too_many_cards(len(cards))
    overflow = rules.packs(max(players, 1)).overflow(cards)
    if overflow:
        return N_("%(problems)s.", problems=one_after_another(overflow))
    return None


def packs_words(packs: Packs) -> Message:
    """The packs in words: "3 decks and 6 jokers"; a deck that has no jokers (Phase 10's: its
    Wilds and Skips are among its cards) "1 deck"."""
    if not any(special.key == "joker" for special in packs.deck.specials):
        return N_plural("%(num)s deck", "%(num)s decks", num=packs.decks)
    return N_(
        "%(decks)s and %(jokers)s",
        decks=N_plural("%(num)s deck", "%(num)s decks", num=packs.decks),
        jokers=N_plural("%(num)s joker", "%(num)s jokers", num=packs.jokers),
    )


def _too_many_cards(count: int) -> Message:
    return N_plural(
        "%(num)s card is entered; a hand holds at most %(most)s.",
        "%(num)s cards are entered; a hand holds at most %(most)s.",
        num=count,
        most=MAX_HAND_CARDS,
    )


def typed_total_problem(number: int, name: str, seat: int, entered: str | int) -> Problem:
    """The refusal of a hand's typed total that is no whole number from 0 to MAX_TYPED_TOTAL
    (``entered``: as typed)."""
    return Problem(
        number,
        total_field(seat),
        N_(
            "Round %(round)s, %(name)s: a total is a whole number from 0 to %(most)s "
            "(entered: %(entered)s).",
            round=number,
            name=name,
            # The most that may be typed, written as it is typed (no thousands separator).
            most=str(MAX_TYPED_TOTAL),
            entered=str(entered),
        ),
    )


def check_table(
    rules: RuleSet,
    names: Sequence[str],
    first_dealer: int = 0,
    lineup: Lineup = EVERYONE,
    rounds: int = 0,
) -> list[Problem]:
    """The refusals about who plays: too few or too many for the rules, or a name twice. The
    most players (the rules', and ``MAX_PLAYERS``) counts those at the table at once
    (``lineup``, over the ``rounds`` played and the next one): one who left makes room for one
    who joins. Names ever seated count against ``MAX_NAMES``."""
    problems: list[Problem] = []
    count = len(names)
    at_once = count
    if lineup.changes and count <= MAX_NAMES:
        # The table grows only when someone joins or comes back: its most is in round 1 or the
        # first round of a joiner or of one back.
        firsts = {first for first in lineup.arrivals() if first <= rounds + 1}
        at_once = max(len(lineup.seats_in(number, count)) for number in firsts)
    if count < max(2, rules.min_players):
        fewest = max(2, rules.min_players)
        problems.append(
            Problem(
                None,
                PLAYERS_FIELD,
                N_(
                    "%(rules)s needs at least %(fewest)s players; this game has %(count)s.",
                    rules=rules.name,
                    fewest=fewest,
                    count=count,
                ),
            )
        )
    if count > MAX_NAMES:
        problems.append(
            Problem(
                None,
                PLAYERS_FIELD,
                N_(
                    "A game seats at most %(most)s names in all; this one has %(count)s.",
                    most=MAX_NAMES,
                    count=count,
                ),
            )
        )
    elif at_once > MAX_PLAYERS:
        problems.append(
            Problem(
                None,
                PLAYERS_FIELD,
                N_(
                    "A game has at most %(most)s players at the table at once; this one has "
                    "%(count)s.",
                    most=MAX_PLAYERS,
                    count=at_once,
                ),
            )
        )
    elif rules.max_players is not None and at_once > rules.max_players:
        problems.append(
            Problem(
                None,
                PLAYERS_FIELD,
                N_(
                    "%(rules)s is for at most %(most)s players; this game has %(count)s.",
                    rules=rules.name,
                    most=rules.max_players,
                    count=at_once,
                ),
            )
        )
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if not key:
            problems.append(Problem(None, PLAYERS_FIELD, N_("A player's name is empty.")))
        elif key in seen:
            problems.append(
                Problem(
                    None,
                    PLAYERS_FIELD,
                    N_(
                        "%(name)s is named twice (%(first)s and %(name)s); every player needs "
                        "a name of their own.",
                        name=name,
                        first=seen[key],
                    ),
                )
            )
        else:
            seen[key] = name
    if names and not 0 <= first_dealer < count:
        problems.append(
            Problem(None, "first_dealer", N_("The first dealer must be one of the players."))
        )
    return problems


def check_round(
    rules: RuleSet,
    names: tuple[str, ...],
    number: int,
    entry: RoundEntry,
    contracts: list[int],
    seats: Sequence[int] | None = None,
    packs_for: int | None = None,
) -> tuple[list[HandResult], list[Problem]]:
    """One round's hands checked and scored; ``seats`` are those dealt into it (None: every
    seat). A seat not dealt in gets an empty hand outside the round, whatever was entered.
    ``packs_for``: the most players at the table in any round so far, whom the packs are for
    (None: those dealt into this round)."""
    problems: list[Problem] = []
    players = len(names)
    present = set(range(players) if seats is None else seats)
    went_out = entry.went_out
    if went_out is not None and not 0 <= went_out < players:
        problems.append(
            Problem(
                number,
                WENT_OUT_FIELD,
                N_("Round %(round)s: who went out is not a player.", round=number),
            )
        )
        went_out = None
    elif went_out is not None and went_out not in present:
        problems.append(
            Problem(
                number,
                WENT_OUT_FIELD,
                N_(
                    "Round %(round)s: %(name)s went out, but %(name)s is not in this round.",
                    round=number,
                    name=names[went_out],
                ),
            )
        )
        went_out = None
    elif went_out is None and not rules.nobody_out_allowed:
        problems.append(
            Problem(
                number,
                WENT_OUT_FIELD,
                N_(
                    "Round %(round)s: say who went out; under %(rules)s a round ends only when "
                    "someone goes out.",
                    round=number,
                    rules=rules.name,
                ),
            )
        )
    one_turn = _one_turn(rules, number, entry, went_out, problems)
    if len(entry.hands) != players:
        problems.append(
            Problem(
                number,
                ROUND_FIELD,
                N_(
                    "Round %(round)s: every player of the game must appear in every round.",
                    round=number,
                ),
            )
        )
    hands: list[HandResult] = []
    table: list[Card] = []
    held_cards: list[tuple[int, list[Card]]] = []
    for seat in range(players):
        name = names[seat]
        hand = entry.hands[seat] if seat < len(entry.hands) else HandEntry()
        contract = contracts[seat]
        if seat not in present:
            if hand.cards.strip() or hand.total is not None or hand.made_contract:
                # A hand said for a player not dealt in (a crafted correction): refused.
                problems.append(
                    Problem(
                        number,
                        cards_field(seat),
                        N_(
                            "Round %(round)s: %(name)s was not dealt into this round, so "
                            "%(name)s has no hand in it.",
                            round=number,
                            name=name,
                        ),
                    )
                )
            hands.append(HandResult(contract, False, "", 0, in_round=False))
            continue
        going_out_only = rules.contract(contract).going_out_only
        if hand.total is not None:
            if one_turn and seat == went_out and hand.total == rules.down_and_out_bonus:
                # The bonus as a game file writes the going-out player's points.
                hand = replace(hand, total=0)
            typed = _typed_hand(
                rules, number, name, seat, seat == went_out, hand, contract, problems
            )
            if one_turn and seat == went_out:
                typed = replace(typed, points=rules.down_and_out_bonus)
            hands.append(typed)
            continue
        # Whether what was entered could be read (a refusal is already listed when not).
        readable = True
        try:
            cards = parse_cards(hand.cards, rules)
        except CardError as error:
            problems.append(
                Problem(
                    number,
                    cards_field(seat),
                    N_(
                        "Round %(round)s, %(name)s: %(problem)s.",
                        round=number,
                        name=name,
                        problem=error.message,
                    ),
                )
            )
            cards = []
            readable = False
        # The cards as stored, written once (a restore checks hundreds of thousands of hands).
        written = ""
        if len(cards) > MAX_HAND_CARDS:
            problems.append(
                Problem(
                    number,
                    cards_field(seat),
                    N_(
                        "Round %(round)s, %(name)s: %(problem)s",
                        round=number,
                        name=name,
                        problem=_too_many_cards(len(cards)),
                    ),
                )
            )
            cards = []
            readable = False
        elif len(written := format_cards(cards)) > CARDS_LENGTH:
            problems.append(
                Problem(
                    number,
                    cards_field(seat),
                    N_(
                        "Round %(round)s, %(name)s: more cards are entered than any hand holds.",
                        round=number,
                        name=name,
                    ),
                )
            )
            cards, written = [], ""
            readable = False
        table.extend(cards)
        held_cards.append((seat, cards))
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
                        N_(
                            "Round %(round)s: %(name)s went out, so %(name)s holds no cards "
                            "(entered: %(cards)s).",
                            round=number,
                            name=name,
                            cards=written,
                        ),
                    )
                )
            points = rules.down_and_out_bonus if one_turn else 0
        else:
            # Separators alone ("," or "-") are no cards either.
            if not cards and readable and not may_float(rules):
                problems.append(
                    Problem(
                        number,
                        cards_field(seat),
                        N_(
                            "Round %(round)s: %(name)s did not go out, so %(name)s holds cards; "
                            "enter the cards left in %(name)s's hand.",
                            round=number,
                            name=name,
                        ),
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
                cards=written,
                points=points,
            )
        )
    if present:
        packs = rules.packs(max(packs_for or 0, len(present)))
        overflow = packs.overflow(table)
        # Where one hand alone holds more than the packs do, it is said at that hand; only
        # a table over (rarely) pays for looking hand by hand.
        alone = [
            (seat, held)
            for seat, cards in held_cards
            if overflow and cards and (held := packs.overflow(cards))
        ]
        for seat, held in alone:
            problems.append(
                Problem(
                    number,
                    cards_field(seat),
                    N_(
                        "Round %(round)s, %(name)s: %(problem)s.",
                        round=number,
                        name=names[seat],
                        problem=one_after_another(held),
                    ),
                )
            )
        if overflow and not alone:
            problems.append(
                Problem(
                    number,
                    TABLE_CARDS_FIELD,
                    N_(
                        "Round %(round)s: more cards are entered across the table than the "
                        "game's packs (%(packs)s) hold: %(problems)s.",
                        round=number,
                        packs=packs_words(packs),
                        problems=one_after_another(overflow),
                    ),
                )
            )
    return hands, problems


def _one_turn(
    rules: RuleSet, number: int, entry: RoundEntry, went_out: int | None, problems: list[Problem]
) -> bool:
    """Whether the round's down-and-out bonus counts: whoever went out laid down their contract
    and went out on one turn, under rules that give a bonus for it. Said where the rules give
    none, or nobody went out, it is refused."""
    if not entry.went_out_in_one_turn:
        return False
    if not rules.has_bonus:
        problems.append(
            Problem(
                number,
                WENT_OUT_FIELD,
                N_(
                    "Round %(round)s: %(rules)s gives no bonus for going down and out in one turn.",
                    round=number,
                    rules=rules.name,
                ),
            )
        )
        return False
    if went_out is None:
        problems.append(
            Problem(
                number,
                WENT_OUT_FIELD,
                N_(
                    "Round %(round)s: nobody went out, so nobody went down and out in one turn.",
                    round=number,
                ),
            )
        )
        return False
    return True


def round_bonus(rules: RuleSet, entry: RoundEntry) -> bool:
    """Whether round ``entry`` scores the down-and-out bonus (as ``check_round`` counts it)."""
    return entry.went_out_in_one_turn and rules.has_bonus and entry.went_out is not None


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
        problems.append(typed_total_problem(number, name, seat, total))
        total = 0
    if hand.cards.strip():
        problems.append(
            Problem(
                number,
                field,
                N_(
                    "Round %(round)s, %(name)s: give the cards left or a total, not both.",
                    round=number,
                    name=name,
                ),
            )
        )
    made_contract = bool(hand.made_contract)
    if went_out:
        if total != 0:
            problems.append(
                Problem(
                    number,
                    field,
                    N_(
                        "Round %(round)s: %(name)s went out, so %(name)s scores 0 "
                        "(entered: %(total)s).",
                        round=number,
                        name=name,
                        total=total,
                    ),
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


def _went_out_made_it(number: int, seat: int, name: str, contract: int) -> Problem:
    """The refusal of a hand that went out yet is marked as not having made its contract."""
    return Problem(
        number,
        made_field(seat),
        N_(
            "Round %(round)s: %(name)s went out, so %(name)s made contract %(contract)s; it "
            "cannot be marked as not made.",
            round=number,
            name=name,
            contract=contract,
        ),
    )


def _made_only_going_out(
    number: int, seat: int, name: str, contract: int, rules: RuleSet
) -> Problem:
    """The refusal of a contract marked made by a player who did not go out, where the
    contract is made only by going out (bellevue 10, contract-rummy 7)."""
    return Problem(
        number,
        made_field(seat),
        N_(
            "Round %(round)s: %(name)s did not go out, so %(name)s cannot have made contract "
            "%(contract)s (%(description)s): it is made only by going out.",
            round=number,
            name=name,
            contract=contract,
            description=rules.contract(contract).description,
        ),
    )
