"""The referee's ruling on a contract's lay-down: ``check_contract``, each meld ruled as it goes
down, then the lay-down as a whole (one meld a requirement, exact sizes, sets of one rank, the
wild cards of all its melds, runs of one suit continuing each other)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .cards import AnyRank, Card, as_cards, card_list
from .contracts import MeldKind, MeldRequirement
from .melds import Meld, RunReading, read_color, read_run, read_set
from .messages import N_, Message, N_plural, Value, listing
from .referee import CardsLike, Ruling, _reason, _within, check_meld
from .ruleset import RuleSet, RulesLike, get_ruleset
from .sources import Reason

__all__ = ["check_contract", "runs_continue"]


@dataclass(frozen=True, slots=True)
class _Option:
    meld: Meld
    run: RunReading | None


def _options(
    cards: Sequence[Card], requirement: MeldRequirement, rules: RuleSet, exact: bool
) -> list[_Option]:
    """Every reading of ``cards`` that meets ``requirement`` (exactly as long, with ``exact``)."""
    if len(cards) < requirement.size or (exact and len(cards) != requirement.size):
        return []
    if requirement.kind is MeldKind.RUN:
        runs, _ = read_run(cards, rules)
        return [_Option(run.meld, run) for run in runs]
    if requirement.kind is MeldKind.COLOR:
        group, _ = read_color(cards, rules, requirement.size)
        return [] if group is None else [_Option(group, None)]
    meld, _ = read_set(cards, rules, kind=requirement.kind, rank=requirement.rank)
    return [] if meld is None else [_Option(meld, None)]


def runs_continue(first: RunReading, second: RunReading, wrap: bool = False) -> bool:
    """True when two runs of one suit touch or overlap, leaving out no card between them
    (K-Q-J-10 and 9-8-7-6 of hearts); with ``wrap``, across the corner too (K-Q-J-10 and
    A-2-3-4, the king and the ace neighbours)."""
    if first.suit is not second.suit:
        return False
    if not wrap:
        return first.lo <= second.hi + 1 and second.lo <= first.hi + 1
    ranks = {place % 13 for place in range(first.lo, first.hi + 1)}
    return any(
        (place + step) % 13 in ranks
        for place in range(second.lo, second.hi + 1)
        for step in (-1, 0, 1)
    )


# The checks of a lay-down as a whole, in the order a refusal names them.
_LAYDOWN_CHECKS = (
    "exact_meld_sizes",
    "same_rank_sets_allowed",
    "max_wilds_per_laydown",
    "continue",
)


def _set_rank(meld: Meld) -> AnyRank | None:
    return next((placed.card.rank for placed in meld.placements if not placed.is_wild), None)


def _laydown_ok(combination: Sequence[_Option], rules: RuleSet, checks: frozenset[str]) -> bool:
    """Whether the melds chosen for a contract pass the lay-down's ``checks``."""
    if "max_wilds_per_laydown" in checks and rules.max_wilds_per_laydown is not None:
        wild = sum(len(option.meld.wild_cards) for option in combination)
        if wild > rules.max_wilds_per_laydown:
            return False
    if "same_rank_sets_allowed" in checks and not rules.same_rank_sets_allowed:
        ranks = [
            _set_rank(option.meld)
            for option in combination
            # A pair of aces is a set of 2 aces (rules.md): with it, a set of aces is a
            # second set of one rank.
            if option.meld.kind in (MeldKind.SET, MeldKind.PAIR)
            and _set_rank(option.meld) is not None
        ]
        if len(ranks) != len(set(ranks)):
            return False
    if "continue" in checks and not rules.same_suit_runs_may_continue:
        runs = [option.run for option in combination if option.run is not None]
        if any(
            runs_continue(a, b, rules.runs_may_wrap) for a, b in itertools.combinations(runs, 2)
        ):
            return False
    return True


def _cards_of(melds: Sequence[CardsLike], rules: RuleSet) -> list[list[Card]]:
    if isinstance(melds, str):
        raise TypeError("give the melds as a list, one entry a meld")
    return [as_cards(meld, rules.deck) for meld in melds]


def _assignments(
    options: list[list[list[_Option]]], count: int, rules: RuleSet, checks: frozenset[str]
) -> Iterator[tuple[list[int], list[_Option]]]:
    melds = len(options)
    for chosen in itertools.permutations(range(melds), count):
        per_requirement = [options[meld][requirement] for requirement, meld in enumerate(chosen)]
        if any(not choices for choices in per_requirement):
            continue
        for combination in itertools.product(*per_requirement):
            if _laydown_ok(combination, rules, checks):
                yield list(chosen), list(combination)


