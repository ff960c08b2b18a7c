"""Contracts: the melds a player must lay down together, and what each meld must be."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Rank

__all__ = ["Contract", "MeldKind", "MeldRequirement"]

_COUNT_WORDS = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


class MeldKind(enum.StrEnum):
    """What a meld is: a set (one rank), a run (one suit, in sequence) or a pair (a set of two)."""

    SET = "set"
    RUN = "run"
    PAIR = "pair"


@dataclass(frozen=True, slots=True)
class MeldRequirement:
    """One meld a contract asks for: its kind, its least size, and for a set or pair, its rank."""

    kind: MeldKind
    size: int
    rank: Rank | None = None

    def describe(self, count: int = 1) -> str:
        """In words: ``"a set of 3"``, ``"two runs of 4"``, ``"a pair of aces"``."""
        many = _COUNT_WORDS.get(count, str(count))
        if self.kind is MeldKind.PAIR:
            of = f" of {self.rank.plural}" if self.rank else ""
            return f"{many} pair{'s' if count > 1 else ''}{of}"
        noun = self.kind.value + ("s" if count > 1 else "")
        of_rank = f" {self.rank.plural}" if self.rank else ""
        return f"{many} {noun} of {self.size}{of_rank}"

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
    def description(self) -> str:
        """The melds in words: ``"a set of 3 and a run of 7"``,
        ``"a pair of aces and a set of 3"``."""
        return describe_melds(self.melds)

    @property
    def summary(self) -> str:
        """The description, saying too when the contract is made only by going out."""
        if self.going_out_only:
            return f"{self.description}, laid down while going out"
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


def describe_melds(melds: Sequence[MeldRequirement]) -> str:
    """Requirements in words, like neighbours counted together
    (``"two sets of 3 and a run of 4"``)."""
    groups: list[tuple[MeldRequirement, int]] = []
    for requirement in melds:
        if groups and groups[-1][0] == requirement:
            groups[-1] = (requirement, groups[-1][1] + 1)
        else:
            groups.append((requirement, 1))
    parts = [requirement.describe(count) for requirement, count in groups]
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]
