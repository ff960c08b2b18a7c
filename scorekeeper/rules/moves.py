"""The referee's rulings on cards put to a meld already on the table: a lay-off (cards added at
its ends) and a wild-card liberation (the real card put in, the wild card taken)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from .cards import Card, as_cards, card_list
from .contracts import MeldKind
from .melds import (
    Meld,
    Placed,
    Problem,
    RunReading,
    color_least,
    position_of,
    rank_at,
    read_color,
    read_set,
    wild_limit_problems,
    windows,
)
from .messages import N_, Message, N_plural
from .referee import (
    CardsLike,
    Ruling,
    _explain_run,
    _explain_set,
    _meld_readings,
    _problems,
    _reason,
    _within,
    color_reading,
    explain_color,
    meld_ruling,
)
from .ruleset import (
    FreedWild,
    Liberation,
    LiberationBeforeContract,
    LiberationFrom,
    RuleSet,
    RulesLike,
    Spacing,
    get_ruleset,
)
from .sources import Reason

__all__ = ["check_layoff", "check_liberation"]


def _extend_run(
    table: RunReading, added: Sequence[Card], rules: RuleSet
) -> tuple[RunReading | None, set[str]]:
    """The run ``table``, kept as it lies, with ``added`` put at its ends, if they fit there.

    Returns the grown run, or None, and the rules that failed on the way.
    """
    failures: set[str] = set()
    count = len(added)
    suit = table.suit
    deck = rules.deck
    period = deck.period
    allowed = set(windows(len(table.meld) + count, rules))
    # A wild card goes on top where it can (the ruling says which rank it stands for): the
    # fewest cards below first.
    for below in range(count + 1):
        lo, hi = table.lo - below, table.hi + count - below
        if rules.runs_may_wrap and lo < 1:
            # Past the ace low, round the corner: the same run, read a turn higher.
            table = RunReading(suit, table.lo + period, table.hi + period, table.meld)
            lo, hi = lo + period, hi + period
        if (lo, hi) not in allowed:
            failures.add("ace")
            continue
        free = [*range(lo, table.lo), *range(table.hi + 1, hi + 1)]
        slots: dict[int, Placed] = {}
        wild: list[Card] = []
        fits = True
        for card in sorted(added):
            where = None if card.rank is None else position_of(card.rank, lo, hi, period)
            if card.rank is None or rules.is_wild_rank(card.rank):
                natural = card.suit is suit and rules.wild_as_itself
                if natural and where in free and where not in slots:
                    assert where is not None
                    slots[where] = Placed(card)
                else:
                    wild.append(card)
                continue
            wrong_suit = suit is not None and card.suit is not suit
            if wrong_suit or where is None or where not in free or where in slots:
                inside = where is not None and table.lo <= where <= table.hi
                failures.add("inside" if inside else "span")
                fits = False
                break
            slots[where] = Placed(card)
        if not fits:
            continue
        placements: list[Placed] = []
        for where in range(lo, hi + 1):
            if table.lo <= where <= table.hi:
                placements.append(table.meld.placements[where - table.lo])
            elif where in slots:
                placements.append(slots[where])
            else:
                placements.append(Placed(wild.pop(0), Card(rank_at(where, deck), suit)))
        if rules.wild_spacing.run is Spacing.NOT_ADJACENT and any(
            a.is_wild and b.is_wild for a, b in itertools.pairwise(placements)
        ):
            failures.add("wild_spacing")
            continue
        wild_count = sum(1 for placed in placements if placed.is_wild)
        if rules.wild_limits_on_layoff and wild_limit_problems(
            wild_count, len(placements) - wild_count, rules
        ):
            failures.add("limits")
            continue
        return RunReading(suit, lo, hi, Meld(MeldKind.RUN, tuple(placements))), failures
    return None, failures


def check_layoff(
    meld_on_table: CardsLike, added: CardsLike, rules: RulesLike, contract_turn: bool = False
) -> Ruling:
    """Rule whether ``added`` may be laid off on ``meld_on_table``.

    Laying off is allowed once your own contract is made (the caller knows that).
    Asked with no turn, the question is about a later turn, the usual one at the
    table; ``contract_turn=True`` asks about the very turn the contract went down,
    which the rules may forbid (``layoff_on_contract_turn``: the refusal then comes
    first, with every other problem). A set takes cards of its rank; a run grows
    only at its ends and never past an ace; the meld's wild-card rules still hold
    with the cards added.
    """
    rules = get_ruleset(rules)
    if contract_turn and not rules.layoff_on_contract_turn:
        refusal = _reason(
            rules,
            "layoff_on_contract_turn",
            rules.deck.wording.layoff_not_on_contract_turn,
        )
        ruling = _check_layoff(meld_on_table, added, rules, refusal)
        others = () if ruling.valid else ruling.reasons
        return Ruling(False, None, (refusal, *others))
    if rules.layoff_on_contract_turn:
        lay_off = _reason(
            rules,
            "lay_off",
            rules.deck.wording.layoff_same_turn,
        )
    else:
        lay_off = _reason(
            rules,
            "layoff_on_contract_turn",
            rules.deck.wording.layoff_later_turn,
        )
    return _check_layoff(meld_on_table, added, rules, lay_off)


def _check_layoff(
    meld_on_table: CardsLike, added: CardsLike, rules: RuleSet, lay_off: Reason
) -> Ruling:
    table = as_cards(meld_on_table, rules.deck)
    extra = as_cards(added, rules.deck)
    if not extra:
        return Ruling(False, None, (_reason(rules, "melds", N_("There are no cards to lay off")),))
    never = [
        _reason(rules, "lay_off", N_("%(card)s never goes on a meld", card=special.word))
        for special in dict.fromkeys(
            card.special for card in extra if card.special is not None and not card.special.in_melds
        )
        if special is not None
    ]
    if never:
        return Ruling(False, None, tuple(never))
    # A meld on the table may have grown past the wild-card count limits where they do not
    # hold on laying off; where they do, the meld it grows into keeps them too.
    limits = rules.wild_limits_on_layoff
    table_ruling = meld_ruling(table, rules, limits)
    if not table_ruling.valid:
        return Ruling(False, None, tuple(_not_on_table(table_ruling.reasons)))
    problems: list[Problem] = []
    set_meld, pair_meld, runs, *_ = _meld_readings(table, rules, limits)
    if set_meld is not None or pair_meld is not None:
        grown, grown_problems = read_set([*table, *extra], rules, limits=limits)
        if grown is not None:
            reasons = [lay_off, *_explain_set(grown, rules)]
            return Ruling(True, MeldKind.SET, tuple(reasons), (grown,))
        problems.extend(grown_problems)
    failures: set[str] = set()
    for reading in runs:
        grown_run, run_failures = _extend_run(reading, extra, rules)
        failures |= run_failures
        if grown_run is not None:
            ends = [
                end
                for end, grew in (
                    ("low", grown_run.lo < reading.lo),
                    ("high", grown_run.hi > reading.hi),
                )
                if grew
            ]
            reasons = [
                lay_off,
                _reason(rules, "lay_off", _extends(extra, reading.meld, ends)),
                *_explain_run(grown_run, rules)[1:],
            ]
            return Ruling(True, MeldKind.RUN, tuple(reasons), (grown_run.meld,))
    if runs:
        problems.extend(_layoff_run_problems(runs[0], extra, rules, failures))
    group, _ = color_reading(table, rules, limits)
    least = color_least(rules)
    if group is not None and least is not None:
        grown_group, group_problems = read_color([*table, *extra], rules, least, limits=limits)
        if grown_group is not None:
            reasons = [lay_off, *explain_color(grown_group, rules)]
            return Ruling(True, MeldKind.COLOR, tuple(reasons), (grown_group,))
        problems.extend(group_problems)
    return Ruling(False, None, tuple(_problems(rules, problems)))


def _extends(extra: Sequence[Card], run: Meld, ends: list[str]) -> Message:
    """Where the cards laid off grow the run: at both ends, its low end or its high end."""
    cards, shown, count = card_list(extra), str(run), len(extra)
    if len(ends) == 2:
        return N_plural(
            "%(cards)s extends the run %(run)s at both ends (a run grows only at its ends)",
            "%(cards)s extend the run %(run)s at both ends (a run grows only at its ends)",
            num=count,
            cards=cards,
            run=shown,
        )
    if ends[0] == "low":
        return N_plural(
            "%(cards)s extends the run %(run)s at its low end (a run grows only at its ends)",
            "%(cards)s extend the run %(run)s at its low end (a run grows only at its ends)",
            num=count,
            cards=cards,
            run=shown,
        )
    return N_plural(
        "%(cards)s extends the run %(run)s at its high end (a run grows only at its ends)",
        "%(cards)s extend the run %(run)s at its high end (a run grows only at its ends)",
        num=count,
        cards=cards,
        run=shown,
    )


def _not_on_table(reasons: Sequence[Reason]) -> list[Reason]:
    """Why the meld on the table is no meld, each reason said of the table's meld."""
    return [
        _within(
            reason,
            N_(
                "The meld on the table is not a meld: %(reason)s",
                reason=reason.message.as_written(),
            ),
        )
        for reason in reasons
    ]


