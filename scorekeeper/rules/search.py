"""Finding a contract in a hand: ``find_contract`` and ``cards_short``.

The search is exact. It rests on one fact: when a lay-down exists, one exists
whose melds are exactly as long as the contract asks. A longer set keeps
enough real cards when cut to size; a longer run cut to a window holding a real
card still keeps its wild cards apart; cutting runs only widens the gaps
between runs of one suit. (With more than one real card required per meld a
window may lose some, so runs are then tried at every length.) So the search
picks, requirement by requirement (runs first, the longest first), melds of
exactly the size asked, from the cards still in hand:

- a run is a suit and a window of places; each place takes the real card if it
  is held, else a wild card; a real card is left for a later meld (a wild card
  taking its place) only when a later meld exists;
- a set is a rank, how many real cards and wild cards; which suits only matter
  when a run is still to come;
- jokers are spent before 2s, which may be read as themselves in a run.

Alike requirements take melds in a fixed order, failed states are remembered,
and a bound prunes: each requirement needs at least its fewest missing cards,
so their sum cannot exceed the wild cards left.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .cards import JOKER, Card, Rank, Suit, as_cards
from .contracts import Contract, MeldKind, MeldRequirement
from .decks import STANDARD, Deck
from .melds import windows
from .messages import N_
from .ruleset import RuleSet, RulesLike, get_ruleset
from .search_colours import ColourSearch

__all__ = ["WORK_BUDGET", "SearchBudgetExceeded", "SearchNotYet", "cards_short", "find_contract"]

_SUITS = tuple(Suit)
_RANKS = range(1, 14)
_RO = 56  # rank-alone cards: _RO + rank
_NAT = 70  # suited cards of a wild rank: _NAT + suit * 14 + rank
_PURE = 126  # wild cards that can only be wild (jokers, a wild rank alone)
_SIZE = 127
_PHANTOM = -1

_Key = tuple[int, ...]
"""The order alike requirements take melds in."""
_Placed = tuple[int, int, int]
"""A run placed: suit, lowest place, highest place."""
_Candidate = tuple[list[int], int, int, _Key, _Placed | None]
"""A meld to try: the slots of the cards it takes as real (-1 for a card not held), how many
wild cards it takes, how many cards not held, its order key, its run."""

WORK_BUDGET = 150_000
"""Search steps (a meld tried, a run window or a place of it looked at) one question may
take: about a quarter to half a second on one core of a small server. Hands dealt under the
presets take at most about 3,000 for ``find_contract`` and 55,000 for ``cards_short``; only
extreme house rules come near it."""


class SearchBudgetExceeded(ValueError):
    """The hand check gave up: the hand and rules offer too many possibilities to decide
    within the search's work budget. Neither yes nor no: check the hand by hand."""

    def __init__(self, contract: Contract, deck: Deck = STANDARD) -> None:
        self.message = deck.wording.undecided(contract.number, contract.description)
        super().__init__(str(self.message))
        self.contract = contract


class SearchNotYet(SearchBudgetExceeded):
    """The hand check does not search this contract yet: cards of one suit on a deck whose
    runs are of one suit (a standard deck's). Neither yes nor no, as when the budget runs
    out."""

    def __init__(self, contract: Contract) -> None:
        super().__init__(contract)
        self.message = N_(
            "the hand check cannot decide contract %(number)s (%(contract)s) with this deck "
            "yet: check by hand",
            number=contract.number,
            contract=contract.description,
        )
        self.args = (str(self.message),)


def _searchable(contract: Contract, rules: RuleSet) -> None:
    """Raise SearchNotYet for a contract the search does not know how to look for."""
    if any(requirement.kind is MeldKind.COLOR for requirement in contract.melds):
        raise SearchNotYet(contract)


class _Work:
    """The steps left to one question (a ``cards_short`` shares it between its searches)."""

    def __init__(self, contract: Contract, steps: int, deck: Deck = STANDARD) -> None:
        self.contract = contract
        self.left = steps
        self.deck = deck

    def spend(self, steps: int = 1) -> None:
        self.left -= steps
        if self.left < 0:
            raise SearchBudgetExceeded(self.contract, self.deck)


