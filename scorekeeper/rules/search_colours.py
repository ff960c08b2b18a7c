"""Finding a contract in a hand of a deck whose runs take any colours (a Phase 10 deck).

``search.find_contract`` and ``search.cards_short`` hand such a deck's questions here. The
search is exact, and rests on three facts:

- a run or a set asks only for numbers: which colour of a number it takes never matters to
  it, only how many cards of each number are left for the melds after it;
- cards of one colour ask only for colours: which numbers they take never matters to them;
- every Wild is alike (the deck has no wild numbers).

So the runs are placed first (the longest first), then the sets, each exactly as long as asked
(where a meld needs more than one real card, or never more Wilds than real cards, runs are
tried at every length), taking cards by number alone. What is left for the cards of one colour
is then a count per number, and whether the groups can be made is a question of flow: the
cards kept of each number go to the colours the groups are, at most as many of a colour as the
hand holds. With four colours that is answered by Gale's condition over the 16 sets of
colours: the groups of a set of colours can take no more real cards than the numbers left can
give in those colours. Alike requirements take melds in a fixed order, and failed states are
remembered.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from .cards import Card
from .contracts import Contract, MeldKind, MeldRequirement
from .melds import windows
from .ruleset import RuleSet

__all__ = ["ColourSearch"]


class Spending(Protocol):
    """What counts a search's steps (``search._Work``): ``spend`` raises when none are left."""

    def spend(self, steps: int = 1) -> None: ...


@dataclass(frozen=True, slots=True)
class _Need:
    """A requirement as searched: its kind, the sizes to try, its number if fixed, and the
    fewest real cards (or cards not held) a meld of it holds."""

    kind: MeldKind
    sizes: tuple[int, ...]
    number: int | None
    requirement: MeldRequirement
    real: int


def _needs(contract: Contract, rules: RuleSet) -> list[_Need]:
    period = rules.deck.period
    tried_longer = rules.min_real_cards > 1 or rules.wilds_at_most_naturals
    needs = []
    for requirement in contract.melds:
        number = int(requirement.rank) if requirement.rank is not None else None
        real = rules.real_cards_needed(requirement.kind, requirement.size)
        if requirement.kind is MeldKind.RUN:
            size = max(requirement.size, rules.min_run, rules.min_real_cards)
            sizes = tuple(range(size, period + 1)) if tried_longer else (size,)
        elif requirement.kind is MeldKind.COLOR:
            sizes = (max(requirement.size, rules.min_real_cards),)
        else:
            sizes = (max(requirement.size, rules.min_set, rules.min_real_cards),)
        needs.append(_Need(requirement.kind, sizes, number, requirement, real))
    order = {MeldKind.RUN: 0, MeldKind.COLOR: 2}
    needs.sort(key=lambda need: (order.get(need.kind, 1), -need.sizes[0]))
    return needs


_Path = tuple[int, list[int], int]
"""A run or set chosen: the need's index, the numbers it takes from the hand, its Wilds."""


