"""The house-rules editor: every option of a rule set as a field, read back as engine options.

The contracts are written one per line in the words the rules pages use, in English or in
Spanish, whichever the page speaks ("two sets of 3 and a run of 4", "three runs of 4, laid
down while going out"; "dos tríos de 3 y una escalera de 4"); cards dealt are one number, or
one per round ("10 10 10 12 12 12 12"). Range checks are the engine's: its ``RuleSetError``
problems are put back at the fields they name (``show_problems``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import (
    BooleanField,
    Field,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, Optional, ValidationError

from ..inputs import whole_number
from ..limits import NAME_LENGTH, TEXT_LENGTH
from ..names import tidy_field
from ..rules import (
    CHOICE_WORDS,
    DECKS,
    PHASES_PLAYED,
    STANDARD,
    OptionProblem,
    PackRule,
    Rank,
    RuleSet,
    describe_options,
)
from ..text import lazy_gettext as _l
from ..words import words

# The words a contract is written in, English and Spanish (accents dropped before reading).
COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
COUNT_WORDS |= {"un": 1, "una": 1, "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5}
COUNT_WORDS |= {"seis": 6}
# A game's own words read as the others' (the glossary's [game.*]): Phase 10's grupo is a set,
# Carioca's escala a run, so that the editor reads back the contracts it writes in them.
KIND_WORDS = {"trio": "set", "grupo": "set", "escalera": "run", "escala": "run", "par": "pair"}
MELD_WORDS = re.compile(
    r"^(?:(?P<count>\d+|[a-z]+)\s+)?(?P<kind>set|run|pair|trio|grupo|escalera|escala|par)"
    r"(?:es|s)?"
    r"(?:\s+(?:of|de))?(?:\s+(?P<of>[a-z0-9]+))?$"
)
# Phase 10's phase 8: "7 cards of one colour", "7 cartas de un color".
COLOUR_GROUP_WORDS = re.compile(r"^(?P<size>\d+)\s+(?:cards of one colou?r|cartas de un color)$")
GOING_OUT = re.compile(
    r",?\s*(?:(?:laid down\s+)?(?:while\s+)?going out|(?:bajandose\s+)?al cerrar)\s*$"
)
MELD_SEPARATORS = re.compile(r"\s*(?:,|\+|;|\band\b|\by\b)\s*")
WHOLE_NUMBER = _l("Enter a whole number.")


class WholeNumberField(IntegerField):
    """A number field whose message says what to type."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(WHOLE_NUMBER) from None


class PacksForm(Form):
    decks = WholeNumberField(_l("Decks"), [InputRequired(WHOLE_NUMBER)])
    decks_up_to_players = WholeNumberField(
        _l("For up to how many players"), [InputRequired(WHOLE_NUMBER)]
    )
    players_per_extra_deck = WholeNumberField(
        _l("One more deck for each … more players (0: never)"), [InputRequired(WHOLE_NUMBER)]
    )
    jokers_per_deck = WholeNumberField(_l("Jokers for each deck"), [InputRequired(WHOLE_NUMBER)])
    jokers_per_player = WholeNumberField(
        _l("Jokers for each player"), [InputRequired(WHOLE_NUMBER)]
    )
    jokers_extra = WholeNumberField(
        _l("Jokers more (or, below 0, fewer)"), [InputRequired(WHOLE_NUMBER)]
    )


class MayIForm(Form):
    allowed = BooleanField(_l('"May I" is played'))
    limit = WholeNumberField(_l("At most, per player per contract (empty: no limit)"), [Optional()])
    extra_cards = WholeNumberField(_l("Extra cards from the stock"), [InputRequired(WHOLE_NUMBER)])
    discard = BooleanField(_l("Then discards one"))
    limit_per = SelectField(
        _l("The limit counts"),
        choices=[SelectChoice("contract"), SelectChoice("game")],
    )


class WildSpacingForm(Form):
    set = SelectField(_l("In a set"))
    run = SelectField(_l("In a run"))


# A card's key of card_values in words where it is not the card's own symbol.
_CARD_LABELS = {"joker": _l("Joker"), "wild": _l("Wild"), "skip": _l("Skip")}

