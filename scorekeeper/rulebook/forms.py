"""The house-rules editor: every option of a rule set as a field, read back as engine options.

The contracts are written one per line in the words the rules pages use ("two sets of 3 and
a run of 4", "three runs of 4, laid down while going out"); cards dealt are one number, or
one per round ("10 10 10 12 12 12 12"). Range checks are the engine's: its ``RuleSetError``
problems are put back at the fields they name (``show_problems``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from flask_wtf import FlaskForm
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
from ..names import tidy_name
from ..rules import OptionProblem, Rank, RuleSet, describe_options

CARD_VALUE_KEYS = ("joker", *(rank.symbol for rank in Rank))
COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
RANK_WORDS = {rank.plural: rank for rank in Rank} | {rank.symbol.lower(): rank for rank in Rank}
MELD_WORDS = re.compile(
    r"^(?:(?P<count>\d+|[a-z]+)\s+)?(?P<kind>set|run|pair)s?(?:\s+of)?(?:\s+(?P<of>[a-z0-9]+))?$"
)
GOING_OUT = re.compile(r",?\s*(?:laid down\s+)?(?:while\s+)?going out\s*$")
WHOLE_NUMBER = "Enter a whole number."


class WholeNumberField(IntegerField):
    """A number field whose message says what to type."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(WHOLE_NUMBER) from None


class PacksForm(Form):
    decks = WholeNumberField("Decks", [InputRequired(WHOLE_NUMBER)])
    decks_up_to_players = WholeNumberField(
        "For up to how many players", [InputRequired(WHOLE_NUMBER)]
    )
    players_per_extra_deck = WholeNumberField(
        "One more deck for each … more players (0: never)", [InputRequired(WHOLE_NUMBER)]
    )
    jokers_per_deck = WholeNumberField("Jokers for each deck", [InputRequired(WHOLE_NUMBER)])
    jokers_per_player = WholeNumberField("Jokers for each player", [InputRequired(WHOLE_NUMBER)])
    jokers_extra = WholeNumberField(
        "Jokers more (or, below 0, fewer)", [InputRequired(WHOLE_NUMBER)]
    )


class MayIForm(Form):
    allowed = BooleanField('"May I" is played')
    limit = WholeNumberField("At most, per player per contract (empty: no limit)", [Optional()])
    extra_cards = WholeNumberField("Extra cards from the stock", [InputRequired(WHOLE_NUMBER)])
    discard = BooleanField("Then discards one")


class WildSpacingForm(Form):
    set = SelectField("In a set")
    run = SelectField("In a run")


CardValuesForm = type(
    "CardValuesForm",
    (Form,),
    {
        key: WholeNumberField("Joker" if key == "joker" else key, [InputRequired(WHOLE_NUMBER)])
        for key in CARD_VALUE_KEYS
    },
)

# The options the editor shows with a select, and those with a checkbox or a number.
CHOICE_OPTIONS = (
    "contract_order",
    "winner",
    "tie_break",
    "aces",
    "liberation",
    "freed_wild",
    "going_out",
)
BOOL_OPTIONS = (
    "nobody_out_allowed",
    "wild_as_itself",
    "pair_all_real",
    "same_suit_runs_may_continue",
    "extra_melds",
    "layoff_on_contract_turn",
)
INT_OPTIONS = ("min_players", "min_real_cards", "min_set", "min_run")


