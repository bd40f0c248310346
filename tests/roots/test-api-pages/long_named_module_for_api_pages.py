"""A tiny module with long names, as autodoc documents real ones."""

from __future__ import annotations


def render_reference_list_with_every_option_spelled_out(
    entries_in_citation_order: list[dict[str, str]],
    numbering_style_for_the_whole_book: str = "page",
    *,
    include_digital_object_identifiers: bool = True,
    maximum_number_of_authors_before_et_al: int | None = None,
) -> list[str]:
    """Render the reference list.

    :param entries_in_citation_order: The entries, each a mapping of BibTeX fields
        (``author``, ``title``, ``year``...) as pybtex reads them.
    :param numbering_style_for_the_whole_book: ``"page"`` or ``"book"``.
    :param include_digital_object_identifiers: Link each DOI.
    :param maximum_number_of_authors_before_et_al: Authors shown before "et al.".
    :returns: One HTML string per entry.
    :raises ValueError: When an entry has no title.

    .. versionadded:: 1.2
    """
    return []


class CitationRendererWithAVeryLongDescriptiveName:
    """Renders citations.

    .. deprecated:: 2.0
       Use :func:`render_reference_list_with_every_option_spelled_out`.
    """

    def render_one_entry_in_the_distill_appendix_style(self, entry: dict[str, str]) -> str:
        """One entry.

        :param entry: The entry.
        """
        return ""