def _layoff_run_problems(
    reading: RunReading, extra: Sequence[Card], rules: RuleSet, failures: set[str]
) -> list[Problem]:
    problems: list[Problem] = []
    run = reading.meld
    for card in extra:
        if rules.is_wild(card) or reading.suit is None:
            continue
        if card.suit is None:
            problems.append(
                ("melds", N_("%(card)s has no suit, so it cannot go on a run", card=card.short))
            )
        elif card.suit is not reading.suit:
            problems.append(
                (
                    "melds",
                    N_(
                        "%(card)s is not of %(suit)s, and a run is of one suit",
                        card=card.short,
                        suit=reading.suit.plural,
                    ),
                )
            )
    if problems:
        return problems
    inside = [
        card
        for card in extra
        if card.rank is not None
        and not rules.is_wild(card)
        and any(
            (placed.stands_for is not None and placed.stands_for.rank == card.rank)
            or (placed.stands_for is None and placed.card.rank == card.rank)
            for placed in run.placements
        )
    ]
    if inside:
        cards, shown = card_list(inside), str(run)
        problems.append(
            (
                "lay_off",
                N_(
                    "a run grows only at its ends, and %(cards)s would go inside %(run)s (to "
                    "take a wild card's place, liberate it)",
                    cards=cards,
                    run=shown,
                )
                if any(placed.is_wild for placed in run.placements)
                else N_(
                    "a run grows only at its ends, and %(cards)s would go inside %(run)s",
                    cards=cards,
                    run=shown,
                ),
            )
        )
    if "wild_spacing" in failures:
        problems.append(
            ("wild_spacing", N_("in a run wild cards must be separated by a real card"))
        )
    if "limits" in failures:
        wild = len(run.wild_cards) + sum(1 for card in extra if rules.is_wild(card))
        problems.extend(wild_limit_problems(wild, len(run) + len(extra) - wild, rules))
    deck = rules.deck
    if "ace" in failures and not deck.ace and len(run) + len(extra) > deck.period:
        problems.append(
            (
                "lay_off",
                N_(
                    "a run holds each number once, so %(most)s cards at most, and %(run)s has "
                    "%(count)s",
                    most=deck.period,
                    run=str(run),
                    count=len(run),
                ),
            )
        )
    elif "ace" in failures and not deck.ace and not rules.runs_may_wrap:
        problems.append(
            (
                "runs_may_wrap",
                N_(
                    "a run stops at %(low)s and at %(high)s (%(run)s)",
                    low=deck.ranks[0].symbol,
                    high=deck.ranks[-1].symbol,
                    run=str(run),
                ),
            )
        )
    elif "ace" in failures and rules.runs_may_wrap:
        problems.append(("runs_may_wrap", N_("a run holds each rank once, so 13 cards at most")))
    elif "ace" in failures and (reading.lo == 1 or reading.hi == 14):
        problems.append(("aces", N_("a run does not go past an ace (%(run)s)", run=str(run))))
    if not problems:
        problems.append(
            (
                "lay_off",
                N_plural(
                    "%(cards)s does not fit at either end of %(run)s",
                    "%(cards)s do not fit at either end of %(run)s",
                    num=len(extra),
                    cards=card_list(list(extra)),
                    run=str(run),
                ),
            )
        )
    return problems


