"""Contracts: the melds a player must lay down together, and what each meld must be."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Rank
from .messages import N_, Message, N_plural, Value

__all__ = ["Contract", "MeldKind", "MeldRequirement"]

# How many melds of a kind, in words ("two sets of 3"); past six, in figures.
_COUNT_WORDS = {2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six")}


class MeldKind(enum.StrEnum):
    """What a meld is: a set (one rank), a run (one suit, in sequence), a pair (a set of two) or
    a colour group (cards of one colour, any ranks: Phase 10's phase 8)."""

    SET = "set"
    RUN = "run"
    PAIR = "pair"
    COLOR = "color"


@dataclass(frozen=True, slots=True)
class MeldRequirement:
    """One meld a contract asks for: its kind, its least size, and for a set or pair, its rank."""

    kind: MeldKind
    size: int
    rank: Rank | None = None

    def describe(self, count: int = 1) -> Message:
        """In words: ``"a set of 3"``, ``"two runs of 4"``, ``"a pair of aces"``."""
        many: Value = _COUNT_WORDS.get(count, count)
        size, rank = self.size, self.rank
        if self.kind is MeldKind.PAIR:
            if rank is None:
                return N_plural("a pair", "%(many)s pairs", num=count, many=many)
            return N_plural(
                "a pair of %(rank)s",
                "%(many)s pairs of %(rank)s",
                num=count,
                many=many,
                rank=rank.plural,
            )
        if self.kind is MeldKind.COLOR:
            return N_plural(
                "%(size)s cards of one colour",
                "%(many)s groups of %(size)s cards of one colour",
                num=count,
                many=many,
                size=size,
            )
        if self.kind is MeldKind.SET:
            if rank is None:
                return N_plural(
                    "a set of %(size)s",
                    "%(many)s sets of %(size)s",
                    num=count,
                    many=many,
                    size=size,
                )
            return N_plural(
                "a set of %(size)s %(rank)s",
                "%(many)s sets of %(size)s %(rank)s",
                num=count,
                many=many,
                size=size,
                rank=rank.plural,
            )
        if rank is None:
            return N_plural(
                "a run of %(size)s", "%(many)s runs of %(size)s", num=count, many=many, size=size
            )
        return N_plural(
            "a run of %(size)s %(rank)s",
            "%(many)s runs of %(size)s %(rank)s",
            num=count,
            many=many,
            size=size,
            rank=rank.plural,
        )

    def to_dict(self) -> dict[str, Any]:
        """The requirement as house-rule data: ``{"kind": "set", "size": 3}``."""
        data: dict[str, Any] = {"kind": self.kind.value, "size": self.size}
        if self.rank is not None:
            data["rank"] = self.rank.symbol
        return data


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract: its number in the game, the melds it asks for, and whether it is made
    only by going out (all of the hand laid down at once)."""

    number: int
    melds: tuple[MeldRequirement, ...]
    going_out_only: bool = False

    @property
    def description(self) -> Message:
        """The melds in words: ``"a set of 3 and a run of 7"``,
        ``"a pair of aces and a set of 3"``."""
        return describe_melds(self.melds)

    @property
    def summary(self) -> Message:
        """The description, saying too when the contract is made only by going out."""
        if self.going_out_only:
            return N_("%(melds)s, laid down while going out", melds=self.description)
        return self.description

    @property
    def size(self) -> int:
        """The fewest cards the contract takes."""
        return sum(requirement.size for requirement in self.melds)

    def to_dict(self) -> dict[str, Any]:
        """The contract as house-rule data."""
        return {
            "melds": [requirement.to_dict() for requirement in self.melds],
            "going_out_only": self.going_out_only,
        }

    def __str__(self) -> str:
        return f"Contract {self.number}: {self.summary}"


def describe_melds(melds: Sequence[MeldRequirement]) -> Message:
    """Requirements in words, like neighbours counted together
    (``"two sets of 3 and a run of 4"``)."""
    groups: list[tuple[MeldRequirement, int]] = []
    for requirement in melds:
        if groups and groups[-1][0] == requirement:
            groups[-1] = (requirement, groups[-1][1] + 1)
        else:
            groups.append((requirement, 1))
    parts: list[Value] = [requirement.describe(count) for requirement, count in groups]
    if len(parts) == 1:
        return groups[0][0].describe(groups[0][1])
    return N_("%(items)s and %(last)s", items=tuple(parts[:-1]), last=parts[-1])
