"""Where a rule comes from (a family's rule document, or the usual default); reasons citing it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT", "DOCUMENTS", "HOUSE", "Reason", "Source"]


@dataclass(frozen=True, slots=True)
class Source:
    """Where an option's value comes from.

    ``document`` is the seed file name (``"000_0a3037e9499a681d.txt"``), or None
    for a default or a house rule; ``title`` names the document; ``quote`` is the
    document's own words when it has them; ``label`` is how a ruling cites it.
    """

    document: str | None
    title: str
    is_default: bool = False
    quote: str | None = None
    label: str = ""

    def quoting(self, quote: str | None) -> Source:
        """The same source, quoting ``quote``."""
        return Source(self.document, self.title, self.is_default, quote, self.label)

    def __str__(self) -> str:
        return self.label or self.title


def _document(file: str, title: str, label: str) -> Source:
    # The page names the document by its title alone: its seed file's name means nothing to a
    # family reading the rules (issue 23).
    return Source(document=file, title=title, label=label)


DOCUMENTS: dict[str, Source] = {
    "000": _document("000_0a3037e9499a681d.txt", "12-Step Rummy", "12-Step Rummy rules"),
    "001": _document(
        "001_ac8a933fe65ad456.txt",
        "12-Step Rummy, as learned from friends from Windsor, Nova Scotia",
        "12-Step Rummy rules",
    ),
    "002": _document(
        "002_eea21be3d0bfd216.txt", "Russian Rummy, notes by Wes Jones", "Russian Rummy rules"
    ),
    "003": _document(
        "003_cfa6f72bea83714a.txt",
        "Rules as written by the Bellevue family",
        "Bellevue family rules",
    ),
    "004": _document("004_98b7ce07dd6eaf11.txt", "Contract Rummy Rules", "Contract Rummy rules"),
    "dummy": _document(
        "000_0a3037e9499a681d.txt",
        "Dummy Rummy, a variant in 12-Step Rummy",
        "Dummy Rummy rules (12-Step Rummy variant)",
    ),
}
"""The families' rule documents (``shared/seeds/``) by short key."""

DEFAULT = Source(
    document=None,
    title="The document is silent; this is the default",
    is_default=True,
    label="your rules don't say; most tables play it this way",
)
"""The source of an option a preset's document leaves open."""

HOUSE = Source(document=None, title="House rule", label="your house rules")
"""The source of an option a family changed."""


class Reason(str):
    """One sentence of a ruling, naming the rule it applies and where that rule comes from.

    It is the sentence itself (a ``str``), with ``rule`` (the option key, such as
    ``"wild_spacing"``) and ``source`` attached.
    """

    rule: str
    source: Source

    def __new__(cls, text: str, rule: str, source: Source) -> Reason:
        reason = super().__new__(cls, text)
        reason.rule = rule
        reason.source = source
        return reason

    def __reduce__(self) -> tuple[type[Reason], tuple[str, str, Source]]:
        return (Reason, (str(self), self.rule, self.source))

    @classmethod
    def citing(cls, text: str, rule: str, source: Source) -> Reason:
        """The sentence ``text`` followed by its source in brackets."""
        return cls(f"{text} ({source})", rule, source)