class HouseRulesForm(FlaskForm):
    """Every option of a rule set; ``options()`` gives them as ``get_ruleset`` reads them."""

    name = StringField(
        "Name",
        [DataRequired("Give these rules a name."), Length(max=NAME_LENGTH)],
        filters=[lambda text: tidy_name(text) if isinstance(text, str) else text],
    )
    base = HiddenField()
    contracts = TextAreaField(
        "Contracts",
        [
            InputRequired("Give at least one contract."),
            Length(max=TEXT_LENGTH, message=f"Contracts take at most {TEXT_LENGTH} characters."),
        ],
    )
    contract_order = SelectField()
    winner = SelectField()
    tie_break = SelectField()
    min_players = WholeNumberField(validators=[InputRequired(WHOLE_NUMBER)])
    max_players = WholeNumberField(validators=[Optional()])
    packs = FormField(PacksForm)
    cards_dealt = StringField(
        validators=[
            InputRequired("Say how many cards are dealt."),
            Length(max=NAME_LENGTH, message=f"At most {NAME_LENGTH} characters."),
        ]
    )
    nobody_out_allowed = BooleanField()
    may_i = FormField(MayIForm)
    card_values = FormField(CardValuesForm)
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

    def __init__(self, ruleset: RuleSet, **kwargs: Any) -> None:
        """The form for rules starting from ``ruleset``: its choices, and (on a GET) its values."""
        super().__init__(data=initial_data(ruleset), **kwargs)
        self.parsed_contracts: list[dict[str, Any]] = []
        self.parsed_dealt: int | list[int] = 0
        for option in describe_options(ruleset):
            if option.key in CHOICE_OPTIONS:
                self[option.key].choices = [SelectChoice(choice) for choice in option.choices]
            if option.key == "wild_spacing":
                choices = [SelectChoice(choice) for choice in option.choices]
                self.wild_spacing.set.choices = choices
                self.wild_spacing.run.choices = choices

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
                "Write one number of cards, or one per round separated by spaces (10 10 12)."
            )
        values = [whole_number(token) or 0 for token in numbers]
        self.parsed_dealt = values[0] if len(values) == 1 else values

    def options(self) -> dict[str, Any]:
        """The options as ``get_ruleset`` reads them, from a form that validated."""
        options: dict[str, Any] = {
            "base": self.base.data,
            "contracts": self.parsed_contracts,
            "cards_dealt": self.parsed_dealt,
            "max_players": self.max_players.data,
            "packs": self.packs.data,
            "may_i": self.may_i.data,
            "card_values": self.card_values.data,
            "wild_ranks": list(self.wild_ranks.data or []),
            "wild_spacing": self.wild_spacing.data,
        }
        for key in (*CHOICE_OPTIONS, *BOOL_OPTIONS, *INT_OPTIONS):
            options[key] = self[key].data
        return options

    def show_problems(self, problems: Iterable[OptionProblem]) -> None:
        """Put each of the engine's problems at the field of the option it names."""
        for problem in problems:
            field, message = self._field_for(problem)
            field.errors = [*field.errors, message]

    def _field_for(self, problem: OptionProblem) -> tuple[Field, str]:
        option = problem.option
        message = problem.message.removeprefix(f"{option}: ")
        message = message[:1].upper() + message[1:]
        top, _, rest = option.partition(".")
        top, _, index = top.partition("[")
        if top == "contracts" and index:
            return self.contracts, f"Contract {index.rstrip(']')}: {message}"
        if top == "cards_dealt" and index:
            return self.cards_dealt, f"Round {index.rstrip(']')}: {message}"
        if top in ("packs", "may_i", "card_values", "wild_spacing") and rest:
            group = self[top]
            if rest in group.form._fields:
                return group.form[rest], message
        if top in self._fields and top not in ("base",):
            return self[top], message
        return self.name, message


def initial_data(ruleset: RuleSet) -> dict[str, Any]:
    """The form's values for a rule set."""
    data = ruleset.to_dict()
    dealt = data["cards_dealt"]
    data["cards_dealt"] = dealt if isinstance(dealt, int) else " ".join(str(n) for n in dealt)
    data["contracts"] = "\n".join(contract.summary for contract in ruleset.contracts)
    data.pop("slug", None)
    return data


def read_contracts(text: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Contracts written one per line ("two sets of 3 and a run of 4", "a pair of aces and a
    set of 3", "three runs of 4, laid down while going out"), as engine options; or the
    problems, each naming its line."""
    contracts: list[dict[str, Any]] = []
    problems: list[str] = []
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for number, line in enumerate(lines, start=1):
        words = re.sub(r"^\d+\s*[:.)]\s*", "", line.lower()).strip()
        going_out_only = bool(GOING_OUT.search(words))
        words = GOING_OUT.sub("", words)
        melds: list[dict[str, Any]] = []
        for part in re.split(r"\s*(?:,|\+|;|\band\b)\s*", words):
            if not part:
                continue
            read = _meld(part)
            if read is None:
                problems.append(
                    f"Line {number}: {part!r} is not a meld (write it like "
                    "'a set of 3', 'two runs of 4' or 'a pair of aces')."
                )
                break
            melds.extend(read)
        else:
            if not melds:
                problems.append(f"Line {number} has no melds.")
            contracts.append({"melds": melds, "going_out_only": going_out_only})
    return contracts, problems


def _meld(words: str) -> list[dict[str, Any]] | None:
    found = MELD_WORDS.match(words)
    if found is None:
        return None
    count_text, kind, of = found.group("count"), found.group("kind"), found.group("of")
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
            rank = RANK_WORDS.get(of) or RANK_WORDS.get(of.rstrip("s"))
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
