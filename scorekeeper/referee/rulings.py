"""The referee's work: which rules are in force, and the ruling the rules engine gives.

The rules come from a game (its own frozen copy, and the contract the asking player works
on), or from a preset or saved house rules picked by slug. Everything the page shows about a
ruling comes from the engine's ``Ruling``: the verdict, the arrangement with what each wild
card stands for, and the reasons with the rule and source each rests on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from flask import abort
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select

from .. import house_rules
from ..extensions import db
from ..inputs import whole_number
from ..models import Game, Seat
from ..rules import (
    PHASE_10,
    PRESETS,
    Card,
    Meld,
    Reason,
    RuleSet,
    Ruling,
    SearchBudgetExceeded,
    Suit,
    cards_short,
    check_contract,
    check_layoff,
    check_liberation,
    check_meld,
    describe_options,
    find_contract,
    format_cards,
    get_ruleset,
    score_cards,
)
from ..text import lazy_gettext as _l
from ..words import words
from .forms import MELD_SEPARATOR, RefereeForm, refuse

# Without a game, overflow is checked against the packs of a typical table.
TYPICAL_PLAYERS = 4
# Rules a reason may cite that are not options of a rule set.
RULE_LABELS: dict[str, object] = {"melds": _l("Melds"), "lay_off": _l("Laying off")}
# The rules a reason cites that are not options, named as a table that says "hit" names them
# (the options are named in the deck's words by ``describe_options``).
PHASE_LABELS: dict[str, object] = {"lay_off": _l("Hitting")}


@dataclass(frozen=True)
class Table:
    """The rules in force, and where they come from: a game (and whose turn), or a slug."""

    rules: RuleSet
    slug: str
    players: int
    players_given: bool = False
    game: Game | None = None
    seat: Seat | None = None

    @property
    def phases(self) -> bool:
        """Whether the table calls a contract a phase and a lay-off a hit (a Phase 10 deck)."""
        return self.rules.deck.wording.phases

    @property
    def packs_text(self) -> str:
        packs = self.rules.packs(self.players)
        deck = self.rules.deck
        if deck is PHASE_10:
            # Phase 10's own decks and what they hold, not "1 deck and 0 jokers".
            return ngettext(
                "%(num)d Phase 10 deck for %(players)s: %(numbers)d numbered cards, "
                "%(wilds)d Wilds, %(skips)d Skips",
                "%(num)d Phase 10 decks for %(players)s: %(numbers)d numbered cards, "
                "%(wilds)d Wilds, %(skips)d Skips",
                packs.decks,
                players=ngettext("%(num)d player", "%(num)d players", self.players),
                numbers=packs.decks * deck.copies * len(deck.ranks) * len(deck.suits),
                wilds=packs.decks * deck.specials_per_pack.get("wild", 0),
                skips=packs.decks * deck.specials_per_pack.get("skip", 0),
            )
        return _(
            "%(decks)s and %(jokers)s for %(players)s",
            decks=ngettext("%(num)d deck", "%(num)d decks", packs.decks),
            jokers=ngettext("%(num)d joker", "%(num)d jokers", packs.jokers),
            players=ngettext("%(num)d player", "%(num)d players", self.players),
        )

    @cached_property
    def rule_labels(self) -> dict[str, object]:
        """The name of the rule each option key stands for (``wild_spacing``: "Wild card
        spacing"), for citing it: a message, put into words by the page."""
        labels = RULE_LABELS | {option.key: option.label for option in describe_options(self.rules)}
        return labels | PHASE_LABELS if self.phases else labels


def table_for(form: RefereeForm) -> Table:
    """The table the question comes from. Aborts with 404 for an unknown game or player;
    raises ``house_rules.UnknownRules`` for a slug that names no rules."""
    players = form.players.data if not form.players.errors else None
    if form.game.data:
        game = _game(form.game.data)
        seat = _seat(game, form.player.data) if form.player.data else None
        return Table(
            rules=get_ruleset(game.rules),
            slug=game.rules_slug,
            players=len(game.seats) or TYPICAL_PLAYERS,
            game=game,
            seat=seat,
        )
    slug = (form.rules.data or PRESETS[0]).strip()
    rules = house_rules.load(slug)
    if players is None:
        lowest = rules.min_players
        highest = rules.max_players or TYPICAL_PLAYERS
        return Table(rules, slug, max(lowest, min(TYPICAL_PLAYERS, highest)))
    return Table(rules, slug, players, players_given=True)


def _game(game_id: str) -> Game:
    number = whole_number(game_id)
    game = None if number is None else db.session.get(Game, number)
    if game is None:
        abort(404)
    return game


def _seat(game: Game, player: str) -> Seat:
    """The seat of ``player`` at ``game``: a player id, or else a seat id."""
    number = whole_number(player)
    if number is None:
        abort(404)
    at_game = select(Seat).where(Seat.game_id == game.id)
    seat: Seat | None = db.session.scalar(at_game.where(Seat.player_id == number))
    if seat is None:
        seat = db.session.scalar(at_game.where(Seat.id == number))
    if seat is None:
        abort(404)
    return seat


@dataclass(frozen=True)
class Verdict:
    """What the page shows of a ruling."""

    mode: str
    valid: bool
    word: str
    headline: str
    melds: tuple[Meld, ...] = ()
    reasons: tuple[Reason, ...] = ()
    leftover: tuple[Card, ...] = ()
    leftover_points: int | None = None
    short: int | None = None
    contract_text: str | None = None
    decided: bool = True


def contract_number(form: RefereeForm, table: Table) -> int:
    """The contract asked about: the one given, else the player's current one, else the first."""
    if form.contract.data and not form.contract.errors:
        return int(form.contract.data)
    if table.seat is not None:
        return table.seat.contract
    return 1


def rule(form: RefereeForm, table: Table) -> Verdict | None:
    """Ask the engine; None while the question lacks cards. Impossible input (more copies of
    a card than the packs hold, a contract these rules lack) goes to its field, and gives
    no verdict either: check ``form_refused`` after calling."""
    mode = form.mode.data
    if form_refused(form) or not form.complete:
        return None
    rules = table.rules
    needs_contract = mode in ("contract", "hand")
    number = contract_number(form, table)
    if needs_contract and not 1 <= number <= len(rules.contracts):
        count = len(rules.contracts)
        refuse(
            form.contract,
            _(
                "These rules have phases 1 to %(count)d; there is no phase %(number)d.",
                count=count,
                number=number,
            )
            if table.phases
            else _(
                "These rules have contracts 1 to %(count)d; there is no contract %(number)d.",
                count=count,
                number=number,
            ),
        )
        return None
    if not _possible(form, table):
        return None
    try:
        return _ask(form, table, number)
    except ValueError as error:
        # The engine refuses input it cannot read as asked (its messages quote the input).
        refuse(form[form.card_fields[-1]], words(error))
        return None


def form_refused(form: RefereeForm) -> bool:
    """Whether some field of the question carries a message."""
    names = (*form.card_fields, "contract", "players")
    return any(form[name].errors for name in names)


def _possible(form: RefereeForm, table: Table) -> bool:
    """Whether the packs hold all the cards entered (two decks hold two 7♥, not three)."""
    if form.mode.data == "contract":
        cards = [card for meld in form.parsed_melds for card in meld]
    else:
        cards = [card for name in form.card_fields for card in form.parsed[name]]
    overflow = table.rules.packs(table.players).overflow(cards)
    if not overflow:
        return True
    where = form[form.card_fields[-1]]
    for problem in overflow:
        refuse(
            where,
            _(
                "No game holds that: %(problem)s (%(packs)s).",
                problem=words(problem),
                packs=table.packs_text,
            ),
        )
    return False


def _ask(form: RefereeForm, table: Table, number: int) -> Verdict:
    rules = table.rules
    mode = form.mode.data
    contract = rules.contract(number)
    if mode == "meld":
        ruling = check_meld(form.parsed["cards"], rules)
        return Verdict(
            mode,
            ruling.valid,
            _("Valid") if ruling.valid else _("Not valid"),
            describe_meld(ruling.meld) if ruling.valid and ruling.meld else _("Not a meld"),
            melds=_arrangement(ruling),
            reasons=_reasons(ruling),
        )
    asked = words(contract.description)
    if mode == "contract":
        ruling = check_contract(form.parsed_melds, rules, number)
        return Verdict(
            mode,
            ruling.valid,
            _("Made") if ruling.valid else _("Not made"),
            _("Phase %(number)d: %(contract)s", number=number, contract=asked)
            if table.phases
            else _("Contract %(number)d: %(contract)s", number=number, contract=asked),
            melds=_arrangement(ruling),
            reasons=_reasons(ruling),
            contract_text=asked,
        )
    if mode == "layoff":
        ruling = check_layoff(
            form.parsed["meld"],
            form.parsed["cards"],
            rules,
            contract_turn=bool(form.contract_turn.data),
        )
        added = format_cards(form.parsed["cards"], symbols=True)
        meld = _lower(describe_meld(ruling.meld)) if ruling.meld else None
        if table.phases:
            headline = (
                _("Hit %(cards)s: %(meld)s", cards=added, meld=meld)
                if meld
                else _("Hit %(cards)s", cards=added)
            )
        else:
            headline = (
                _("Lay off %(cards)s: %(meld)s", cards=added, meld=meld)
                if meld
                else _("Lay off %(cards)s", cards=added)
            )
        return Verdict(
            mode,
            ruling.valid,
            _("Allowed") if ruling.valid else _("Not allowed"),
            headline,
            melds=_arrangement(ruling),
            reasons=_reasons(ruling),
        )
    if mode == "liberate":
        real = form.parsed["card"][0]
        own = bool(form.own.data)
        ruling = check_liberation(form.parsed["meld"], real, rules, own)
        return Verdict(
            mode,
            ruling.valid,
            _("Allowed") if ruling.valid else _("Not allowed"),
            _("Put %(card)s in for the wild card, on your own meld", card=real.label)
            if own
            else _("Put %(card)s in for the wild card, on another player's meld", card=real.label),
            melds=_arrangement(ruling),
            reasons=_reasons(ruling),
        )
    return _hand(form, table, number)


def _hand(form: RefereeForm, table: Table, number: int) -> Verdict:
    rules = table.rules
    hand = form.parsed["cards"]
    asked = words(rules.contract(number).description)
    try:
        lay_down = find_contract(hand, rules, number)
        short = cards_short(hand, rules, number) if lay_down is None else 0
    except SearchBudgetExceeded:
        # The engine's search is bounded so that extreme house rules cannot tie up a worker;
        # the table gets an honest "cannot say" rather than a guess.
        return Verdict(
            "hand",
            False,
            _("Undecided"),
            _(
                "Phase %(number)d (%(contract)s): too many possibilities to decide: check by hand",
                number=number,
                contract=asked,
            )
            if table.phases
            else _(
                "Contract %(number)d (%(contract)s): too many possibilities to decide: check "
                "by hand",
                number=number,
                contract=asked,
            ),
            contract_text=asked,
            decided=False,
        )
    except ValueError:
        # No hand at all makes this contract under these rules (a run longer than the ranks the
        # wild-card rules leave it, say): the table is told so, not given a count.
        return Verdict(
            "hand",
            False,
            _("Not possible"),
            _(
                "Phase %(number)d (%(contract)s): no hand can make it under these rules. "
                "Check the house rules.",
                number=number,
                contract=asked,
            )
            if table.phases
            else _(
                "Contract %(number)d (%(contract)s): no hand can make it under these rules. "
                "Check the house rules.",
                number=number,
                contract=asked,
            ),
            contract_text=asked,
        )
    if lay_down is None:
        return Verdict(
            "hand",
            False,
            _("Not yet"),
            _short(short, number, asked)
            if table.phases
            else ngettext(
                "Contract %(number)d (%(contract)s): %(num)d card short",
                "Contract %(number)d (%(contract)s): %(num)d cards short",
                short,
                number=number,
                contract=asked,
            )
            if short
            else _(
                "Contract %(number)d (%(contract)s): not with these cards",
                number=number,
                contract=asked,
            ),
            short=short,
            contract_text=asked,
        )
    ruling = check_contract(lay_down, rules, number)
    leftover = _without(hand, [card for meld in lay_down for card in meld])
    return Verdict(
        "hand",
        True,
        _("Yes"),
        _("You can lay down phase %(number)d (%(contract)s)", number=number, contract=asked)
        if table.phases
        else _(
            "You can lay down contract %(number)d (%(contract)s)", number=number, contract=asked
        ),
        melds=_arrangement(ruling),
        reasons=_reasons(ruling),
        leftover=tuple(leftover),
        leftover_points=score_cards(leftover, rules),
        contract_text=asked,
    )


def _short(short: int, number: int, asked: str) -> str:
    """How far a hand is from phase ``number`` (``asked``, in words): a count, or not at all."""
    if short:
        return ngettext(
            "Phase %(number)d (%(contract)s): %(num)d card short",
            "Phase %(number)d (%(contract)s): %(num)d cards short",
            short,
            number=number,
            contract=asked,
        )
    return _("Phase %(number)d (%(contract)s): not with these cards", number=number, contract=asked)


def _without(hand: list[Card], used: list[Card]) -> list[Card]:
    """The cards of ``hand`` left once ``used`` are laid down (equal cards count one by one)."""
    remaining = Counter(used)
    left = []
    for card in hand:
        if remaining[card]:
            remaining[card] -= 1
        else:
            left.append(card)
    return left


def _arrangement(ruling: Ruling) -> tuple[Meld, ...]:
    return tuple(ruling.arrangement or ())


def _reasons(ruling: Ruling) -> tuple[Reason, ...]:
    """The reasons, then what follows from the ruling where the reasons do not say it yet."""
    return (*ruling.reasons, *(note for note in ruling.notes if note not in ruling.reasons))


def describe_meld(meld: Meld) -> str:
    """A meld in words, in the page's language: "A set of 5s", "A run of spades, ace high",
    "A pair of aces", "Cards of one colour: red" (a Phase 10 run's colours are free: "A run")."""
    cards = [placed.stands_for or placed.card for placed in meld.placements]
    kind = str(getattr(meld.kind, "value", meld.kind))
    if kind in ("set", "pair"):
        ranks = [card.rank for card in cards if card.rank is not None]
        if not ranks:
            return _("A pair") if kind == "pair" else _("A set")
        rank = words(ranks[0].plural)
        return (
            _("A pair of %(rank)s", rank=rank)
            if kind == "pair"
            else _("A set of %(rank)s", rank=rank)
        )
    if kind == "color":
        colours = [card.suit for card in cards if card.suit is not None]
        if not colours:
            return _("Cards of one colour")
        return _("Cards of one colour: %(colour)s", colour=words(colours[0].plural))
    suits = [card.suit for card in cards if isinstance(card.suit, Suit)]
    aces = [index for index, card in enumerate(cards) if card.rank is not None and card.rank == 1]
    if not suits:
        return _("A run")
    suit = words(suits[0].plural)
    if not aces:
        return _("A run of %(suit)s", suit=suit)
    # Where the ace sits, as the reasons place it: first is low, last is high, and in a run
    # that turns the corner, anywhere else is between the king and the 2.
    if aces[0] == 0:
        return _("A run of %(suit)s, ace low", suit=suit)
    if aces[0] == len(cards) - 1:
        return _("A run of %(suit)s, ace high", suit=suit)
    return _("A run of %(suit)s, the ace between the king and the 2", suit=suit)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def link_params(form: RefereeForm, table: Table) -> dict[str, str]:
    """The query string that asks this question again, in its shortest form."""
    params: dict[str, str] = {}
    if table.game is not None:
        params["game"] = str(table.game.id)
        if table.seat is not None:
            params["player"] = str(table.seat.player_id)
    else:
        params["rules"] = table.slug
        if table.players_given:
            params["players"] = str(table.players)
    mode = form.mode.data
    if mode != "meld":
        params["mode"] = mode
    for name in form.card_fields:
        # Cards as the engine reads them; text that is no cards yet stays as it was typed.
        if name == "melds" and form.parsed_melds:
            text = " / ".join(format_cards(meld) for meld in form.parsed_melds)
        elif name == "melds":
            text = MELD_SEPARATOR.sub(" / ", (form.melds.data or "").strip())
        elif name in form.parsed:
            text = format_cards(form.parsed[name])
        else:
            text = " ".join((form[name].data or "").split())
        if text:
            params[name] = text
    if mode == "liberate" and form.own.data:
        params["own"] = "1"
    if mode == "layoff" and form.contract_turn.data:
        params["contract_turn"] = "1"
    if mode in ("contract", "hand"):
        params["contract"] = str(contract_number(form, table))
    return params
