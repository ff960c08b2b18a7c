"""Every option a sentence on the rules page, in English and Spanish (issue 50, item 3): the
newer options read a bare "yes" or "no" (or "no limit", or a number) where the older ones had
sentences. Every preset's page, and house rules with the options one way and the other; on a
Phase 10 deck, its own options too (issue 51), and only the options its cards mean."""

from __future__ import annotations

import html
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules, scope
from scorekeeper.extensions import db
from scorekeeper.rulebook.sections import applies
from scorekeeper.rules import PRESETS, RuleSet, get_ruleset
from scorekeeper.rules.ruleset import OPTION_KEYS

from ..conftest import family_id

SPANISH = {"Accept-Language": "es-CL"}
# The options the page shows as tables of their own (or not at all: the filing name).
TABLES = ("slug", "name", "contracts", "card_values")
BARE = {"yes", "no", "sí", "si", "no limit", "sin límite", "true", "false"}
BOOLS = (
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
# House rules with every yes-or-no option one way, and the numbers that may be "no limit" set.
EVERY_OPTION_ON: dict[str, Any] = {
    "base": "twelve-step",
    **dict.fromkeys(BOOLS, True),
    "max_players": 6,
    "max_wilds_per_meld": 1,
    "max_wilds_per_laydown": 2,
    "down_and_out_bonus": 5,
    "tie_break": "most rounds won",
    "liberation_before_contract": "if going down",
    "freed_wild": "kept",
    "going_out": "either",
}
EVERY_OPTION_OFF: dict[str, Any] = {
    "base": "continental",
    **dict.fromkeys(BOOLS, False),
    "max_players": 1 + 1,
    "down_and_out_bonus": -1,
    "may_i": {"allowed": False},
    "liberation_from": "any meld",
    "liberation_before_contract": "no",
}

# Phase 10 with each of its own options the other way (phase-10.md's house rules), and as the
# preset has them.
PHASE_10_OTHER_WAY: dict[str, Any] = {
    "base": "phase-10",
    "phases_played": "even",
    "hands": 10,
    "winner": "most contracts",
    "tie_break": "share",
    "going_out": "discard",
    "skip_target": "next",
    "runs_may_wrap": True,
    "same_rank_sets_allowed": False,
    "card_values": {"wild": 20},
}
PHASE_10_SENTENCES = {
    "phase-10": {
        "phases_played": "Every phase, in order",
        "hands": "No fixed number: the game ends as the phases and who wins say.",
        "winner": "Whoever makes the last phase",
        "tie_break": "The lowest total wins; still tied, the tied players alone play one more "
        "round on the last phase, and the first of them to go out wins",
        "going_out": "By discarding the last card or by playing it onto the table",
        "skip_target": "A player the discarder names, never themselves, loses their next turn",
        "runs_may_wrap": "No: 12 and 1 are not neighbours (11-12-1-2 is no run)",
        "same_rank_sets_allowed": "Yes: one lay-down may hold two sets of one number (10R 10B "
        "10G and 10Y 10R 10B)",
    },
    "phase-10-the-other-way": {
        "phases_played": "The even phases only (2, 4, 6 and so on), each keeping its number",
        "hands": "The game ends after 10 rounds, whoever has made what.",
        "winner": "Whoever has made the most phases when the game ends; tied, the lowest "
        "total; still tied, the tie-break",
        "tie_break": "Tied players share the win",
        "going_out": "By discarding the last card",
        "skip_target": "The next player in turn loses their next turn",
        "runs_may_wrap": "Yes: a run may go on from 12 to 1 (11-12-1-2); each number once, so "
        "12 cards at most",
        "same_rank_sets_allowed": "No: each set of one lay-down is of a number of its own",
    },
}
# Words only a standard deck's cards mean, which no Phase 10 rules page says.
STANDARD_WORDS = ("Q-K-A-2", "J-Q-K-A", "K-Q-J-10", "A♥", "aces", "an ace", "Jokers only")


def _plural(count: int, one: str, more: str) -> str:
    return (one if count == 1 else more).replace("%d", str(count))


def _yes_no(value: bool, yes: str, no: str) -> str:
    return yes if value else no


def expected(rules: RuleSet) -> dict[str, str]:
    """The sentence each of the newer options says on the page, as the spec's words put it."""
    bonus = rules.down_and_out_bonus
    return {
        "min_players": _plural(rules.min_players, "At least %d player", "At least %d players"),
        "max_players": "No limit on players"
        if rules.max_players is None
        else _plural(rules.max_players, "At most %d player", "At most %d players"),
        "down_and_out_bonus": "No bonus for making the contract and going out on the same turn"
        if bonus == 0
        else _plural(
            abs(bonus),
            "Making the contract and going out on the same turn "
            + ("takes %d point off" if bonus < 0 else "adds %d point"),
            "Making the contract and going out on the same turn "
            + ("takes %d points off" if bonus < 0 else "adds %d points"),
        ),
        "wilds_at_most_naturals": _yes_no(
            rules.wilds_at_most_naturals,
            "Yes: a meld never holds more wild cards than real ones (8-8-*-* yes, 8-*-* no)",
            "No: a meld may hold more wild cards than real ones (8-*-*)",
        ),
        "max_wilds_per_meld": "No limit: a meld holds as many wild cards as its other rules allow"
        if rules.max_wilds_per_meld is None
        else _plural(
            rules.max_wilds_per_meld,
            "At most %d wild card in one meld as it goes down",
            "At most %d wild cards in one meld as it goes down",
        ),
        "max_wilds_per_laydown": "No limit on the wild cards in all the melds of one contract"
        if rules.max_wilds_per_laydown is None
        else _plural(
            rules.max_wilds_per_laydown,
            "At most %d wild card in all the melds of one contract",
            "At most %d wild cards in all the melds of one contract",
        ),
        "wild_limits_on_layoff": _yes_no(
            rules.wild_limits_on_layoff,
            "Yes: the limits on wild cards above hold on a meld that grows by laying off too",
            "No: the limits on wild cards above hold only as a meld goes down, not on one that "
            "grows by laying off",
        ),
        "runs_may_wrap": _yes_no(
            rules.runs_may_wrap,
            "Yes: a run may turn the corner (Q-K-A-2), the ace between the king and the 2; each "
            "rank once, so 13 cards at most",
            "No: a run never turns the corner (Q-K-A-2 is no run)",
        ),
        "same_suit_runs_may_continue": _yes_no(
            rules.same_suit_runs_may_continue,
            "Yes: two runs of one suit in one lay-down may continue each other (K-Q-J-10 and "
            "9-8-7-6)",
            "No: two runs of one suit in one lay-down must not continue each other (K-Q-J-10 "
            "and 8-7-6-5, yes; K-Q-J-10 and 9-8-7-6, no)",
        ),
        "extra_melds": _yes_no(
            rules.extra_melds,
            "Yes: a lay-down may hold more melds than the contract asks",
            "No: a lay-down holds exactly the melds the contract asks for (each may be longer)",
        ),
        "exact_meld_sizes": _yes_no(
            rules.exact_meld_sizes,
            "Yes: a contract's melds go down exactly as long as asked (a contract laid down "
            "while going out excepted)",
            "No: a contract's melds may go down longer than asked",
        ),
        "same_rank_sets_allowed": _yes_no(
            rules.same_rank_sets_allowed,
            "Yes: one lay-down may hold two sets of one rank",
            "No: each set of one lay-down is of a rank of its own",
        ),
        "discard_after_contract": _yes_no(
            rules.discard_after_contract,
            'Yes: a player whose contract is made may still take the discard, on their turn or '
            'by "May I"',
            'No: once your contract is made you take no more discards, neither on your turn nor '
            'by "May I"',
        ),
    } | (
        {"liberation_before_contract": "Yes: a player whose contract is not made may liberate "
         "a wild card too"}
        if rules.liberation_before_contract == "yes"
        else {}
    )  # fmt: skip


def _expected(rules: RuleSet) -> dict[str, str]:
    """``expected``, of the options the rule set's deck means, with the rank's words only
    where the deck has ranks, and a phase's and hitting's where the deck's games say them
    (Phase 10's, for contract and laying off)."""
    said = expected(rules)
    if not rules.deck.ace:
        said = {
            k: v for k, v in said.items() if k not in ("runs_may_wrap", "same_rank_sets_allowed")
        }
    if rules.deck.wording.phases:
        said = {
            k: v.replace("contract", "phase").replace("laying off", "hitting")
            for k, v in said.items()
        }
    return {key: value for key, value in said.items() if applies(key, rules.deck)}


def rule_values(page: str) -> dict[str, str]:
    """Each option's value on the rules page, by the option's key, as a person reads it."""
    found = re.findall(
        r'<div class="rule" id="(\w+)">.*?<p class="rule-value">(.*?)</p>', page, re.S
    )
    return {
        key: re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", value))).strip()
        for key, value in found
    }


def _house_rules(app: Flask, name: str, options: dict[str, Any]) -> str:
    with app.test_request_context(), scope.household(family_id(app)):
        slug = house_rules.save(name, options).slug
        db.session.commit()
    return slug


def _pages(app: Flask, client: FlaskClient) -> list[tuple[RuleSet, str]]:
    ruled = [(get_ruleset(slug), slug) for slug in PRESETS]
    for name, options in (
        ("Every option on", EVERY_OPTION_ON),
        ("Every one off", EVERY_OPTION_OFF),
        ("Phase 10 the other way", PHASE_10_OTHER_WAY),
    ):
        ruled.append((get_ruleset(options), _house_rules(app, name, options)))
    return ruled


def test_the_house_rules_turn_every_option_both_ways() -> None:
    on, off = get_ruleset(EVERY_OPTION_ON), get_ruleset(EVERY_OPTION_OFF)
    for key in BOOLS:
        assert getattr(on, key) is True and getattr(off, key) is False, key
    assert on.max_wilds_per_meld and off.max_wilds_per_meld is None
    assert on.down_and_out_bonus > 0 > off.down_and_out_bonus


def test_every_option_is_a_sentence_in_english_and_spanish(app: Flask, client: FlaskClient) -> None:
    for rules, slug in _pages(app, client):
        keys = [key for key in OPTION_KEYS if key not in TABLES and applies(key, rules.deck)]
        english = rule_values(client.get(f"/rules/{slug}").get_data(as_text=True))
        spanish = rule_values(client.get(f"/rules/{slug}", headers=SPANISH).get_data(as_text=True))
        for said in (english, spanish):
            assert set(keys) <= set(said), (slug, set(keys) - set(said))
            for key in keys:
                value = said[key]
                assert value.lower() not in BARE and not re.fullmatch(r"[-−]?\d+", value), (
                    slug,
                    key,
                    value,
                )
        # Only the options the deck means (a Phase 10 deck has no aces, suits or wild ranks;
        # only it has Skips).
        hidden = [key for key in OPTION_KEYS if key not in TABLES and key not in keys]
        assert not set(hidden) & set(english), (slug, set(hidden) & set(english))
        for key, sentence in (_expected(rules) | PHASE_10_SENTENCES.get(slug, {})).items():
            assert english[key] == sentence, (slug, key)
        if not rules.deck.ace:
            page = " ".join(english.values())
            assert not [word for word in STANDARD_WORDS if word in page], slug
        for key in keys:
            assert spanish[key] != english[key], (slug, key, english[key])
