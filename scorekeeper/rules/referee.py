"""The referee's rulings on a meld and a contract lay-down, and how a ruling's reasons are told
(each naming its rule and source). Lay-offs and liberations are ruled in ``moves``."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .cards import Card, Rank, as_cards, card_list
from .contracts import MeldKind, MeldRequirement
from .melds import (
    Meld,
    Problem,
    RunReading,
    read_run,
    read_set,
)
from .messages import N_, Message, N_plural, Value, listing
from .ruleset import RuleSet, RulesLike, Spacing, get_ruleset
from .sources import Reason

__all__ = [
    "CardsLike",
    "Ruling",
    "check_contract",
    "check_meld",
    "runs_continue",
]

CardsLike = str | Sequence[Card]
"""Cards as the functions take them: notation text or Card values."""


@dataclass(frozen=True)
class Ruling:
    """The referee's answer.

    ``valid``; ``kind`` (``"set"``, ``"run"``, ``"pair"`` or None); ``reasons``,
    sentences naming the rule each applies and its source (never empty when not
    valid: then they list every problem); ``arrangement``, the melds as the
    referee reads them (one for a meld, lay-off or liberation; the lay-down's
    melds for a contract); ``notes``, what follows from the ruling (a freed wild
    card must be played at once); ``freed``, the wild card a liberation frees.
    """

    valid: bool
    kind: MeldKind | None
    reasons: tuple[Reason, ...]
    arrangement: tuple[Meld, ...] = ()
    notes: tuple[Reason, ...] = ()
    freed: Card | None = None

    @property
    def meld(self) -> Meld | None:
        """The first meld of the arrangement, or None."""
        return self.arrangement[0] if self.arrangement else None

    def __str__(self) -> str:
        verdict = "valid" if self.valid else "not valid"
        return f"{verdict}: " + " ".join(self.reasons)


# Options that settle what a family's document leaves to reading: a ruling resting on one
# names it and quotes the sentence read, so the table can see the choice and change it.
_READINGS = ("pair_all_real", "layoff_on_contract_turn")


def _reason(rules: RuleSet, rule: str, text: Message) -> Reason:
    if rule in _READINGS:
        return _reading(rules, rule, text)
    return Reason.citing(text.capitalized(), rule, rules.source(rule))


def _reading(rules: RuleSet, option: str, text: Message) -> Reason:
    """``text`` naming ``option`` and quoting the document's sentence it reads: the rule
    set's own source, or, where house rules changed the option, its preset's sentence."""
    source = rules.source(option)
    quote = source.quote
    if quote:
        message = N_(
            "%(sentence)s (option %(option)s, from “%(quote)s”)",
            sentence=text,
            option=option,
            quote=quote,
        )
    else:
        preset_quote = get_ruleset(rules.base).source(option).quote
        if preset_quote and source.document is None and not source.is_default:
            message = N_(
                "%(sentence)s (option %(option)s, which changes “%(quote)s”)",
                sentence=text,
                option=option,
                quote=preset_quote,
            )
        else:
            message = N_("%(sentence)s (option %(option)s)", sentence=text, option=option)
    return Reason.citing(message.capitalized(), option, source)


def _within(reason: Reason, outer: Message) -> Reason:
    """``reason`` told inside a sentence of its own (``outer`` holds it, as written, as its
    value ``reason``), citing the same source."""
    if reason.cited:
        return Reason.citing(outer, reason.rule, reason.source)
    return Reason(str(outer), reason.rule, reason.source, outer)


def _problems(rules: RuleSet, problems: Sequence[Problem]) -> list[Reason]:
    reasons: list[Reason] = []
    seen: set[str] = set()
    for rule, text in problems:
        if text in seen:
            continue
        seen.add(text)
        reasons.append(_reason(rules, rule, text))
    return reasons


def _pair_ranks(rules: RuleSet) -> list[Rank | None]:
    ranks: list[Rank | None] = []
    for contract in rules.contracts:
        for requirement in contract.melds:
            if requirement.kind is MeldKind.PAIR and requirement.rank not in ranks:
                ranks.append(requirement.rank)
    return ranks


def _explain_set(meld: Meld, rules: RuleSet) -> list[Reason]:
    rank = next(
        (placed.card.rank for placed in meld.placements if not placed.is_wild),
        None,
    )
    shown = str(meld)
    pair = meld.kind is MeldKind.PAIR
    if rank is None:
        what = (
            N_("A pair of one rank: cards of one rank, suits free (%(meld)s)", meld=shown)
            if pair
            else N_("A set of one rank: cards of one rank, suits free (%(meld)s)", meld=shown)
        )
    elif pair:
        what = N_(
            "A pair of %(rank)s: cards of one rank, suits free (%(meld)s)",
            rank=rank.plural,
            meld=shown,
        )
    else:
        what = N_(
            "A set of %(rank)s: cards of one rank, suits free (%(meld)s)",
            rank=rank.plural,
            meld=shown,
        )
    reasons = [_reason(rules, "melds", what)]
    if pair:
        reasons.append(
            _reason(rules, "contracts", N_("A pair is a meld only where a contract asks for one"))
        )
    reasons.extend(_explain_wild(meld, rules, "set"))
    return reasons


def _explain_wild(meld: Meld, rules: RuleSet, kind: str) -> list[Reason]:
    wild = meld.wild_cards
    if not wild:
        return []
    reasons: list[Reason] = []
    for placed in wild:
        assert placed.stands_for is not None
        card, stands_for = placed.card.short, placed.stands_for.short
        if kind == "set" and placed.stands_for.rank:
            text = N_("%(card)s is wild and stands for a %(rank)s", card=card, rank=stands_for)
        else:
            text = N_(
                "%(card)s is wild and stands for %(stands_for)s", card=card, stands_for=stands_for
            )
        reasons.append(_reason(rules, "wild_ranks", text))
    spacing = rules.wild_spacing.set if kind == "set" else rules.wild_spacing.run
    if spacing is Spacing.FREE:
        if kind == "set":
            text = N_("Wild cards may sit side by side in a set")
        else:
            text = N_("Wild cards may sit anywhere in a run, side by side too")
    elif kind == "set":
        text = N_(
            "Wild cards may not sit side by side in a set; a wild card may stand at either end"
        )
    else:
        text = N_("In a run wild cards must be separated by a real card")
    reasons.append(_reason(rules, "wild_spacing", text))
    reasons.append(
        _reason(
            rules,
            "min_real_cards",
            N_plural(
                "Every meld needs a real card, and this one has enough",
                "Every meld needs %(num)s real cards, and this one has enough",
                num=rules.min_real_cards,
            ),
        )
    )
    return reasons


def _explain_run(reading: RunReading, rules: RuleSet) -> list[Reason]:
    meld = reading.meld
    suit = reading.suit
    reasons = [
        _reason(
            rules,
            "melds",
            N_(
                "A run of %(suit)s: consecutive cards of one suit (%(meld)s)",
                suit=suit.plural,
                meld=str(meld),
            ),
        )
    ]
    has_ace = reading.lo == 1 or reading.hi == 14
    if has_ace:
        allowed = {
            "high or low": N_("Aces may be high or low"),
            "low": N_("Aces are low"),
            "high": N_("Aces are high"),
        }
        source = rules.source("aces")
        # The source sits inside the sentence here, before what this run makes of its ace.
        message = N_(
            "%(rule)s (%(source)s); here the ace is %(where)s",
            rule=allowed[rules.aces],
            source=source.citation,
            where=N_("low") if reading.lo == 1 else N_("high"),
        )
        reasons.append(Reason(str(message), "aces", source, message))
    for placed in meld.placements:
        card = placed.card
        if not placed.is_wild and card.rank is not None and rules.is_wild_rank(card.rank):
            reasons.append(
                _reason(
                    rules,
                    "wild_as_itself",
                    N_(
                        "%(card)s sits in its own place in a run of %(suit)s, so it is read as "
                        "itself, a real card",
                        card=card.short,
                        suit=suit.plural,
                    ),
                )
            )
        if (
            placed.is_wild
            and card.suit is suit
            and card.rank is not None
            and has_ace
            and reading.hi == 14
            and rules.wild_as_itself
        ):
            reasons.append(
                _reason(
                    rules,
                    "aces",
                    N_(
                        "A run never turns the corner (Q-K-A-2 is no run), so %(card)s is wild "
                        "here",
                        card=card.short,
                    ),
                )
            )
    reasons.extend(_explain_wild(meld, rules, "run"))
    return reasons


def _meld_readings(
    cards: Sequence[Card], rules: RuleSet
) -> tuple[Meld | None, Meld | None, list[RunReading], list[Problem], list[Problem], list[Problem]]:
    set_meld, set_problems = read_set(cards, rules)
    pair_meld: Meld | None = None
    pair_problems: list[Problem] = []
    if len(cards) < rules.min_set:
        for rank in _pair_ranks(rules):
            pair_meld, pair_problems = read_set(cards, rules, kind=MeldKind.PAIR, rank=rank)
            if pair_meld is not None:
                break
    runs, run_problems = read_run(cards, rules)
    return set_meld, pair_meld, runs, set_problems, pair_problems, run_problems


def check_meld(cards: CardsLike, rules: RulesLike) -> Ruling:
    """Rule whether ``cards`` (in any order) make one meld: a set, a run, or a pair where
    a contract asks for one.

    A valid ruling gives the arrangement found (a set before a run when both fit)
    and what each wild card stands for; an invalid one lists every problem, as a
    set and as a run. Raises CardError for bad notation, RuleSetError for bad rules.
    """
    rules = get_ruleset(rules)
    cards = as_cards(cards)
    if not cards:
        return Ruling(False, None, (_reason(rules, "melds", N_("there are no cards to rule on")),))
    set_meld, pair_meld, runs, set_problems, pair_problems, run_problems = _meld_readings(
        cards, rules
    )
    if set_meld is not None:
        return Ruling(True, MeldKind.SET, tuple(_explain_set(set_meld, rules)), (set_meld,))
    if pair_meld is not None:
        return Ruling(True, MeldKind.PAIR, tuple(_explain_set(pair_meld, rules)), (pair_meld,))
    if runs:
        return Ruling(True, MeldKind.RUN, tuple(_explain_run(runs[0], rules)), (runs[0].meld,))
    # A pair refused only for its wild card says so; its other problems (no pair of aces in
    # this contract) would only repeat the set's.
    wild_pair = [problem for problem in pair_problems if problem[0] == "pair_all_real"]
    reasons = [
        *_problems(rules, wild_pair),
        *_problems(rules, set_problems),
        *_problems(rules, run_problems),
    ]
    return Ruling(False, None, tuple(reasons))


@dataclass(frozen=True, slots=True)
class _Option:
    meld: Meld
    run: RunReading | None


def _options(cards: Sequence[Card], requirement: MeldRequirement, rules: RuleSet) -> list[_Option]:
    """Every reading of ``cards`` that meets ``requirement``."""
    if len(cards) < requirement.size:
        return []
    if requirement.kind is MeldKind.RUN:
        runs, _ = read_run(cards, rules)
        return [_Option(run.meld, run) for run in runs]
    meld, _ = read_set(cards, rules, kind=requirement.kind, rank=requirement.rank)
    return [] if meld is None else [_Option(meld, None)]


def runs_continue(first: RunReading, second: RunReading) -> bool:
    """True when two runs of one suit touch or overlap, leaving out no card between them
    (K-Q-J-10 and 9-8-7-6 of hearts)."""
    if first.suit is not second.suit:
        return False
    return first.lo <= second.hi + 1 and second.lo <= first.hi + 1


def _cards_of(melds: Sequence[CardsLike]) -> list[list[Card]]:
    if isinstance(melds, str):
        raise TypeError("give the melds as a list, one entry a meld")
    return [as_cards(meld) for meld in melds]


def _assignments(
    options: list[list[list[_Option]]], count: int, rules: RuleSet
) -> Iterator[tuple[list[int], list[_Option]]]:
    melds = len(options)
    for chosen in itertools.permutations(range(melds), count):
        per_requirement = [options[meld][requirement] for requirement, meld in enumerate(chosen)]
        if any(not choices for choices in per_requirement):
            continue
        for combination in itertools.product(*per_requirement):
            runs = [option.run for option in combination if option.run is not None]
            if not rules.same_suit_runs_may_continue and any(
                runs_continue(a, b) for a, b in itertools.combinations(runs, 2)
            ):
                continue
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
    groups = _cards_of(melds)
    wanted = len(contract.melds)
    number, asked = contract.number, contract.description
    problems: list[Reason] = []
    if len(groups) < wanted or (len(groups) > wanted and not rules.extra_melds):
        problems.append(
            _reason(
                rules,
                "contracts" if len(groups) < wanted else "extra_melds",
                N_plural(
                    "Contract %(number)s asks for %(contract)s: exactly %(num)s meld, and %(laid)s",
                    "Contract %(number)s asks for %(contract)s: exactly %(num)s melds, and "
                    "%(laid)s",
                    num=wanted,
                    number=number,
                    contract=asked,
                    laid=N_plural(
                        "%(num)s was laid down", "%(num)s were laid down", num=len(groups)
                    ),
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
    options = [
        [_options(group, requirement, rules) for requirement in contract.melds] for group in groups
    ]
    found = next(_assignments(options, wanted, rules), None)
    if found is None:
        kinds_fit = any(
            all(options[meld][requirement] for requirement, meld in enumerate(chosen))
            for chosen in itertools.permutations(range(len(groups)), wanted)
        )
        laid = listing(
            [
                # A pair laid down reads "a pair" (its requirement names no rank here).
                MeldRequirement(ruling.kind, len(group)).describe()
                if ruling and ruling.kind
                else "?"
                for group, ruling in zip(groups, rulings, strict=True)
            ]
        )
        if kinds_fit:
            return Ruling(
                False,
                None,
                (
                    _reason(
                        rules,
                        "same_suit_runs_may_continue",
                        N_(
                            "Two runs of one suit may not continue each other (K-Q-J-10 and "
                            "9-8-7-6): leave out a card between them"
                        ),
                    ),
                ),
            )
        refused = N_(
            "Contract %(number)s asks for %(contract)s, and this lay-down is %(laid)s",
            number=number,
            contract=asked,
            laid=laid,
        )
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
            N_(
                "Contract %(number)s asks for %(contract)s: %(melds)s",
                number=number,
                contract=asked,
                melds=listing(made),
            ),
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