# The card values' fields of each deck, keyed as its card_values are (issue 51: a Phase 10
# deck's "1" … "12", "wild" and "skip"; a standard deck's "joker", "A" … "K").
CARD_VALUES_FORMS: dict[str, type[Form]] = {
    deck.slug: type(
        f"CardValuesForm_{deck.slug.replace('-', '_')}",
        (Form,),
        {
            key: WholeNumberField(_CARD_LABELS.get(key, key), [InputRequired(WHOLE_NUMBER)])
            for key in deck.value_keys
        },
    )
    for deck in DECKS.values()
}


# The options the editor shows with a select, and those with a checkbox or a number.
CHOICE_OPTIONS = (
    "deck",
    "contract_order",
    "winner",
    "tie_break",
    "aces",
    "liberation",
    "liberation_from",
    "liberation_before_contract",
    "freed_wild",
    "going_out",
    "skip_target",
)
BOOL_OPTIONS = (
    "nobody_out_allowed",
    "wild_as_itself",
    "pair_all_real",
    "same_suit_runs_may_continue",
    "extra_melds",
    "layoff_on_contract_turn",
    "runs_may_wrap",
    "wilds_at_most_naturals",
    "wild_limits_on_layoff",
    "exact_meld_sizes",
    "same_rank_sets_allowed",
    "discard_after_contract",
)
INT_OPTIONS = ("min_players", "min_real_cards", "min_set", "min_run", "down_and_out_bonus")
# Numbers a family may leave empty for "no limit".
OPTIONAL_INT_OPTIONS = ("max_players", "max_wilds_per_meld", "max_wilds_per_laydown", "hands")