@dataclass(frozen=True, slots=True)
class _Need:
    """A requirement as searched: its kind, the sizes to try, its rank if fixed."""

    kind: MeldKind
    sizes: tuple[int, ...]
    rank: int | None
    requirement: MeldRequirement


def _needs(contract: Contract, rules: RuleSet) -> list[_Need]:
    needs = []
    for requirement in contract.melds:
        rank = int(requirement.rank) if requirement.rank is not None else None
        if requirement.kind is MeldKind.RUN:
            size = max(requirement.size, rules.min_run, rules.min_real_cards)
            sizes = (size,) if rules.min_real_cards <= 1 else tuple(range(size, 14))
        elif requirement.kind is MeldKind.PAIR:
            sizes = (max(requirement.size, rules.min_real_cards),)
        else:
            sizes = (max(requirement.size, rules.min_set, rules.min_real_cards),)
        needs.append(_Need(requirement.kind, sizes, rank, requirement))
    needs.sort(key=lambda need: (need.kind is not MeldKind.RUN, -need.sizes[0]))
    return needs


class _Search:
    """One search of a hand for a contract, with at most ``budget`` cards not held."""

    def __init__(
        self, hand: Sequence[Card], rules: RuleSet, contract: Contract, work: _Work
    ) -> None:
        self.rules = rules
        self.work = work
        self.requirements = contract.melds
        self.needs = _needs(contract, rules)
        self.first_set = next(
            (i for i, need in enumerate(self.needs) if need.kind is not MeldKind.RUN),
            len(self.needs),
        )
        # The most cards the needs from each index on can take (a set-state cap).
        self.set_cards = [sum(need.sizes[-1] for need in self.needs[i:]) for i in range(14)]
        # Which later needs may want a real card this meld could leave them: any later run
        # (a card of its suit), and later sets (of their rank, or any rank: 0).
        self.later_run = [
            any(n.kind is MeldKind.RUN for n in self.needs[i + 1 :]) for i in range(len(self.needs))
        ]
        self.later_set_ranks = [
            {
                0 if n.rank is None else n.rank
                for n in self.needs[i + 1 :]
                if n.kind is not MeldKind.RUN
            }
            for i in range(len(self.needs))
        ]
        self.wild_rank = [False] * 15
        for rank in rules.wild_rank_list:
            self.wild_rank[int(rank)] = True
        self.wild_rank[14] = self.wild_rank[1]
        self.run_spacing = rules.wild_spacing.run == "not adjacent"
        self.set_spacing = rules.wild_spacing.set == "not adjacent"
        self.min_real = rules.min_real_cards
        self.track_runs = not rules.same_suit_runs_may_continue
        self.wrap = rules.runs_may_wrap
        self.windows = {size: windows(size, rules) for size in range(1, 14)}
        # The wild-card limits of a meld and of the whole lay-down (None: no limit).
        self.per_meld = rules.max_wilds_per_meld
        self.per_laydown = rules.max_wilds_per_laydown
        self.at_most_naturals = rules.wilds_at_most_naturals
        self.one_set_a_rank = not rules.same_rank_sets_allowed
        counts = [0] * _SIZE
        self.pure_cards: list[Card] = []
        for card in hand:
            if card.rank is None:
                counts[_PURE] += 1
                self.pure_cards.append(card)
            elif rules.is_wild_rank(card.rank):
                if card.suit is None or not rules.wild_as_itself:
                    counts[_PURE] += 1
                    self.pure_cards.append(card)
                else:
                    counts[_NAT + card.suit.index * 14 + int(card.rank)] += 1
            elif card.suit is None:
                counts[_RO + int(card.rank)] += 1
            else:
                counts[card.suit.index * 14 + int(card.rank)] += 1
        if max(counts) > 255:
            raise ValueError("a hand holds at most 255 copies of a card")
        self.pure_cards.sort(key=lambda card: card.rank is not None)
        self.count = bytearray(counts)
        self.failed: set[tuple[object, ...]] = set()
        self.path: list[tuple[list[int], int]] = []

    # The state

    def _pool(self, debt: int) -> int:
        """Wild cards still free: those held (jokers, and wild-rank cards not taken as
        themselves) less those owed, and no more than the lay-down may still take. Which wild
        card fills which place never matters: any wild card does, and a wild-rank card that
        lands in its own place of its own run is only read better (as real)."""
        pool = self.count[_PURE] + self._nat_total() - debt
        if self.per_laydown is not None:
            pool = min(pool, self.per_laydown - debt)
        return pool

    def _nat_total(self) -> int:
        return sum(self.count[_NAT : _NAT + 56])

    def _rank_counts(self) -> list[int]:
        count = self.count
        return [
            0
            if self.wild_rank[rank]
            else count[_RO + rank]
            + count[rank]
            + count[14 + rank]
            + count[28 + rank]
            + count[42 + rank]
            for rank in range(14)
        ]

    def _present(self, suit: int) -> list[int]:
        """1 where the suit's card for a place (1…14) is held, real or a 2 read as itself."""
        count = self.count
        base = suit * 14
        nat = _NAT + base
        natural = self.rules.wild_as_itself
        # Places past 14 are those of a run turning the corner (15 the 2 after the ace …).
        present = [0] * 27
        for place in range(1, 27):
            rank = (place - 1) % 13 + 1
            if self.wild_rank[rank]:
                present[place] = 1 if natural and count[nat + rank] else 0
            else:
                present[place] = 1 if count[base + rank] else 0
        return present

    def _bound_ok(self, index: int, budget: int, debt: int) -> bool:
        """False when the remaining needs surely cannot be met: the sum of each one's
        fewest missing cards beats the wild cards and the budget, or too few cards are left."""
        needs = self.needs[index:]
        fill = self._pool(debt) + budget
        if fill < 0:
            return False
        cards_left = sum(self.count) - debt + budget
        total = sum(need.sizes[0] for need in needs)
        if total > cards_left:
            return False
        missing = 0
        presents: list[list[int]] | None = None
        rank_counts: list[int] | None = None
        for need in needs:
            size = need.sizes[0]
            if need.kind is MeldKind.RUN:
                self.work.spend(len(self.windows[size]))
                if presents is None:
                    presents = [self._present(suit) for suit in range(4)]
                best = size
                for present in presents:
                    for lo, hi in self.windows[size]:
                        held = sum(present[lo : hi + 1])
                        if size - held < best:
                            best = size - held
                missing += best
            else:
                if rank_counts is None:
                    rank_counts = self._rank_counts()
                most = rank_counts[need.rank] if need.rank is not None else max(rank_counts)
                missing += max(0, size - most)
            if missing > fill:
                return False
        return True

    def solve(
        self,
        index: int,
        budget: int,
        debt: int,
        after: _Key | None,
        runs: tuple[_Placed, ...],
        set_ranks: tuple[int, ...] = (),
    ) -> bool:
        """Meet needs ``index``… from the cards left, ``debt`` of which are already owed as
        wild cards to melds chosen, ``set_ranks`` taken by sets (where one lay-down holds one
        set a rank); the path records the melds chosen."""
        if index == len(self.needs):
            return True
        self.work.spend()
        need = self.needs[index]
        key: tuple[object, ...]
        if index >= self.first_set:
            # Only sets are left: suits no longer matter, nor which wild card is which.
            key = (index, self._set_state(index, debt), budget, after, set_ranks)
        else:
            key = (index, bytes(self.count), budget, debt, after, runs, set_ranks)
        if key in self.failed:
            return False
        if not self._bound_ok(index, budget, debt):
            self.failed.add(key)
            return False
        same_next = index + 1 < len(self.needs) and _alike(self.needs[index + 1], need)
        if need.kind is MeldKind.RUN:
            candidates = self._runs(index, need, budget, debt, after, runs)
        else:
            candidates = self._sets(need, budget, debt, after, set_ranks)
        count = self.count
        for used, wilds, phantoms, order_key, placed in candidates:
            self.work.spend()
            next_ranks = set_ranks
            if self.one_set_a_rank and placed is None:
                next_ranks = (*set_ranks, order_key[0])
            for slot in used:
                if slot >= 0:
                    count[slot] -= 1
            self.path.append((used, wilds))
            next_runs = runs + ((placed,) if placed is not None and self.track_runs else ())
            if self.solve(
                index + 1,
                budget - phantoms,
                debt + wilds,
                order_key if same_next else None,
                next_runs,
                next_ranks,
            ):
                return True
            self.path.pop()
            for slot in used:
                if slot >= 0:
                    count[slot] += 1
        self.failed.add(key)
        return False

    def _set_state(self, index: int, debt: int) -> tuple[int, ...]:
        """What the sets still to make depend on: the real cards held of each rank and the
        wild cards left, each capped at what those sets could take."""
        cap = self.set_cards[index]
        ranks = self._rank_counts()
        return (*(min(cap, held) for held in ranks), min(cap, self._pool(debt)))

    # Candidates: (slots used in meld order, phantoms, order key, run placed)

    def _runs(
        self,
        index: int,
        need: _Need,
        budget: int,
        debt: int,
        after: _Key | None,
        runs: tuple[_Placed, ...],
    ) -> Iterator[_Candidate]:
        count = self.count
        pool = self._pool(debt)
        natural = self.rules.wild_as_itself
        later_run = self.later_run[index]
        set_ranks = self.later_set_ranks[index]
        any_set = 0 in set_ranks
        for size in need.sizes:
            # Longer than asked only when the asked length cannot hold enough real cards:
            # then a shortest such run has real cards at both ends and no more than needed.
            longer = size > need.sizes[0]
            for suit in range(4):
                base = suit * 14
                for lo, hi in self.windows[size]:
                    self.work.spend()
                    order_key = (size, suit, lo)
                    if after is not None and order_key < after:
                        continue
                    placed = (suit, lo, hi)
                    if self.track_runs and any(
                        s == suit and _touch(a, b, lo, hi, self.wrap) for s, a, b in runs
                    ):
                        continue
                    slots: list[int] = []
                    wild_place: list[bool] = []
                    release: list[bool] = []
                    forced = 0
                    for place in range(lo, hi + 1):
                        rank = (place - 1) % 13 + 1
                        if self.wild_rank[rank]:
                            slot = _NAT + base + rank
                            held = natural and count[slot] > 0
                            wild_place.append(not natural)
                            # A wild-rank card left out goes to the wild cards: worth it only
                            # for a later run of its suit, where it may be itself.
                            release.append(later_run)
                        else:
                            slot = base + rank
                            held = count[slot] > 0
                            wild_place.append(False)
                            release.append(later_run or any_set or rank in set_ranks)
                        slots.append(slot if held else -1)
                        if not held:
                            forced += 1
                    if forced > pool + budget:
                        continue
                    if longer and budget == 0 and (slots[0] < 0 or slots[-1] < 0):
                        continue
                    cap = pool if self.per_meld is None else min(pool, self.per_meld)
                    for pattern, wilds, phantoms in self._patterns(
                        slots, wild_place, release, budget, cap, longer
                    ):
                        naturals = sum(1 for slot in pattern if slot >= _NAT)
                        if wilds > pool - naturals:
                            continue
                        yield pattern, wilds, phantoms, order_key, placed

    def _patterns(
        self,
        slots: list[int],
        wild_place: list[bool],
        release: list[bool],
        budget: int,
        wild_cap: int,
        longer: bool,
    ) -> Iterator[tuple[list[int], int, int]]:
        """Fillings of a run window: per place the real card (its slot), a wild card (-2)
        or a card not held (-1, within the budget). A real card gives way to a wild card only
        where ``release`` says a later meld may want it. With ``longer``, both ends are real
        and the run holds exactly the real cards a meld needs."""
        spacing = self.run_spacing
        min_real = self.min_real
        at_most_naturals = self.at_most_naturals
        size = len(slots)
        work = self.work
        chosen: list[int] = []

        def extend(
            place: int, wilds: int, phantoms: int, reals: int, prev_wild: bool
        ) -> Iterator[tuple[list[int], int, int]]:
            work.spend()
            if place == size:
                if (
                    reals >= min_real
                    and not (longer and (prev_wild or reals != min_real))
                    and not (at_most_naturals and wilds > reals)
                ):
                    yield [slot for slot in chosen if slot != -2], wilds, phantoms
                return
            if longer and reals >= min_real:
                return
            ends = longer and (place == 0 or place == size - 1)
            slot = slots[place]
            if slot >= 0:
                chosen.append(slot)
                yield from extend(place + 1, wilds, phantoms, reals + 1, False)
                chosen.pop()
            can_wild = wilds < wild_cap and not ends and not (spacing and prev_wild)
            if can_wild and (slot < 0 or release[place]):
                chosen.append(-2)
                yield from extend(place + 1, wilds + 1, phantoms, reals, True)
                chosen.pop()
            if slot < 0 and phantoms < budget:
                phantom_wild = wild_place[place]
                if not (phantom_wild and (ends or (spacing and prev_wild))):
                    chosen.append(_PHANTOM)
                    real = 0 if phantom_wild else 1
                    yield from extend(place + 1, wilds, phantoms + 1, reals + real, phantom_wild)
                    chosen.pop()

        yield from extend(0, 0, 0, 0, False)

    def _sets(
        self,
        need: _Need,
        budget: int,
        debt: int,
        after: _Key | None,
        set_ranks: tuple[int, ...] = (),
    ) -> Iterator[_Candidate]:
        count = self.count
        size = need.sizes[0]
        wild_cap = self._pool(debt)
        if self.per_meld is not None:
            wild_cap = min(wild_cap, self.per_meld)
        rank_counts = self._rank_counts()
        min_real = self.rules.real_cards_needed(need.kind, size)
        if need.rank is not None:
            ranks = [need.rank]
        else:
            ranks = [rank for rank in _RANKS if rank_counts[rank] > 0]
            # A rank not held: for cards not held, or wild cards alone (min_real_cards 0).
            if budget > 0 or min_real == 0:
                empty = [
                    rank
                    for rank in _RANKS
                    if rank_counts[rank] == 0 and not self.wild_rank[rank] and rank not in set_ranks
                ]
                ranks += empty[:1]
        for rank in ranks:
            if after is not None and (rank,) < after:
                continue
            if self.wild_rank[rank] or rank in set_ranks:
                continue
            held = rank_counts[rank]
            alone = count[_RO + rank]
            for reals in range(min(size, held), -1, -1):
                for phantoms in range(min(budget, size - reals) + 1):
                    wilds = size - reals - phantoms
                    if reals + phantoms < min_real or wilds > wild_cap:
                        continue
                    if self.set_spacing and wilds > reals + phantoms + 1:
                        continue
                    if self.at_most_naturals and wilds > reals + phantoms:
                        continue
                    from_alone = min(reals, alone)
                    # Runs are placed first, so which suits a set takes no longer matters.
                    suited = self._suit_pick(rank, reals - from_alone)
                    used = [_RO + rank] * from_alone + suited + [_PHANTOM] * phantoms
                    yield used, wilds, phantoms, (rank,), None

    def _suit_pick(self, rank: int, number: int) -> list[int]:
        """``number`` suited cards of ``rank`` (the hand holds them)."""
        count = self.count
        picked: list[int] = []
        for suit in range(4):
            slot = suit * 14 + rank
            picked.extend([slot] * min(count[slot], number - len(picked)))
        return picked

    # The answer

    def melds(self) -> list[list[Card]]:
        """The melds on the path, as the hand's cards, in the contract's order. The wild
        cards owed are the jokers and pure wild cards first, then wild-rank cards left."""
        spare = list(self.pure_cards)
        for offset in range(56):
            if self.count[_NAT + offset]:
                card = Card(Rank(offset % 14), _SUITS[offset // 14])
                spare.extend([card] * self.count[_NAT + offset])
        wild = iter(spare)
        by_need: dict[int, list[Card]] = {}
        for index, (used, wilds) in enumerate(self.path):
            cards = []
            for slot in used:
                if slot >= _NAT:
                    offset = slot - _NAT
                    cards.append(Card(Rank(offset % 14), _SUITS[offset // 14]))
                elif slot >= _RO:
                    cards.append(Card(Rank(slot - _RO), None))
                elif slot >= 0:
                    cards.append(Card(Rank(slot % 14), _SUITS[slot // 14]))
            cards.extend(next(wild, JOKER) for _ in range(wilds))
            by_need[index] = cards
        result: list[list[Card]] = []
        taken: set[int] = set()
        for requirement in self.requirements:
            for index, need in enumerate(self.needs):
                if index not in taken and need.requirement == requirement:
                    taken.add(index)
                    result.append(by_need[index])
                    break
        return result


def _touch(a: int, b: int, lo: int, hi: int, wrap: bool) -> bool:
    """Whether runs of one suit over places a…b and lo…hi touch or overlap; where runs turn
    the corner, the king and the ace are neighbours whichever turn their places are read in."""
    if not wrap:
        return a <= hi + 1 and lo <= b + 1
    ranks = {place % 13 for place in range(a, b + 1)}
    return any((place + step) % 13 in ranks for place in range(lo, hi + 1) for step in (-1, 0, 1))


def _alike(first: _Need, second: _Need) -> bool:
    return first.kind is second.kind and first.sizes == second.sizes and first.rank == second.rank


def _search(
    hand: Sequence[Card], rules: RuleSet, contract: Contract, budget: int, work: _Work
) -> _Search | None:
    search = _Search(hand, rules, contract, work)
    if search.solve(0, budget, 0, None, ()):
        return search
    return None


def _meldable(cards: list[Card], rules: RuleSet) -> list[Card]:
    """The cards that may go into a meld: all but a deck's cards that never do (a Skip)."""
    if rules.deck.all_in_melds:
        return cards
    return [card for card in cards if card.special is None or card.special.in_melds]


def find_contract(
    hand: str | Sequence[Card], rules: RulesLike, contract_number: int
) -> list[list[Card]] | None:
    """A lay-down from ``hand`` that makes contract ``contract_number``, or None if none exists.

    Exact: it finds a lay-down whenever one exists, one meld per requirement in
    the contract's order, each exactly as long as asked (a player may add more
    cards), using only the hand's cards, each at most as often as held; what it
    returns passes ``check_contract``. Raises ContractNumberError for a contract
    the rules do not have, and SearchBudgetExceeded when the hand and rules offer
    too many possibilities to decide within ``WORK_BUDGET`` steps (never for a
    hand dealt under a preset).
    """
    ruleset = get_ruleset(rules)
    contract = ruleset.contract(contract_number)
    cards = _meldable(as_cards(hand, ruleset.deck), ruleset)
    work = _Work(contract, WORK_BUDGET, ruleset.deck)
    if not ruleset.deck.runs_of_one_suit:
        colour_search = ColourSearch(cards, ruleset, contract, work)
        return colour_search.melds() if colour_search.solve(0, 0, 0) else None
    _searchable(contract, ruleset)
    found = _search(cards, ruleset, contract, 0, work)
    return None if found is None else found.melds()


def cards_short(hand: str | Sequence[Card], rules: RulesLike, contract_number: int) -> int:
    """How many more cards ``hand`` needs to make contract ``contract_number``: 0 when
    ``find_contract`` finds a lay-down, else the fewest extra cards (any cards the player
    might draw) with which one exists. A drawn real card is never worse than a drawn
    wild card, and the count ignores how many copies the packs hold. Raises
    SearchBudgetExceeded when its searches together pass ``WORK_BUDGET`` steps."""
    ruleset = get_ruleset(rules)
    contract = ruleset.contract(contract_number)
    cards = _meldable(as_cards(hand, ruleset.deck), ruleset)
    work = _Work(contract, WORK_BUDGET, ruleset.deck)
    if not ruleset.deck.runs_of_one_suit:
        return _colour_cards_short(cards, ruleset, contract, work)
    _searchable(contract, ruleset)
    probe = _Search(cards, ruleset, contract, work)
    # The most cards the contract may take: its melds at the sizes the rules make them (a run
    # of 4 is 5 cards where runs are at least 5), more than the contract's own sizes say.
    most = max(contract.size, sum(need.sizes[0] for need in probe.needs))
    for budget in range(max(0, contract.size - len(cards)), most + 1):
        if not probe._bound_ok(0, budget, 0):
            continue
        if _search(cards, ruleset, contract, budget, work) is not None:
            return budget
    raise ValueError(f"no hand can make contract {contract.number} under these rules")


def _colour_cards_short(cards: list[Card], rules: RuleSet, contract: Contract, work: _Work) -> int:
    """``cards_short`` on a deck whose runs take any colours (``search_colours``)."""
    probe = ColourSearch(cards, rules, contract, work)
    most = max(contract.size, sum(need.sizes[0] for need in probe.needs))
    for budget in range(max(0, contract.size - len(cards)), most + 1):
        if ColourSearch(cards, rules, contract, work).solve(0, budget, 0):
            return budget
    raise ValueError(f"no hand can make contract {contract.number} under these rules")
