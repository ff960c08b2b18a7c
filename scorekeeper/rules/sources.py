"""Where a rule comes from (a family's rule document, or the usual default); reasons citing it."""

from __future__ import annotations

from dataclasses import dataclass

from .messages import N_, Message

__all__ = ["DEFAULT", "DOCUMENTS", "HOUSE", "PUBLICATIONS", "Reason", "Source", "published"]


@dataclass(frozen=True, slots=True)
class Source:
    """Where an option's value comes from.

    ``document`` is the seed file name (``"000_0a3037e9499a681d.txt"``), or None
    for a default or a house rule; ``title`` names the document; ``quote`` is the
    document's own words when it has them (they stay in the document's language);
    ``label`` is how a ruling cites it. A published game's source (``published``) names the
    public rule pages it follows in ``publications`` (named, never quoted), its ``document``
    their keys. ``title`` and ``label`` are messages where they are
    the app's words, plain text where they are a game's own name.
    """

    document: str | None
    title: str
    is_default: bool = False
    quote: str | None = None
    label: str = ""
    publications: tuple[str, ...] = ()

    def quoting(self, quote: str | None) -> Source:
        """The same source, quoting ``quote``."""
        return Source(
            self.document, self.title, self.is_default, quote, self.label, self.publications
        )

    @property
    def citation(self) -> str:
        """How a ruling cites the source: its label, else its title (a message, or a name)."""
        return self.label or self.title

    def __str__(self) -> str:
        return str(self.citation)


def _document(file: str, title: str, label: Message) -> Source:
    # The page names the document by its title alone: its seed file's name means nothing to a
    # family reading the rules (issue 23).
    return Source(document=file, title=title, label=label)


DOCUMENTS: dict[str, Source] = {
    "000": _document(
        "000_0a3037e9499a681d.txt", "12-Step Rummy", N_("%(game)s rules", game="12-Step Rummy")
    ),
    "001": _document(
        "001_ac8a933fe65ad456.txt",
        N_(
            "%(game)s, as learned from friends from Windsor, Nova Scotia",
            game="12-Step Rummy",
        ),
        N_("%(game)s rules", game="12-Step Rummy"),
    ),
    "002": _document(
        "002_eea21be3d0bfd216.txt",
        N_("%(game)s, notes by %(author)s", game="Russian Rummy", author="Wes Jones"),
        N_("%(game)s rules", game="Russian Rummy"),
    ),
    "003": _document(
        "003_cfa6f72bea83714a.txt",
        N_("Rules as written by the %(family)s family", family="Bellevue"),
        N_("%(family)s family rules", family="Bellevue"),
    ),
    "004": _document(
        "004_98b7ce07dd6eaf11.txt",
        N_("%(game)s Rules", game="Contract Rummy"),
        N_("%(game)s rules", game="Contract Rummy"),
    ),
    "dummy": _document(
        "000_0a3037e9499a681d.txt",
        N_("%(game)s, a variant in %(base)s", game="Dummy Rummy", base="12-Step Rummy"),
        N_("%(game)s rules (%(base)s variant)", game="Dummy Rummy", base="12-Step Rummy"),
    ),
}
"""The families' rule documents (``shared/seeds/``) by short key."""