class HouseRulesForm(FlaskForm):
    """Every option of a rule set; ``options()`` gives them as ``get_ruleset`` reads them."""

    name = StringField(
        _l("Name"),
        [DataRequired(_l("Give these rules a name.")), Length(max=NAME_LENGTH)],
        filters=[tidy_field],
    )
    base = HiddenField()
    contracts = TextAreaField(
        _l("Contracts"),
        [
            InputRequired(_l("Give at least one contract.")),
            Length(
                max=TEXT_LENGTH,
                message=_l("Contracts take at most %(most)s characters.", most=TEXT_LENGTH),
            ),
        ],
    )
    deck = SelectField()
    contract_order = SelectField()
    phases_played = StringField(
        validators=[
            InputRequired(_l("Say which contracts are played: all, even, odd, or their numbers.")),
            Length(max=NAME_LENGTH, message=_l("At most %(most)s characters.", most=NAME_LENGTH)),
        ]
    )
    hands = WholeNumberField(validators=[Optional()])
    winner = SelectField()
    tie_break = SelectField()
    min_players = WholeNumberField(validators=[InputRequired(WHOLE_NUMBER)])
    max_players = WholeNumberField(validators=[Optional()])
    packs = FormField(PacksForm)
    cards_dealt = StringField(
        validators=[
            InputRequired(_l("Say how many cards are dealt.")),
            Length(max=NAME_LENGTH, message=_l("At most %(most)s characters.", most=NAME_LENGTH)),
        ]
    )
    nobody_out_allowed = BooleanField()
    may_i = FormField(MayIForm)
    card_values = FormField(CARD_VALUES_FORMS[STANDARD.slug])
    wild_ranks = SelectMultipleField(choices=[SelectChoice(rank.symbol) for rank in Rank])
    wild_as_itself = BooleanField()
    wild_spacing = FormField(WildSpacingForm)
    min_real_cards = WholeNumberField(validators=[InputRequired(WHOLE_NUMBER)])
    pair_all_real = BooleanField()
    min_set = WholeNumberField(validators=[InputRequired(WHOLE_NUMBER)])
    min_run = WholeNumberField(validators=[InputRequired(WHOLE_NUMBER)])
    aces = SelectField()
    same_suit_runs_may_continue = BooleanField()
    extra_melds = BooleanField()
    layoff_on_contract_turn = BooleanField()
    liberation = SelectField()
    freed_wild = SelectField()
    going_out = SelectField()
    skip_target = SelectField()
    runs_may_wrap = BooleanField()
    wilds_at_most_naturals = BooleanField()
    max_wilds_per_meld = WholeNumberField(validators=[Optional()])
    max_wilds_per_laydown = WholeNumberField(validators=[Optional()])
    wild_limits_on_layoff = BooleanField()
    exact_meld_sizes = BooleanField()
    same_rank_sets_allowed = BooleanField()
    liberation_from = SelectField()
    liberation_before_contract = SelectField()
    discard_after_contract = BooleanField()
    down_and_out_bonus = WholeNumberField(validators=[InputRequired(WHOLE_NUMBER)])

    # The deck whose cards the card values' fields are drawn for.
    drawn_deck: str = STANDARD.slug

    def __init__(self, ruleset: RuleSet, **kwargs: Any) -> None:
        """The form for rules starting from ``ruleset``: its choices, and (on a GET) its values.
        Build it with ``house_rules_form``, whose card values are the rule set's deck's."""
        super().__init__(data=initial_data(ruleset), **kwargs)
        self.parsed_contracts: list[dict[str, Any]] = []
        # The card values and packs typed for a deck not shown, carried on as hidden inputs.
        self.kept: list[tuple[str, str]] = []
        self.parsed_dealt: int | list[int] = 0
        for option in describe_options(ruleset):
            if option.key in CHOICE_OPTIONS:
                self[option.key].choices = [SelectChoice(choice) for choice in option.choices]
            if option.key == "wild_spacing":
                choices = [SelectChoice(choice) for choice in option.choices]
                self.wild_spacing.set.choices = choices
                self.wild_spacing.run.choices = choices
        if DECKS[self.drawn_deck].wording.phases:
            # A deck whose games call a contract a phase (Phase 10's) asks for phases.
            self.contracts.validators = [
                InputRequired(_l("Give at least one phase.")),
                Length(
                    max=TEXT_LENGTH,
                    message=_l("Phases take at most %(most)s characters.", most=TEXT_LENGTH),
                ),
            ]
            self.phases_played.validators = [
                InputRequired(_l("Say which phases are played: all, even, odd, or their numbers.")),
                *self.phases_played.validators[1:],
            ]

    def validate_contracts(self, field: Field) -> None:
        contracts, problems = read_contracts(field.data or "")
        if problems:
            raise ValidationError(" ".join(problems))
        self.parsed_contracts = contracts

    def validate_cards_dealt(self, field: Field) -> None:
        numbers = [token for token in re.split(r"[\s,;]+", field.data or "") if token]
        bad = [token for token in numbers if whole_number(token) is None]
        if bad or not numbers:
            raise ValidationError(
                _("Write one number of cards, or one per round separated by spaces (10 10 12).")
            )
        values = [whole_number(token) or 0 for token in numbers]
        # One number per round is one for each round the game plays, where the contracts set
        # how many: fewer would quietly deal the last number again for the rounds left.
        rounds = len(self.parsed_contracts) if self.contract_order.data == "round" else 0
        if 1 < len(values) < rounds:
            raise ValidationError(
                ngettext(
                    "%(num)s round is played: give one number of cards for it (%(given)s given).",
                    "%(num)s rounds are played: give a number of cards for each round "
                    "(%(given)s given), or one number for them all.",
                    rounds,
                    given=len(values),
                )
            )
        self.parsed_dealt = values[0] if len(values) == 1 else values

    def validate_runs_may_wrap(self, field: Field) -> None:
        # Turning the corner puts the ace between the king and the 2: aces high only or low
        # only would say one thing while the referee rules another.
        if field.data and self.aces.data in ("low", "high"):
            raise ValidationError(
                _(
                    "Runs that turn the corner play the ace high and low (Q-K-A-2): choose "
                    "aces high or low, or runs that do not turn the corner."
                )
            )

    def packs_note(self) -> str | None:
        """What the packs come to under the cap on players, where the cap leaves some of their
        lines unused (2 decks for up to 5 players, at most 4 playing): said at the packs, in
        words, for the family to see the rules page will say only what its games meet."""
        most = self.max_players.data
        try:
            rule = PackRule(**{key: int(value) for key, value in self.packs.data.items()})
        except (TypeError, ValueError):
            return None
        if not isinstance(most, int) or not rule.unused_above(most):
            return None
        return ngettext(
            "At most %(num)s player plays these rules, so the packs' lines for more players "
            "are not used: %(packs)s.",
            "At most %(num)s players play these rules, so the packs' lines for more players "
            "are not used: %(packs)s.",
            most,
            packs=words(rule.describe(most, DECKS[self.drawn_deck])),
        )

    def options(self) -> dict[str, Any]:
        """The options as ``get_ruleset`` reads them, from a form that validated."""
        options: dict[str, Any] = {
            "base": self.base.data,
            "contracts": self.parsed_contracts,
            "phases_played": phases_played_of(self.phases_played.data or ""),
            "cards_dealt": self.parsed_dealt,
            "packs": self.packs.data,
            "may_i": self.may_i.data,
            "card_values": self.card_values.data,
            "wild_ranks": list(self.wild_ranks.data or []),
            "wild_spacing": self.wild_spacing.data,
        }
        for key in (*CHOICE_OPTIONS, *BOOL_OPTIONS, *INT_OPTIONS, *OPTIONAL_INT_OPTIONS):
            options[key] = self[key].data
        if options["deck"] != self.drawn_deck:
            # Another deck chosen: its own cards' values and packs, which the fields drawn for
            # the deck before cannot say (the rules engine starts from the new deck's).
            del options["card_values"], options["packs"]
        return options

    def show_problems(self, problems: Iterable[OptionProblem]) -> None:
        """Put each of the engine's problems at the field of the option it names."""
        for problem in problems:
            field, message = self._field_for(problem)
            field.errors = [*field.errors, message]

    def _field_for(self, problem: OptionProblem) -> tuple[Field, str]:
        option = problem.option
        said = problem.detail if problem.detail is not None else problem.message
        message = words(said.capitalized())
        top, _sep, rest = option.partition(".")
        top, _sep, index = top.partition("[")
        if top == "contracts" and index:
            number = index.rstrip("]")
            if DECKS[self.drawn_deck].wording.phases:
                return self.contracts, _(
                    "Phase %(number)s: %(problem)s", number=number, problem=message
                )
            return self.contracts, _(
                "Contract %(number)s: %(problem)s", number=number, problem=message
            )
        if top == "cards_dealt" and index:
            number = index.rstrip("]")
            return self.cards_dealt, _(
                "Round %(number)s: %(problem)s", number=number, problem=message
            )
        if top in ("packs", "may_i", "card_values", "wild_spacing") and rest:
            group = self[top]
            if rest in group.form._fields:
                return group.form[rest], message
        if top in self._fields and top not in ("base",):
            return self[top], message
        return self.name, message