def check_liberation(
    meld_on_table: CardsLike,
    real_card: Card | str,
    rules: RulesLike,
    own_meld: bool,
    *,
    contract_made: bool = True,
    going_down: bool = False,
) -> Ruling:
    """Rule whether ``real_card`` may liberate a wild card of ``meld_on_table``: put down
    the real card the wild stands for, and take the wild.

    The rules say whether liberating is allowed at all, on others' melds only or
    on any meld (or runs only: ``liberation_from``), and when the freed wild must be played,
    or that it is kept (a note says so). ``contract_made`` False asks for a player whose
    contract is not made yet (``liberation_before_contract``; ``going_down``: on the turn
    they make it). The ruling's arrangement is the meld with the real card in place,
    ``freed`` the wild.
    """
    rules = get_ruleset(rules)
    table = as_cards(meld_on_table, rules.deck)
    card = as_cards(real_card, rules.deck)[0] if isinstance(real_card, str) else real_card
    problems: list[Reason] = []
    if rules.liberation is Liberation.OFF:
        problems.append(_reason(rules, "liberation", N_("Liberating a wild card is not allowed")))
    elif rules.liberation is Liberation.OTHERS and own_meld:
        problems.append(
            _reason(
                rules,
                "liberation",
                N_("You may liberate another player's wild card, not your own"),
            )
        )
    if not contract_made:
        problems.extend(_before_contract(rules, going_down))
    table_ruling = meld_ruling(table, rules, rules.wild_limits_on_layoff)
    if not table_ruling.valid:
        problems.extend(_not_on_table(table_ruling.reasons))
        return Ruling(False, None, tuple(problems))
    if card.rank is None or (rules.is_wild(card) and not rules.wild_as_itself):
        problems.append(
            _reason(
                rules,
                "wild_ranks",
                N_("%(card)s is itself wild, not the real card", card=card.short),
            )
        )
        return Ruling(False, None, tuple(problems))
    found = _liberate(table, card, rules)
    if found is None:
        wild = [str(placed) for meld in _all_readings(table, rules) for placed in meld.wild_cards]
        on_table = str(table_ruling.meld)
        if rules.liberation_from is LiberationFrom.RUNS and table_ruling.kind is not MeldKind.RUN:
            problems.append(
                _reason(
                    rules,
                    "liberation_from",
                    N_(
                        "Only a run's wild card may be liberated: in a set a wild card stands "
                        "for no one card"
                    ),
                )
            )
        elif not wild:
            problems.append(
                _reason(rules, "liberation", N_("%(meld)s holds no wild card", meld=on_table))
            )
        elif card.suit is None and table_ruling.kind is MeldKind.RUN:
            problems.append(
                _reason(
                    rules,
                    "melds",
                    N_("%(card)s has no suit: say which card it is", card=card.short),
                )
            )
        else:
            problems.append(
                _reason(
                    rules,
                    "liberation",
                    N_(
                        "%(card)s is not the card a wild card of %(meld)s stands for",
                        card=card.short,
                        meld=on_table,
                    ),
                )
            )
        return Ruling(False, None, tuple(problems))
    before, after, freed = found
    if problems:
        return Ruling(False, None, tuple(problems))
    takes = (
        N_(
            "%(card)s takes the place of %(wild)s, which stood for it in %(meld)s",
            card=card.short,
            wild=freed.short,
            meld=str(before),
        )
        if own_meld
        else N_(
            "%(card)s takes the place of %(wild)s, which stood for it in %(meld)s, on another "
            "player's meld",
            card=card.short,
            wild=freed.short,
            meld=str(before),
        )
    )
    if rules.freed_wild is FreedWild.AT_ONCE:
        played = N_("The freed %(card)s must be played at once", card=freed.short)
    elif rules.freed_wild is FreedWild.KEPT:
        played = N_(
            "The freed %(card)s is yours to keep, with no duty to play it", card=freed.short
        )
    else:
        played = N_("The freed %(card)s must be played in the same round", card=freed.short)
    reasons = [_reason(rules, "liberation", takes)]
    notes = [_reason(rules, "freed_wild", played)]
    return Ruling(True, after.kind, tuple(reasons + notes), (after,), tuple(notes), freed)


