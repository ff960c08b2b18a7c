"""The engine's messages: English as ``str``, every one of them written as a literal the
catalogue extraction finds, and every one in the Spanish catalogue."""

from __future__ import annotations

import ast
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    JOKER,
    PRESETS,
    Card,
    CardError,
    ContractNumberError,
    Rank,
    RuleSetError,
    SearchBudgetExceeded,
    Suit,
    check_contract,
    check_layoff,
    check_liberation,
    check_meld,
    describe_options,
    get_ruleset,
    parse_cards,
)
from scorekeeper.rules.messages import ENGLISH, N_, Message, N_plural, Translator, listing, render

RULES_PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper" / "rules"
SPANISH = RULES_PACKAGE.parent / "translations" / "es" / "LC_MESSAGES" / "messages.po"
MARKERS = {"N_": 1, "N_plural": 2}


def literal_messages() -> dict[str, str | None]:
    """Every message text the rules package writes (``N_``/``N_plural``), with its plural;
    fails on a marker given anything but literal text (an f-string, a variable), and on a
    ``Message`` built directly outside ``messages.py``: neither would reach the catalogue."""
    found: dict[str, str | None] = {}
    problems: list[str] = []
    for path in sorted(RULES_PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            where = f"{path.name}:{node.lineno}"
            if node.func.id == "Message" and path.name != "messages.py":
                problems.append(f"{where}: a Message built directly, not with N_")
            if node.func.id not in MARKERS:
                continue
            texts = node.args[: MARKERS[node.func.id]]
            if len(texts) < MARKERS[node.func.id] or not all(
                isinstance(text, ast.Constant) and isinstance(text.value, str) for text in texts
            ):
                problems.append(f"{where}: {node.func.id} of something not literal text")
                continue
            values = [text.value for text in texts if isinstance(text, ast.Constant)]
            found[values[0]] = values[1] if len(values) > 1 else None
    assert problems == []
    return found


LITERALS = literal_messages()


def spanish_catalogue() -> dict[str, Any]:
    with SPANISH.open("rb") as file:
        catalogue = read_po(file, locale="es")
    return {
        (message.id[0] if isinstance(message.id, tuple) else message.id): message
        for message in catalogue
        if message.id
    }


def messages_in(value: object) -> Iterator[Message]:
    """Every message ``value`` holds, at any depth (a reason's sentence and source too)."""
    if isinstance(value, Message):
        yield value
        for inner in value.values.values():
            yield from messages_in(inner)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from messages_in(item)
    message = getattr(value, "message", None)
    if message is not None and not isinstance(value, Message):
        yield from messages_in(message)
    source = getattr(value, "source", None)
    if source is not None and hasattr(source, "citation"):
        yield from messages_in(source.label)
        yield from messages_in(source.title)


def test_a_message_reads_english_as_a_string() -> None:
    message = N_("a run of %(suit)s", suit=Suit.SPADES.plural)
    assert message == "a run of spades" and str(message) == "a run of spades"
    assert f"{message}!" == "a run of spades!"
    assert message.text == "a run of %(suit)s" and message.values["suit"] == "spades"
    assert message.capitalized() == "A run of spades"
    assert message.capitalized().as_written() == message
    assert pickle.loads(pickle.dumps(message.capitalized())).capital is True
    with pytest.raises(AttributeError):
        message.text = "changed"  # type: ignore[misc]


def test_a_count_takes_its_plural_and_lists_take_their_and() -> None:
    one = N_plural("%(num)s card", "%(num)s cards", num=1)
    assert (one, N_plural("%(num)s card", "%(num)s cards", num=3)) == ("1 card", "3 cards")
    assert listing(["5♠", "JK", "8♠"]) == "5♠, JK and 8♠"
    assert listing(["5♠"]) == "5♠"
    with pytest.raises(ValueError):
        Message("%(num)s cards", {"num": "three"}, "%(num)s cards", "num")


def test_a_translation_that_does_not_fit_its_values_reads_english() -> None:
    class Broken(Translator):
        def gettext(self, text: str) -> str:
            return "%(nothing)s"

    message = N_("%(card)s is wild", card="JK")
    assert render(message, Broken()) == "JK is wild"
    assert render(message, ENGLISH) == "JK is wild"


def test_every_message_of_the_engine_is_in_the_spanish_catalogue() -> None:
    catalogue = spanish_catalogue()
    assert len(LITERALS) > 200
    for text, plural in LITERALS.items():
        entry = catalogue.get(text)
        assert entry is not None, f"not in the Spanish catalogue: {text!r}"
        assert not entry.fuzzy, text
        if plural is None:
            assert isinstance(entry.string, str) and entry.string, text
        else:
            assert entry.id == (text, plural), text
            assert len(entry.string) == 2 and all(entry.string), text


class _Strict(Translator):
    """Spanish from the catalogue, failing on any text it does not hold."""

    def __init__(self) -> None:
        self.catalogue = spanish_catalogue()

    def _entry(self, text: str) -> Any:
        entry = self.catalogue.get(text)
        assert entry is not None and entry.string, f"not translated: {text!r}"
        return entry

    def gettext(self, text: str) -> str:
        return str(self._entry(text).string)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return str(self._entry(singular).string[0 if count == 1 else 1])


STRICT = _Strict()

NEAR_CARDS = st.one_of(
    st.builds(
        Card,
        st.sampled_from([Rank(n) for n in (1, 2, 3, 4, 5, 6, 12, 13)]),
        st.sampled_from([Suit.HEARTS, Suit.SPADES]),
    ),
    st.builds(Card, st.sampled_from([Rank.FIVE, Rank.TWO, Rank.ACE]), st.none()),
    st.just(JOKER),
)
RULE_CASES: list[Any] = [
    *PRESETS,
    {"base": "twelve-step", "aces": "low", "min_real_cards": 2},
    {"base": "bellevue", "wild_spacing": {"set": "free", "run": "free"}, "aces": "high"},
    {"base": "bellevue", "pair_all_real": True, "liberation": "any"},
    {"base": "contract-rummy", "wild_ranks": ["2", "K"], "wild_as_itself": False},
    {"base": "contract-rummy", "layoff_on_contract_turn": True, "freed_wild": "same round"},
    {"base": "twelve-step", "extra_melds": True, "same_suit_runs_may_continue": False},
    {"base": "twelve-step", "may_i": {"allowed": False}, "cards_dealt": [7, 8, 9]},
    {"base": "bellevue", "may_i": {"limit": 2, "discard": True}, "max_players": 6},
    {"base": "contract-rummy", "packs": {"jokers_extra": 2, "players_per_extra_deck": 1}},
]
RULES = st.sampled_from(RULE_CASES)


def assert_all_known(value: object) -> None:
    for message in messages_in(value):
        assert message.text in LITERALS, f"a message the code does not write: {message.text!r}"
        assert message.plural == LITERALS[message.text], message.text
        render(message, STRICT)


@settings(max_examples=120, deadline=None)
@given(
    rules=RULES,
    cards=st.lists(NEAR_CARDS, min_size=0, max_size=7),
    table=st.lists(NEAR_CARDS, min_size=0, max_size=6),
    added=st.lists(NEAR_CARDS, min_size=0, max_size=3),
    data=st.data(),
)
def test_every_message_a_ruling_holds_is_written_in_the_code_and_translated(
    rules: Any, cards: list[Card], table: list[Card], added: list[Card], data: st.DataObject
) -> None:
    ruleset = get_ruleset(rules)
    number = data.draw(st.integers(1, len(ruleset.contracts)))
    split = data.draw(st.integers(0, len(cards)))
    rulings = [
        check_meld(cards, ruleset),
        check_contract([cards[:split], cards[split:]], ruleset, number),
        check_contract([cards[:split], cards[split:], table], ruleset, number),
        check_layoff(table, added, ruleset, contract_turn=data.draw(st.booleans())),
        *(
            check_liberation(table, card, ruleset, data.draw(st.booleans()))
            for card in added or cards[:1]
        ),
    ]
    for ruling in rulings:
        assert_all_known(ruling.reasons)
        assert_all_known(ruling.notes)
    assert_all_known(ruleset.packs(data.draw(st.integers(1, 9))).overflow([*cards, *cards]))


@pytest.mark.parametrize("rules", RULE_CASES)
def test_every_option_and_contract_in_words_is_translated(rules: Any) -> None:
    ruleset = get_ruleset(rules)
    for option in describe_options(ruleset):
        assert_all_known([option.label, option.help, option.described, option.source])
    for contract in ruleset.contracts:
        assert_all_known([contract.description, contract.summary])
    assert_all_known([ruleset.name, ruleset.game_end, ruleset.may_i.describe()])


def test_every_error_a_person_reads_is_translated() -> None:
    errors: list[Exception] = []
    for text in ("1H", "11S", "KX", "ZZ", "\ufe0f"):
        with pytest.raises(CardError) as card:
            parse_cards(text)
        errors.append(card.value)
    for data in (
        {"base": "twelve-step", "aces": "up", "min_set": 0, "colour": 1},
        {"base": "twelve-step", "aces": "up", "min_set": 0, "name": "", "cards_dealt": []},
        {"base": "poker"},
        {"base": "bellevue", "wild_ranks": ["A"], "contracts": [[{"kind": "run", "size": 99}]]},
        {"base": "bellevue", "card_values": {"Z": 1}, "packs": {"decks": "two"}},
    ):
        with pytest.raises(RuleSetError) as caught:
            get_ruleset(data)
        errors.append(caught.value)
    with pytest.raises(ContractNumberError) as number:
        get_ruleset("bellevue").contract(11)
    errors.append(number.value)
    errors.append(SearchBudgetExceeded(get_ruleset("twelve-step").contract(2)))
    assert len(errors) >= 8
    for error in errors:
        if isinstance(error, RuleSetError):
            assert_all_known([problem.message for problem in error.problems])
        else:
            assert isinstance(error.message, Message)  # type: ignore[attr-defined]
            assert str(error) == error.message  # type: ignore[attr-defined]
            assert_all_known(error)


def test_a_reasons_english_and_its_sentence_for_the_page() -> None:
    [reason] = [
        reason
        for reason in check_meld("5S 2C JK 8S", "twelve-step").reasons
        if reason.rule == "wild_spacing"
    ]
    assert str(reason) == (
        "As a run the two wild cards would have to sit side by side, and in a run wild cards "
        "must be separated by a real card (12-Step Rummy rules)"
    )
    assert reason.cited and str(reason) == f"{reason.message} ({reason.source})"
    aces = [r for r in check_meld("JD QD KD AD", "twelve-step").reasons if r.rule == "aces"]
    assert str(aces[0]) == "Aces may be high or low (12-Step Rummy rules); here the ace is high"
    assert not aces[0].cited and str(aces[0].message) == str(aces[0])
