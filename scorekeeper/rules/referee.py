"""The referee's rulings on a meld, and how a ruling's reasons are told (each naming its rule
and source). A contract's lay-down is ruled in ``laydown``, lay-offs and liberations in
``moves``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, Rank, as_cards
from .contracts import MeldKind
from .melds import (
    Meld,
    Problem,
    RunReading,
    color_least,
    position_of,
    read_color,
    read_run,
    read_set,
)
from .messages import N_, Message, N_plural
from .options import option_label
from .ruleset import RuleSet, RulesLike, Spacing, get_ruleset
from .sources import Reason

__all__ = [
    "CardsLike",
    "Ruling",
    "check_meld",
    "meld_ruling",
    "never_in_melds",
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
    name = option_label(option, rules.deck)
    quote = source.quote
    if quote:
        message = N_(
            "%(sentence)s (option “%(option)s”, from “%(quote)s”)",
            sentence=text,
            option=name,
            quote=quote,
        )
    else:
        preset_quote = get_ruleset(rules.base).source(option).quote
        if preset_quote and source.document is None and not source.is_default:
            message = N_(
                "%(sentence)s (option “%(option)s”, which changes “%(quote)s”)",
                sentence=text,
                option=name,
                quote=preset_quote,
            )
        else:
            message = N_("%(sentence)s (option “%(option)s”)", sentence=text, option=name)
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
    wording = rules.deck.wording
    if rank is None:
        what = (
            N_("A pair of one rank: cards of one rank, suits free (%(meld)s)", meld=shown)
            if pair
            else wording.set_of_one(shown)
        )
    elif pair:
        what = N_(
            "A pair of %(rank)s: cards of one rank, suits free (%(meld)s)",
            rank=rank.plural,
            meld=shown,
        )
    else:
        what = wording.set_of(rank.plural, shown)
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
        if kind == "color":
            colour = next(
                (p.card.suit for p in meld.placements if not p.is_wild and p.card.suit), None
            )
            text = (
                N_("%(card)s is wild and stands for a card of any colour", card=card)
                if colour is None
                else N_(
                    "%(card)s is wild and stands for a card of the group's colour (%(colour)s)",
                    card=card,
                    colour=colour.plural,
                )
            )
        elif kind == "set" and placed.stands_for.rank:
            text = rules.deck.wording.stands_for(card, stands_for)
        else:
            text = N_(
                "%(card)s is wild and stands for %(stands_for)s", card=card, stands_for=stands_for
            )
        reasons.append(_reason(rules, "wild_ranks", text))
    spacing = rules.wild_spacing.set if kind == "set" else rules.wild_spacing.run
    if kind == "color":
        pass
    elif spacing is Spacing.FREE:
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
    if kind != "color":
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
    deck = rules.deck
    if suit is None:
        assert deck.wording.run_free is not None
        what = deck.wording.run_free(str(meld))
    else:
        what = N_(
            "A run of %(suit)s: consecutive cards of one suit (%(meld)s)",
            suit=suit.plural,
            meld=str(meld),
        )
    reasons = [_reason(rules, "melds", what)]
    if not deck.ace and reading.hi > deck.period:
        reasons.append(
            _reason(
                rules,
                "runs_may_wrap",
                N_(
                    "Runs may turn the corner: here %(high)s and %(low)s are neighbours",
                    high=deck.ranks[-1].symbol,
                    low=deck.ranks[0].symbol,
                ),
            )
        )
    ace = position_of(Rank.ACE, reading.lo, reading.hi) if deck.ace else None
    has_ace = ace is not None
    if ace is not None:
        allowed = {
            "high or low": N_("Aces may be high or low"),
            "low": N_("Aces are low"),
            "high": N_("Aces are high"),
        }
        rule = "runs_may_wrap" if rules.runs_may_wrap else "aces"
        source = rules.source(rule)
        if ace == 1:
            where = N_("low")
        elif ace == reading.hi:
            where = N_("high")
        else:
            where = N_("between the king and the 2")
        # The source sits inside the sentence here, before what this run makes of its ace.
        message = N_(
            "%(rule)s (%(source)s); here the ace is %(where)s",
            rule=N_("Runs may turn the corner (Q-K-A-2)")
            if rules.runs_may_wrap
            else allowed[rules.aces],
            source=source.citation,
            where=where,
        )
        reasons.append(Reason(str(message), rule, source, message))
    for placed in meld.placements:
        card = placed.card
        if suit is None:
            continue
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
            and not rules.runs_may_wrap
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


def explain_color(meld: Meld, rules: RuleSet) -> list[Reason]:
    """Why ``meld`` is a group of one colour, and what its wild cards stand for."""
    colour = next((p.card.suit for p in meld.placements if not p.is_wild and p.card.suit), None)
    what = (
        N_(
            "Cards of one colour: %(colour)s, numbers free (%(meld)s)",
            colour=colour.plural,
            meld=str(meld),
        )
        if colour is not None
        else N_("Cards of one colour, numbers free (%(meld)s)", meld=str(meld))
    )
    return [_reason(rules, "melds", what), *_explain_wild(meld, rules, "color")]


def color_reading(
    cards: Sequence[Card], rules: RuleSet, limits: bool = True
) -> tuple[Meld | None, list[Problem]]:
    """``cards`` read as a group of one colour outside a contract (as many cards as the
    smallest such group the contracts ask for); nothing where no contract asks for one."""
    least = color_least(rules)
    if least is None or len(cards) < least:
        # Too few cards to be a group of one colour: no reading, and nothing to say of it.
        return None, []
    return read_color(cards, rules, least, limits=limits)


def _meld_readings(
    cards: Sequence[Card], rules: RuleSet, limits: bool = True
) -> tuple[Meld | None, Meld | None, list[RunReading], list[Problem], list[Problem], list[Problem]]:
    set_meld, set_problems = read_set(cards, rules, limits=limits)
    pair_meld: Meld | None = None
    pair_problems: list[Problem] = []
    if len(cards) < rules.min_set:
        for rank in _pair_ranks(rules):
            pair_meld, pair_problems = read_set(
                cards, rules, kind=MeldKind.PAIR, rank=rank, limits=limits
            )
            if pair_meld is not None:
                break
    runs, run_problems = read_run(cards, rules, limits=limits)
    return set_meld, pair_meld, runs, set_problems, pair_problems, run_problems


def never_in_melds(cards: Sequence[Card], rules: RuleSet) -> list[Reason]:
    """Why ``cards`` make no meld whatever the rest, for each kind of special card among them
    that is never part of a meld (a Phase 10 deck's Skip); empty when there is none."""
    if rules.deck.all_in_melds:
        return []
    kinds = list(
        dict.fromkeys(
            card.special for card in cards if card.special is not None and not card.special.in_melds
        )
    )
    return [
        _reason(rules, "melds", N_("%(card)s is never part of a meld", card=special.word))
        for special in kinds
    ]


def check_meld(cards: CardsLike, rules: RulesLike) -> Ruling:
    """Rule whether ``cards`` (in any order) make one meld: a set, a run, or a pair where
    a contract asks for one.

    A valid ruling gives the arrangement found (a set before a run when both fit)
    and what each wild card stands for; an invalid one lists every problem, as a
    set and as a run. Raises CardError for bad notation, RuleSetError for bad rules.
    """
    return meld_ruling(cards, get_ruleset(rules))


def meld_ruling(cards: CardsLike, rules: RuleSet, limits: bool = True) -> Ruling:
    """``check_meld``, the wild-card count limits holding only where ``limits`` says (a meld
    on the table, grown by laying off, reads them as ``wild_limits_on_layoff`` says)."""
    cards = as_cards(cards, rules.deck)
    if not cards:
        return Ruling(False, None, (_reason(rules, "melds", N_("there are no cards to rule on")),))
    never = never_in_melds(cards, rules)
    if never:
        return Ruling(False, None, tuple(never))
    set_meld, pair_meld, runs, set_problems, pair_problems, run_problems = _meld_readings(
        cards, rules, limits
    )
    if set_meld is not None:
        return Ruling(True, MeldKind.SET, tuple(_explain_set(set_meld, rules)), (set_meld,))
    if pair_meld is not None:
        return Ruling(True, MeldKind.PAIR, tuple(_explain_set(pair_meld, rules)), (pair_meld,))
    if runs:
        return Ruling(True, MeldKind.RUN, tuple(_explain_run(runs[0], rules)), (runs[0].meld,))
    color_meld, color_problems = color_reading(cards, rules, limits)
    if color_meld is not None:
        return Ruling(True, MeldKind.COLOR, tuple(explain_color(color_meld, rules)), (color_meld,))
    # A pair refused only for its wild card says so; its other problems (no pair of aces in
    # this contract) would only repeat the set's.
    wild_pair = [problem for problem in pair_problems if problem[0] == "pair_all_real"]
    reasons = [
        *_problems(rules, wild_pair),
        *_problems(rules, set_problems),
        *_problems(rules, run_problems),
        *_problems(rules, color_problems),
    ]
    return Ruling(False, None, tuple(reasons))
