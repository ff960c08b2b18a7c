"""Reading house-rule option values: each reader checks one kind of value and collects
every problem (``OptionProblem``), so a family sees all that is wrong at once."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from .cards import Rank
from .contracts import Contract, MeldKind, MeldRequirement
from .messages import N_, Message, N_plural


@dataclass(frozen=True, slots=True)
class OptionProblem:
    """One bad option in house rules: the option, the value given, and what is wrong:
    ``message`` names the option (``"aces: 'up' is not one of …"``), ``detail`` says the
    same without it, for a form that shows it at the option's own field."""

    option: str
    value: object
    message: Message
    detail: Message | None = None


Choice = TypeVar("Choice", bound=StrEnum)


class Reader:
    """Reads option values, collecting every problem."""

    def __init__(self) -> None:
        self.problems: list[OptionProblem] = []

    def fail(self, option: str, value: object, why: Message) -> None:
        """A problem with ``option``: ``why`` says what is wrong, naming the value given."""
        # The option is named as the key the house rules' data (a game file's, a backup's) holds.
        message = N_('"%(option)s": %(problem)s', option=option, problem=why)
        self.problems.append(OptionProblem(option, value, message, why))

    def boolean(self, option: str, value: object) -> bool:
        if not isinstance(value, bool):
            self.fail(option, value, N_("%(value)s is not true or false", value=repr(value)))
            return False
        return value

    def integer(self, option: str, value: object, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(option, value, N_("%(value)s is not a whole number", value=repr(value)))
            return low
        if not low <= value <= high:
            self.fail(
                option,
                value,
                N_(
                    "%(value)s is not between %(low)s and %(high)s",
                    value=repr(value),
                    low=low,
                    high=high,
                ),
            )
            return low
        return value

    def optional_integer(self, option: str, value: object, low: int, high: int) -> int | None:
        """A whole number, or None for "no limit"."""
        return None if value is None else self.integer(option, value, low, high)

    def option(self, option: str, value: object, kind: type[Choice]) -> Choice:
        """A choice option's value as its enum; the first value (and a problem) if it is none."""
        return kind(self.choice(option, value, tuple(choice.value for choice in kind)))

    def choice(self, option: str, value: object, choices: tuple[str, ...]) -> str:
        text = value.replace("_", " ").strip().lower() if isinstance(value, str) else value
        if text not in choices:
            listed = tuple(repr(choice) for choice in choices)
            self.fail(
                option,
                value,
                N_("%(value)s is not one of %(choices)s", value=repr(value), choices=listed),
            )
            return choices[0]
        assert isinstance(text, str)
        return text

    def text(self, option: str, value: object) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(
                option,
                value,
                N_("%(value)s is not a name (it must be some text)", value=repr(value)),
            )
            return "?"
        if len(value) > 120:
            self.fail(
                option,
                value,
                N_(
                    "%(value)s is too long (at most %(most)s characters)",
                    value=repr(value),
                    most=120,
                ),
            )
        stripped = value.strip()
        # A preset's name is a message (its words translated): kept as it is when already tidy.
        return value if stripped == value else stripped

    def mapping(self, option: str, value: object, keys: Iterable[str]) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(option, value, N_("%(value)s is not a table of settings", value=repr(value)))
            return {}
        allowed = list(keys)
        for key in value:
            if key not in allowed:
                self.fail(
                    f"{option}.{key}",
                    value[key],
                    N_('"%(key)s" is no setting of "%(option)s"', key=str(key), option=option),
                )
        return dict(value)

    def rank(self, option: str, value: object) -> Rank | None:
        if isinstance(value, str):
            try:
                return Rank.from_symbol(value.strip())
            except ValueError:
                pass
        self.fail(
            option, value, N_("%(value)s is not a rank (A, 2 … 10, J, Q, K)", value=repr(value))
        )
        return None

    def requirement(self, option: str, value: object) -> MeldRequirement | None:
        data = self.mapping(option, value, ("kind", "size", "rank"))
        if not data:
            if isinstance(value, Mapping):
                self.fail(option, value, N_("%(value)s needs a kind and a size", value=repr(value)))
            return None
        kind_text = self.choice(f"{option}.kind", data.get("kind"), ("set", "run", "pair", "color"))
        kind = MeldKind(kind_text)
        high = 13 if kind is MeldKind.RUN else 40
        low = 2 if kind is MeldKind.PAIR else 1
        size = self.integer(f"{option}.size", data.get("size"), low, high)
        if kind is MeldKind.PAIR and size != 2:
            self.fail(
                f"{option}.size",
                size,
                N_("%(value)s is not 2 (a pair is two cards)", value=repr(size)),
            )
        rank = None
        if data.get("rank") is not None:
            if kind in (MeldKind.RUN, MeldKind.COLOR):
                self.fail(
                    f"{option}.rank",
                    data["rank"],
                    N_("%(value)s makes no sense for a run", value=repr(data["rank"]))
                    if kind is MeldKind.RUN
                    else N_(
                        "%(value)s makes no sense for cards of one colour",
                        value=repr(data["rank"]),
                    ),
                )
            else:
                rank = self.rank(f"{option}.rank", data["rank"])
        return MeldRequirement(kind, size, rank)

    def contracts(self, value: object) -> tuple[Contract, ...]:
        option = "contracts"
        if not isinstance(value, list | tuple) or not value:
            self.fail(
                option,
                value,
                N_("%(value)s is not a list of contracts (at least one)", value=repr(value)),
            )
            return ()
        if len(value) > 30:
            self.fail(
                option,
                f"{len(value)} contracts",
                N_plural(
                    "%(num)s contract is too many (at most %(most)s)",
                    "%(num)s contracts are too many (at most %(most)s)",
                    num=len(value),
                    most=30,
                ),
            )
        contracts = []
        for number, item in enumerate(value, start=1):
            where = f"contracts[{number}]"
            going_out_only = False
            melds_data: object = item
            if isinstance(item, Mapping):
                data = self.mapping(where, item, ("melds", "going_out_only"))
                melds_data = data.get("melds")
                going_out_only = self.boolean(
                    f"{where}.going_out_only", data.get("going_out_only", False)
                )
            if not isinstance(melds_data, list | tuple) or not melds_data:
                self.fail(
                    where,
                    melds_data,
                    N_("%(value)s is not a list of melds (at least one)", value=repr(melds_data)),
                )
                continue
            if len(melds_data) > 6:
                self.fail(
                    where,
                    f"{len(melds_data)} melds",
                    N_plural(
                        "%(num)s meld is too many (at most %(most)s)",
                        "%(num)s melds are too many (at most %(most)s)",
                        num=len(melds_data),
                        most=6,
                    ),
                )
            melds = []
            for index, meld in enumerate(melds_data, start=1):
                requirement = self.requirement(f"{where}.melds[{index}]", meld)
                if requirement is not None:
                    melds.append(requirement)
            contracts.append(Contract(number, tuple(melds), going_out_only))
        return tuple(contracts)