PUBLICATIONS: dict[str, tuple[str, str]] = {
    "wsh": ("Wikipedia, “Shanghai rum”", "Wikipedia"),
    "nash": ("Nashville Web Review, “Rules to Shanghi (Shanghai) Rummy”", "Nashville Web Review"),
    "ede": (
        "edetruth/shanghai-tracker (GitHub), GAME_DESIGN.md, RULES_TEST.md",
        "shanghai-tracker",
    ),
    "pagat": ("pagat.com, “Shanghai”", "pagat.com"),
    "wlv": ("Wikipedia, “Liverpool rummy”", "Wikipedia"),
    "gml": ("gmlewis/godot-liverpool-rummy (GitHub), rules.md", "godot-liverpool-rummy"),
    "probsee": ("probsee.com, “Liverpool Rummy”", "probsee.com"),
    "npr": ("Weekend America (American Public Media), “Liverpool Rummy Rules”", "Weekend America"),
    "cog": ("coololdgames.com, “Liverpool Rummy”", "coololdgames.com"),
    "wmc": ("WikiMili, “Carioca (card game)”", "WikiMili"),
    "seb": (
        "sebherrerabe/carioca (GitHub), rules.md; Wikipedia, “Carioca”",
        "sebherrerabe/carioca",
    ),
    "cap": ("yosoyelfede/Cariocapp2 (GitHub), RoundRule.swift, RulesView.swift", "Cariocapp2"),
    "xan": ("xanimaniax.foroes.org, “Carioca”", "xanimaniax.foroes.org"),
    "pat": ("Patrick's Adventures in Life, “Carioca”", "Patrick's Adventures in Life"),
    "coe": ("continental.org.es; Wikipedia, “Continental (juego)”", "continental.org.es"),
    "aca": ("acanomas.com, “Continental”", "acanomas.com"),
    "sky": ("skylin.es, “Continental”", "skylin.es"),
    "dpop": ("Diario Popular, “El continental”", "Diario Popular"),
    "fdx": ("Fundex Games, Phase 10 instruction sheet (1982, 2002)", "Fundex"),
    "wpe": ("Wikipedia, “Phase 10”", "Wikipedia"),
    "ppl": ("XGDevGroup/PlayPalace11 (GitHub), phase10_rules, evaluator.py", "PlayPalace11"),
    "tsk": ("Tasketo/phase-10-web-companion (GitHub), phase10_rules.md", "phase-10-web-companion"),
    "how": ("howdoyouplayit.com, “Phase 10 Card Game Rules”", "howdoyouplayit.com"),
    "ttp": ("ttpm.com, Mattel's Phase 10 page", "ttpm.com"),
    "fan": ("phase10.fandom.com, “Hitting”, “Going Out”", "phase10.fandom.com"),
    "e2": ("everything2.com, “Phase 10”", "everything2.com"),
    "mir": ("mircic91.com, “How to play Phase 10”", "mircic91.com"),
}
"""The public rule pages the published games (``published.py``) follow, by key: each page's
full name and the short one a ruling cites it by, its own names in every language: names and
punctuation only, no word of a language between them."""


def published(*keys: str, split: bool = False) -> Source:
    """The source of a published game's option: the rule pages ``keys`` name. ``split``: the
    pages disagree, and the ruling says which reading the preset plays."""
    names = tuple(PUBLICATIONS[key][0] for key in keys)
    short = ", ".join(PUBLICATIONS[key][1] for key in keys)
    label: str = (
        N_("sources differ; this preset follows %(sources)s", sources=short) if split else short
    )
    return Source(document=" ".join(keys), title="; ".join(names), label=label, publications=names)


DEFAULT = Source(
    document=None,
    title=N_("The document is silent; this is the default"),
    is_default=True,
    label=N_("your rules don't say; most tables play it this way"),
)
"""The source of an option a preset's document leaves open."""

HOUSE = Source(document=None, title=N_("House rule"), label=N_("your house rules"))
"""The source of an option a family changed."""


class Reason(str):
    """One sentence of a ruling, naming the rule it applies and where that rule comes from.

    It is the sentence itself in English (a ``str``, its source in brackets at the end), with
    ``rule`` (the option key, such as ``"wild_spacing"``), ``source`` and ``message`` attached:
    ``message`` is the sentence as a page shows it, its source left for the page to show
    beneath (``scorekeeper.words`` puts it into the page's language).
    """

    rule: str
    source: Source
    message: Message

    def __new__(
        cls, text: str, rule: str, source: Source, message: Message | None = None
    ) -> Reason:
        reason = super().__new__(cls, text)
        reason.rule = rule
        reason.source = source
        if message is None:
            message = text if isinstance(text, Message) else N_("%(text)s", text=text)
        reason.message = message
        return reason

    def __reduce__(self) -> tuple[type[Reason], tuple[str, str, Source, Message]]:
        return (Reason, (str(self), self.rule, self.source, self.message))

    @property
    def cited(self) -> bool:
        """Whether the English sentence ends with its source in brackets (as ``citing``
        writes it), which a page shows beneath instead."""
        return str(self) == f"{self.message} ({self.source})"

    @classmethod
    def citing(cls, message: Message, rule: str, source: Source) -> Reason:
        """The sentence ``message`` followed by its source in brackets."""
        return cls(f"{message} ({source})", rule, source, message)