def house_rules_form(ruleset: RuleSet, deck: str | None = None, **kwargs: Any) -> HouseRulesForm:
    """The editor's form for rules starting from ``ruleset``, its card values' fields those of
    ``deck`` (a deck's slug; by default the rule set's deck)."""
    deck = deck if deck in CARD_VALUES_FORMS else ruleset.deck.slug
    form_class = type(
        f"HouseRulesForm_{deck.replace('-', '_')}",
        (HouseRulesForm,),
        {"card_values": FormField(CARD_VALUES_FORMS[deck]), "drawn_deck": deck},
    )
    return form_class(ruleset, **kwargs)


# The fields whose names a deck's cards decide (a standard deck's "card_values-A", a Phase 10
# deck's "card_values-12"), and the prefix of their values kept for the deck not shown.
DECK_FIELDS = ("card_values-", "packs-")
KEPT = "kept-"


def redrawn(
    formdata: MultiDict[str, str], drawn: str, chosen: str, defaults: RuleSet
) -> MultiDict[str, str]:
    """The editor's values as sent with its card values and packs drawn for the deck
    ``drawn``, made into those of a form drawn for the deck ``chosen``: the card values and
    packs typed for ``drawn`` are kept aside (``kept-<deck>-…``, hidden inputs of the page),
    and those kept for ``chosen`` put back, or ``defaults``' (the rules on the deck ``chosen``)
    where none were kept. Switching the deck and back loses nothing typed."""
    data: MultiDict[str, str] = MultiDict()
    for key, value in formdata.items(multi=True):
        if key.startswith(DECK_FIELDS):
            data.add(f"{KEPT}{drawn}-{key}", value)
        elif key.startswith(f"{KEPT}{chosen}-"):
            data.add(key.removeprefix(f"{KEPT}{chosen}-"), value)
        elif not key.startswith(f"{KEPT}{drawn}-") and key != "drawn_deck":
            data.add(key, value)
    initial = initial_data(defaults)
    for group in ("card_values", "packs"):
        for name, value in initial[group].items():
            data.setdefault(f"{group}-{name}", str(value))
    data["drawn_deck"] = chosen
    return data


def kept_values(formdata: MultiDict[str, str]) -> list[tuple[str, str]]:
    """The card values and packs kept for a deck the editor does not show (``redrawn``), as
    the page's hidden inputs carry them on."""
    return [(key, value) for key, value in formdata.items(multi=True) if key.startswith(KEPT)]