class ColourSearch:
    """One search of ``hand`` (Skips already left out) for ``contract``, with at most
    ``budget`` cards not held (any cards a player might draw)."""

    def __init__(
        self, hand: Sequence[Card], rules: RuleSet, contract: Contract, work: Spending
    ) -> None:
        self.rules = rules
        self.work = work
        self.requirements = contract.melds
        self.needs = _needs(contract, rules)
        self.first_colour = next(
            (i for i, need in enumerate(self.needs) if need.kind is MeldKind.COLOR),
            len(self.needs),
        )
        deck = rules.deck
        self.period = deck.period
        self.colours = len(deck.suits)
        numbers = self.period + 1
        # The hand's cards by number and colour (the last column: colour not known).
        self.held: list[list[list[Card]]] = [
            [[] for _ in range(self.colours + 1)] for _ in range(numbers)
        ]
        self.wilds: list[Card] = []
        for card in hand:
            if rules.is_wild(card) or card.rank is None:
                self.wilds.append(card)
            else:
                column = self.colours if card.suit is None else deck.suits.index(card.suit)
                self.held[int(card.rank)][column].append(card)
        self.count = [[len(cards) for cards in row] for row in self.held]
        self.total = bytearray(sum(row) for row in self.count)
        self.spacing_run = rules.wild_spacing.run == "not adjacent"
        self.spacing_set = rules.wild_spacing.set == "not adjacent"
        self.per_meld = rules.max_wilds_per_meld
        self.per_laydown = rules.max_wilds_per_laydown
        self.at_most_naturals = rules.wilds_at_most_naturals
        self.one_set_a_number = not rules.same_rank_sets_allowed
        self.track_runs = not rules.same_suit_runs_may_continue
        self.wrap = rules.runs_may_wrap
        self.failed: set[tuple[object, ...]] = set()
        self.path: list[_Path] = []
        self.plan: tuple[tuple[int, ...], list[int]] | None = None
        """The colour groups' colours (need by need) and real cards of each colour."""

    def _pool(self, debt: int) -> int:
        """Wilds still free: those held less those owed, within the lay-down's limit."""
        pool = len(self.wilds) - debt
        if self.per_laydown is not None:
            pool = min(pool, self.per_laydown - debt)
        return pool

    def _number(self, place: int) -> int:
        return (place - 1) % self.period + 1

    def solve(
        self,
        index: int,
        budget: int,
        debt: int,
        after: tuple[int, ...] | None = None,
        runs: tuple[tuple[int, int], ...] = (),
        set_numbers: tuple[int, ...] = (),
    ) -> bool:
        """Meet needs ``index``… from the cards left, ``debt`` Wilds already owed to the
        melds chosen; the path records the runs and sets chosen, ``plan`` the colour groups."""
        self.work.spend()
        pool = self._pool(debt)
        if pool < 0:
            return False
        if index == self.first_colour:
            return self._colour_groups(budget, pool)
        key = (index, bytes(self.total), budget, debt, after, runs, set_numbers)
        if key in self.failed:
            return False
        cards_left = sum(self.total) + pool + budget
        if sum(need.sizes[0] for need in self.needs[index:]) > cards_left:
            self.failed.add(key)
            return False
        need = self.needs[index]
        same_next = index + 1 < len(self.needs) and _alike(self.needs[index + 1], need)
        if need.kind is MeldKind.RUN:
            candidates = self._runs(index, need, budget, pool, after, runs)
        else:
            candidates = self._sets(need, budget, pool, after, set_numbers)
        total = self.total
        for used, wilds, phantoms, order_key, placed in candidates:
            self.work.spend()
            for number in used:
                total[number] -= 1
            self.path.append((index, used, wilds))
            next_runs = (*runs, placed) if placed is not None and self.track_runs else runs
            next_numbers = set_numbers
            if placed is None and self.one_set_a_number:
                next_numbers = (*set_numbers, order_key[0])
            if self.solve(
                index + 1,
                budget - phantoms,
                debt + wilds,
                order_key if same_next else None,
                next_runs,
                next_numbers,
            ):
                return True
            self.path.pop()
            for number in used:
                total[number] += 1
        self.failed.add(key)
        return False

    # Runs and sets: (numbers taken from the hand, Wilds, cards not held, order key, run placed)

    def _runs(
        self,
        index: int,
        need: _Need,
        budget: int,
        pool: int,
        after: tuple[int, ...] | None,
        runs: tuple[tuple[int, int], ...],
    ) -> Iterator[tuple[list[int], int, int, tuple[int, ...], tuple[int, int] | None]]:
        cap = pool if self.per_meld is None else min(pool, self.per_meld)
        # A real card gives way to a Wild only where a later meld may want it.
        release = index + 1 < len(self.needs)
        for size in need.sizes:
            for lo, hi in windows(size, self.rules):
                self.work.spend()
                order_key = (size, lo)
                if after is not None and order_key < after:
                    continue
                if self.track_runs and any(self._touch(a, b, lo, hi) for a, b in runs):
                    continue
                numbers = [self._number(place) for place in range(lo, hi + 1)]
                held = [self.total[number] > 0 for number in numbers]
                if held.count(False) > cap + budget:
                    continue
                for used, wilds, phantoms in self._fillings(
                    numbers, held, need.real, release, budget, cap
                ):
                    yield used, wilds, phantoms, order_key, (lo, hi)

    def _fillings(
        self,
        numbers: list[int],
        held: list[bool],
        real: int,
        release: bool,
        budget: int,
        cap: int,
    ) -> Iterator[tuple[list[int], int, int]]:
        """Each way to fill a run's places: the number held, a Wild, or a card not held."""
        size = len(numbers)
        chosen: list[int] = []
        work = self.work

        def extend(
            place: int, wilds: int, phantoms: int, reals: int, prev_wild: bool
        ) -> Iterator[tuple[list[int], int, int]]:
            work.spend()
            if place == size:
                if reals >= real and not (self.at_most_naturals and wilds > reals):
                    yield list(chosen), wilds, phantoms
                return
            if held[place]:
                chosen.append(numbers[place])
                yield from extend(place + 1, wilds, phantoms, reals + 1, False)
                chosen.pop()
            if (
                wilds < cap
                and not (self.spacing_run and prev_wild)
                and (release or not held[place])
            ):
                yield from extend(place + 1, wilds + 1, phantoms, reals, True)
            if not held[place] and phantoms < budget:
                yield from extend(place + 1, wilds, phantoms + 1, reals + 1, False)

        yield from extend(0, 0, 0, 0, False)

    def _touch(self, a: int, b: int, lo: int, hi: int) -> bool:
        """Whether runs over places a…b and lo…hi touch or overlap (across 12 and 1 where
        runs may wrap)."""
        if not self.wrap:
            return a <= hi + 1 and lo <= b + 1
        period = self.period
        numbers = {place % period for place in range(a, b + 1)}
        return any(
            (place + step) % period in numbers for place in range(lo, hi + 1) for step in (-1, 0, 1)
        )

    def _sets(
        self,
        need: _Need,
        budget: int,
        pool: int,
        after: tuple[int, ...] | None,
        set_numbers: tuple[int, ...],
    ) -> Iterator[tuple[list[int], int, int, tuple[int, ...], tuple[int, int] | None]]:
        size = need.sizes[0]
        cap = pool if self.per_meld is None else min(pool, self.per_meld)
        total = self.total
        if need.number is not None:
            numbers = [need.number]
        else:
            numbers = [number for number in range(1, self.period + 1) if total[number]]
            if budget > 0 or need.real == 0:
                # Every number not held is alike to a set: one stands for them all.
                numbers += [
                    number
                    for number in range(1, self.period + 1)
                    if not total[number] and number not in set_numbers
                ][:1]
        for number in numbers:
            if (after is not None and (number,) < after) or number in set_numbers:
                continue
            for reals in range(min(size, total[number]), -1, -1):
                for phantoms in range(min(budget, size - reals) + 1):
                    wilds = size - reals - phantoms
                    counted = reals + phantoms
                    if counted < need.real or wilds > cap:
                        continue
                    if self.spacing_set and wilds > counted + 1:
                        continue
                    if self.at_most_naturals and wilds > counted:
                        continue
                    yield [number] * reals, wilds, phantoms, (number,), None

    # Cards of one colour

    def _colour_groups(self, budget: int, pool: int) -> bool:
        """Whether the colour groups can be made from the cards left, ``pool`` Wilds and
        ``budget`` cards not held; sets ``plan`` for the first colours that do."""
        groups = self.needs[self.first_colour :]
        if not groups:
            return True
        least = []
        for group in groups:
            size = group.sizes[0]
            fewest = group.real
            if self.per_meld is not None:
                fewest = max(fewest, size - self.per_meld)
            if self.at_most_naturals:
                fewest = max(fewest, (size + 1) // 2)
            if fewest > size:
                return False
            least.append(fewest)
        wanted = sum(group.sizes[0] for group in groups) - pool
        colours = self.colours
        subsets = range(1 << colours)
        # Gale's bound: how many real cards the colours of a subset can take from what is left.
        give = [
            sum(
                min(
                    self.total[number],
                    sum(self.count[number][c] for c in range(colours) if subset >> c & 1),
                )
                for number in range(1, self.period + 1)
            )
            for subset in subsets
        ]
        full = (1 << colours) - 1
        for chosen in itertools.product(range(colours), repeat=len(groups)):
            self.work.spend()
            if any(
                _alike(groups[i], groups[i + 1]) and chosen[i] > chosen[i + 1]
                for i in range(len(groups) - 1)
            ):
                continue
            low = [0] * colours
            high = [0] * colours
            for group, fewest, colour in zip(groups, least, chosen, strict=True):
                low[colour] += fewest
                high[colour] += group.sizes[0]

            def within(bounds: list[int], subset: int) -> int:
                return sum(bounds[c] for c in range(colours) if subset >> c & 1)

            # The most real cards toward the fewest asked, and the most in all.
            toward_least = min(give[s] + within(low, full ^ s) for s in subsets)
            most = min(give[s] + within(high, full ^ s) for s in subsets)
            short = max(sum(low) - toward_least, wanted - most)
            if short <= budget:
                if budget == 0:
                    self.plan = (chosen, self._greedy(give, low, high))
                return True
        return False

    def _greedy(self, give: list[int], low: list[int], high: list[int]) -> list[int]:
        """Real cards for each colour: the fewest asked where the hand has them, then as many
        as fit (a polymatroid's greedy base, so both are as large as they can be)."""
        colours = self.colours
        taken = [0] * colours
        for bounds in (low, high):
            for colour in range(colours):
                room = min(
                    give[subset]
                    - sum(taken[c] for c in range(colours) if subset >> c & 1 and c != colour)
                    for subset in range(1 << colours)
                    if subset >> colour & 1
                )
                taken[colour] = max(taken[colour], min(bounds[colour], room))
        return taken

    # The answer

    def melds(self) -> list[list[Card]]:
        """The melds found, as the hand's cards, in the contract's order."""
        assert self.plan is not None or self.first_colour == len(self.needs)
        colours = self.colours
        numbers = range(1, self.period + 1)
        for_colour = [[0] * colours for _ in numbers]
        if self.plan is not None:
            for_colour = _flow(
                [self.total[number] for number in numbers],
                [self.count[number][:colours] for number in numbers],
                self.plan[1],
            )
        # Each number's cards: those the colour groups take, the rest (colour not known first)
        # for the runs and sets.
        by_colour: list[list[Card]] = [[] for _ in range(colours)]
        rest: dict[int, list[Card]] = {}
        for number in numbers:
            row = self.held[number]
            left = list(row[colours])
            for colour in range(colours):
                keep = for_colour[number - 1][colour]
                by_colour[colour].extend(row[colour][:keep])
                left.extend(row[colour][keep:])
            rest[number] = left
        wild = iter(self.wilds)
        found: dict[int, list[Card]] = {}
        for index, used, wilds in self.path:
            cards = [rest[number].pop(0) for number in used]
            found[index] = cards + [next(wild) for _ in range(wilds)]
        if self.plan is not None:
            chosen, _ = self.plan
            groups = self.needs[self.first_colour :]
            for offset, (group, colour) in enumerate(zip(groups, chosen, strict=True)):
                size = group.sizes[0]
                real = by_colour[colour]
                # Later groups of the colour still need their fewest real cards.
                later = sum(
                    self.needs[self.first_colour + i].real
                    for i in range(offset + 1, len(groups))
                    if chosen[i] == colour
                )
                take = min(size, max(0, len(real) - later))
                cards = real[:take]
                del real[:take]
                found[self.first_colour + offset] = cards + [next(wild) for _ in range(size - take)]
        result: list[list[Card]] = []
        taken: set[int] = set()
        for requirement in self.requirements:
            for index, need in enumerate(self.needs):
                if index not in taken and need.requirement == requirement:
                    taken.add(index)
                    result.append(found[index])
                    break
        return result


def _alike(first: _Need, second: _Need) -> bool:
    return (
        first.kind is second.kind and first.sizes == second.sizes and first.number == second.number
    )


def _flow(supply: list[int], room: list[list[int]], wanted: list[int]) -> list[list[int]]:
    """How many cards of each number go to each colour: at most ``supply`` of a number, at
    most ``room`` of a number in a colour, exactly ``wanted`` of a colour (augmenting paths;
    the caller knows a flow exists)."""
    numbers, colours = len(supply), len(wanted)
    flow = [[0] * colours for _ in range(numbers)]
    sent = [0] * numbers
    got = [0] * colours

    def augment(colour: int, seen: set[int]) -> bool:
        for number in range(numbers):
            if number in seen or flow[number][colour] >= room[number][colour]:
                continue
            seen.add(number)
            if sent[number] < supply[number]:
                flow[number][colour] += 1
                sent[number] += 1
                return True
            # The number is spent: move one of its cards from another colour to this one.
            for other in range(colours):
                if other != colour and flow[number][other] > 0:
                    flow[number][other] -= 1
                    flow[number][colour] += 1
                    if augment(other, seen):
                        return True
                    flow[number][colour] -= 1
                    flow[number][other] += 1
        return False

    for colour in range(colours):
        while got[colour] < wanted[colour]:
            if not augment(colour, set()):
                raise AssertionError("no flow where Gale's condition promised one")
            got[colour] += 1
    return flow