def _before_contract(rules: RuleSet, going_down: bool) -> list[Reason]:
    """Why a player whose contract is not made may not liberate now, if they may not."""
    when = rules.liberation_before_contract
    if when is LiberationBeforeContract.NO:
        text = N_("You may liberate a wild card only once your contract is made")
    elif when is LiberationBeforeContract.IF_GOING_DOWN and not going_down:
        text = N_(
            "Before your contract is made you may liberate a wild card only on the turn you make it"
        )
    else:
        return []
    return [_reason(rules, "liberation_before_contract", text)]


def _all_readings(cards: Sequence[Card], rules: RuleSet) -> list[Meld]:
    limits = rules.wild_limits_on_layoff
    set_meld, pair_meld, runs, *_ = _meld_readings(cards, rules, limits)
    readings = [meld for meld in (set_meld, pair_meld) if meld is not None]
    if rules.liberation_from is LiberationFrom.RUNS:
        # In a set a wild card stands for no one card: only a run's may be liberated.
        readings = []
    return readings + [run.meld for run in runs]


def _liberate(table: Sequence[Card], card: Card, rules: RuleSet) -> tuple[Meld, Meld, Card] | None:
    for meld in _all_readings(table, rules):
        candidates = [
            index
            for index, placed in enumerate(meld.placements)
            if placed.stands_for is not None and _stands_for(placed, card, meld.kind)
        ]
        if not candidates:
            continue
        candidates.sort(key=lambda index: not meld.placements[index].card.is_joker)
        index = candidates[0]
        freed = meld.placements[index].card
        placements = list(meld.placements)
        placements[index] = Placed(card)
        return meld, Meld(meld.kind, tuple(placements)), freed
    return None


def _stands_for(placed: Placed, card: Card, kind: MeldKind) -> bool:
    target = placed.stands_for
    assert target is not None
    if kind is MeldKind.RUN and target.suit is not None:
        return target == card
    return target.rank is not None and target.rank == card.rank