def phases_played_of(text: str) -> str | list[Any]:
    """``phases_played`` as typed: all, even or odd (in the page's language too), or contract
    numbers separated by spaces or commas ("1 2 3"), which the engine checks."""
    said = text.strip().lower()
    for value in PHASES_PLAYED:
        if said in (value, str(words(CHOICE_WORDS[value])).lower()):
            return value
    tokens = [token for token in re.split(r"[\s,;]+", said) if token]
    return [whole_number(token) if whole_number(token) is not None else token for token in tokens]


def initial_data(ruleset: RuleSet) -> dict[str, Any]:
    """The form's values for a rule set."""
    data = ruleset.to_dict()
    dealt = data["cards_dealt"]
    data["cards_dealt"] = dealt if isinstance(dealt, int) else " ".join(str(n) for n in dealt)
    data["contracts"] = "\n".join(words(contract.summary) for contract in ruleset.contracts)
    # All, even or odd in the page's words ("todos"), as a family types them and as
    # ``phases_played_of`` reads them back; a list as its numbers.
    played = data["phases_played"]
    data["phases_played"] = (
        words(CHOICE_WORDS[played]) if isinstance(played, str) else " ".join(map(str, played))
    )
    data.pop("slug", None)
    return data


def read_contracts(text: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Contracts written one per line ("two sets of 3 and a run of 4", "a pair of aces and a
    set of 3", "three runs of 4, laid down while going out", or the same in Spanish), as
    engine options; or the problems, each naming its line."""
    contracts: list[dict[str, Any]] = []
    problems: list[str] = []
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    ranks = _rank_words()
    for number, line in enumerate(lines, start=1):
        said = re.sub(r"^\d+\s*[:.)]\s*", "", _plain(line)).strip()
        going_out_only = bool(GOING_OUT.search(said))
        said = GOING_OUT.sub("", said)
        melds: list[dict[str, Any]] = []
        for part in MELD_SEPARATORS.split(said):
            if not part:
                continue
            read = _meld(part, ranks)
            if read is None:
                problems.append(
                    _(
                        "Line %(number)d: '%(part)s' is not a meld (write it like 'a set of 3', "
                        "'two runs of 4' or 'a pair of aces').",
                        number=number,
                        part=part,
                    )
                )
                break
            melds.extend(read)
        else:
            if not melds:
                problems.append(_("Line %(number)d has no melds.", number=number))
            contracts.append({"melds": melds, "going_out_only": going_out_only})
    return contracts, problems


def _plain(text: str) -> str:
    """``text`` lower case, without accents: "Tríos" reads as "trios"."""
    spelled = unicodedata.normalize("NFKD", text.lower())
    return "".join(char for char in spelled if not unicodedata.combining(char))


def _rank_words() -> dict[str, Rank]:
    """The ranks by their words: the symbol, the English plural, the page's own ("ases")."""
    found: dict[str, Rank] = {}
    for rank in Rank:
        found[rank.symbol.lower()] = rank
        found[_plain(str(rank.plural))] = rank
        found[_plain(words(rank.plural))] = rank
    return found


def _meld(said: str, ranks: dict[str, Rank]) -> list[dict[str, Any]] | None:
    colour = COLOUR_GROUP_WORDS.match(said)
    if colour is not None:
        return [{"kind": "color", "size": int(colour.group("size"))}]
    found = MELD_WORDS.match(said)
    if found is None:
        return None
    count_text, of = found.group("count"), found.group("of")
    kind = KIND_WORDS.get(found.group("kind"), found.group("kind"))
    if count_text is None:
        count = 1
    elif count_text.isdigit():
        count = int(count_text)
    elif count_text in COUNT_WORDS:
        count = COUNT_WORDS[count_text]
    else:
        return None
    requirement: dict[str, Any] = {"kind": kind}
    if kind == "pair":
        requirement["size"] = 2
        if of is not None:
            rank = ranks.get(of) or ranks.get(of.rstrip("s"))
            if rank is None:
                return None
            requirement["rank"] = rank.symbol
    elif of is not None and of.isdigit():
        requirement["size"] = int(of)
    else:
        return None
    if not 1 <= count <= 6:
        return None
    return [dict(requirement) for _ in range(count)]