def check_contract(melds: Sequence[CardsLike], rules: RulesLike, contract_number: int) -> Ruling:
    """Rule whether ``melds``, laid down together, make contract ``contract_number``.

    Each meld must meet one of the contract's requirements (at least as long as
    asked, longer is fine), one meld per requirement and no more melds than the
    contract asks (unless the house allows extra melds); two runs of one suit
    may not continue each other where the rules say so. Raises
    ContractNumberError for a contract the rules do not have.
    """
    rules = get_ruleset(rules)
    contract = rules.contract(contract_number)
    groups = _cards_of(melds, rules)
    wanted = len(contract.melds)
    number, asked = contract.number, contract.description
    problems: list[Reason] = []
    if len(groups) < wanted or (len(groups) > wanted and not rules.extra_melds):
        problems.append(
            _reason(
                rules,
                "contracts" if len(groups) < wanted else "extra_melds",
                rules.deck.wording.contract_exactly(
                    wanted,
                    number,
                    asked,
                    N_plural("%(num)s was laid down", "%(num)s were laid down", num=len(groups)),
                ),
            )
        )
    rulings = [check_meld(group, rules) if group else None for group in groups]
    for meld_number, (group, ruling) in enumerate(zip(groups, rulings, strict=True), start=1):
        if ruling is None:
            problems.append(
                _reason(rules, "melds", N_("Meld %(number)s has no cards", number=meld_number))
            )
        elif not ruling.valid:
            for reason in ruling.reasons:
                problems.append(
                    _within(
                        reason,
                        N_(
                            "Meld %(number)s (%(cards)s) is not a meld: %(reason)s",
                            number=meld_number,
                            cards=card_list(group),
                            reason=reason.message.as_written(),
                        ),
                    )
                )
    if problems:
        return Ruling(False, None, tuple(problems))
    # A contract laid down while going out takes all the cards: its melds may be longer.
    exact = rules.exact_meld_sizes and not contract.going_out_only
    options = [
        [_options(group, requirement, rules, exact) for requirement in contract.melds]
        for group in groups
    ]
    found = next(_assignments(options, wanted, rules, frozenset(_LAYDOWN_CHECKS)), None)
    if found is None:
        loose = [
            [_options(group, requirement, rules, False) for requirement in contract.melds]
            for group in groups
        ]
        if next(_assignments(loose, wanted, rules, frozenset()), None) is not None:
            return Ruling(False, None, tuple(_laydown_refusals(groups, loose, options, rules)))
        kinds_fit = False
        laid = listing(
            [
                # A pair laid down reads "a pair" (its requirement names no rank here).
                MeldRequirement(ruling.kind, len(group)).describe()
                if ruling and ruling.kind
                else "?"
                for group, ruling in zip(groups, rulings, strict=True)
            ]
        )
        assert not kinds_fit
        refused = rules.deck.wording.contract_laid(number, asked, laid)
        return Ruling(False, None, (_reason(rules, "contracts", refused),))
    chosen, combination = found
    arrangement = [option.meld for option in combination]
    extra = [number for number in range(len(groups)) if number not in chosen]
    made: list[Value] = [
        N_("%(requirement)s (%(meld)s)", requirement=requirement.describe(), meld=str(option.meld))
        for requirement, option in zip(contract.melds, combination, strict=True)
    ]
    reasons = [
        _reason(
            rules,
            "contracts",
            rules.deck.wording.contract_asks(number, asked, listing(made)),
        )
    ]
    for index in extra:
        ruling = rulings[index]
        assert ruling is not None and ruling.meld is not None
        arrangement.append(ruling.meld)
        reasons.append(
            _reason(
                rules,
                "extra_melds",
                N_("Extra melds may go down with a contract (%(meld)s)", meld=str(ruling.meld)),
            )
        )
    if not rules.same_suit_runs_may_continue and sum(1 for option in combination if option.run) > 1:
        reasons.append(
            _reason(
                rules,
                "same_suit_runs_may_continue",
                N_("Runs of one suit leave out a card between them"),
            )
        )
    notes: list[Reason] = []
    if contract.going_out_only:
        notes.append(
            _reason(
                rules,
                "going_out",
                N_(
                    "Contract %(number)s is laid down only while going out: all your cards go "
                    "down at once",
                    number=number,
                ),
            )
        )
    kind = combination[0].meld.kind if len({o.meld.kind for o in combination}) == 1 else None
    return Ruling(True, kind, tuple(reasons), tuple(arrangement), tuple(notes))


def _laydown_refusals(
    groups: Sequence[Sequence[Card]],
    loose: list[list[list[_Option]]],
    options: list[list[list[_Option]]],
    rules: RuleSet,
) -> list[Reason]:
    """Why melds that each meet a requirement still make no lay-down: each check of the
    lay-down as a whole that alone leaves no way (every such one)."""
    wanted = len(loose[0]) if loose else 0
    reasons: list[Reason] = []
    for check in _LAYDOWN_CHECKS:
        table = options if check == "exact_meld_sizes" else loose
        if next(_assignments(table, wanted, rules, frozenset({check})), None) is not None:
            continue
        reasons.append(_reason(rules, _CHECK_OPTION[check], _laydown_words(check, groups, rules)))
    if not reasons:
        reasons.append(
            _reason(
                rules,
                "contracts",
                N_(
                    "These melds meet the contract only by breaking one rule of the lay-down or "
                    "another"
                ),
            )
        )
    return reasons


_CHECK_OPTION = {
    "exact_meld_sizes": "exact_meld_sizes",
    "same_rank_sets_allowed": "same_rank_sets_allowed",
    "max_wilds_per_laydown": "max_wilds_per_laydown",
    "continue": "same_suit_runs_may_continue",
}


def _laydown_words(check: str, groups: Sequence[Sequence[Card]], rules: RuleSet) -> Message:
    if check == "exact_meld_sizes":
        return N_("Each meld of a contract goes down exactly as long as the contract asks")
    if check == "same_rank_sets_allowed":
        return rules.deck.wording.two_sets
    if check == "max_wilds_per_laydown":
        most = rules.max_wilds_per_laydown or 0
        wild = sum(1 for group in groups for card in group if rules.is_wild(card))
        return N_plural(
            "A lay-down holds at most %(num)s wild card in all its melds, and this has %(count)s",
            "A lay-down holds at most %(num)s wild cards in all its melds, and this has %(count)s",
            num=most,
            count=wild,
        )
    return N_(
        "Two runs of one suit may not continue each other (K-Q-J-10 and 9-8-7-6): leave out a "
        "card between them"
    )
