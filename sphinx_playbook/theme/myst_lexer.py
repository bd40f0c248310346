"""A Pygments lexer for MyST Markdown source, under the name ``myst``.

Pygments' Markdown lexer does not know MyST: a fence such as ```` ```{aside} ````
leaves the whole block unhighlighted, and the code inside ```` ```{code-block} c ````
is read as Markdown, so ``float *a, float *b`` turns italic. This lexer reads a
fence's directive name, arguments and ``:option:`` lines, lexes a code directive's
body with the lexer of its language and any other directive's body as MyST again,
and knows ``{role}`content``` and ``$math$``. Emphasis needs flanking markers
as in CommonMark, so a ``*`` before a space never opens it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, ClassVar

from pygments.lexer import Lexer, RegexLexer, bygroups
from pygments.lexers import get_lexer_by_name
from pygments.token import (
    Comment,
    Generic,
    Keyword,
    Name,
    Punctuation,
    String,
    Text,
)
from pygments.util import ClassNotFound

#: Directives whose body is code in the language their argument names.
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "code-cell", "literalinclude"})
#: Directives whose body is neither MyST nor code (shown as a string).
_VERBATIM_DIRECTIVES = frozenset({"math", "raw", "csv-table", "mermaid", "graphviz"})
_OPTION = re.compile(r"([ \t]*)(:[\w-]+:)([^\n]*\n?)")

#: Pygments' token types have no public class name; each is a tuple of its path's names.
TokenStream = Iterator[tuple[int, tuple[str, ...], str]]


def _body_lexer(name: str, argument: str, options: dict[str, Any]) -> Lexer | None:
    """The lexer for a fence's body: a code directive's language, else None (MyST)."""
    language = argument.split()[0] if argument.split() else ""
    if name and name not in _CODE_DIRECTIVES:
        return None
    try:
        return get_lexer_by_name(language or "text", **options)
    except ClassNotFound:
        return get_lexer_by_name("text", **options)


class MystLexer(RegexLexer):
    """MyST Markdown: fenced directives, roles, math and CommonMark inlines."""

    name = "MyST Markdown"
    aliases: ClassVar[list[str]] = ["myst"]
    filenames: ClassVar[list[str]] = []
    flags = re.MULTILINE

    def _fence(self, match: re.Match[str]) -> TokenStream:
        fence, name, argument, body = match.group("fence", "name", "arg", "body")
        closing = match.group("close")
        start = match.start()
        yield start, String.Backtick, fence
        position = start + len(fence)
        if name:
            yield position, Name.Tag, "{" + name + "}"
            position += len(name) + 2
        if argument:
            yield position, Name.Label if name else Name.Attribute, argument
            position += len(argument)
        yield position, Text, "\n"
        position += 1
        if name:
            # Options: ":key: value" lines, or a YAML block between "---" lines.
            while True:
                option = _OPTION.match(body)
                if not option:
                    break
                indent, key, value = option.groups()
                yield position, Text, indent
                yield position + len(indent), Name.Attribute, key
                yield position + len(indent) + len(key), String, value
                position += option.end()
                body = body[option.end() :]
        if name in _VERBATIM_DIRECTIVES:
            yield position, String, body
        else:
            lexer = _body_lexer(name or "", argument, self.options)
            tokens = (
                lexer.get_tokens_unprocessed(body)
                if lexer is not None
                else self.get_tokens_unprocessed(body)
            )
            for offset, token, value in tokens:
                yield position + offset, token, value
        position += len(body)
        yield position, String.Backtick, closing

    tokens: ClassVar[dict[str, Any]] = {
        "root": [
            # A fence: ```{name} argument (or :::{name}), its body, the same fence closing it.
            (
                r"(?P<fence>^[ \t]*(?P<marks>`{3,}|~{3,}|:{3,}(?=\{)))"
                r"(?:\{(?P<name>[\w:.-]+)\})?(?P<arg>[^\n]*)\n"
                r"(?P<body>(?:.*\n)*?)(?P<close>[ \t]*(?P=marks)[ \t]*$)",
                _fence,
            ),
            (r"^(\s*)(%[^\n]*\n)", bygroups(Text, Comment.Single)),
            (r"^(\s*)(\(\S+\)=)(\s*\n)", bygroups(Text, Name.Label, Text)),
            (r"^(#{1,6})([ \t][^\n]*\n)", bygroups(Generic.Heading, Generic.Heading)),
            (r"^(\s*)([*+-]|\d+[.)])(\s)", bygroups(Text, Keyword, Text)),
            (r"^(\s*)(>)", bygroups(Text, Keyword)),
            (r"^(---+|\*\*\*+)(\s*\n)", bygroups(Keyword, Text)),
            (
                r"(\{[\w:.-]+\})(`+)(.*?)(\2)",
                bygroups(Name.Function, String.Backtick, String, String.Backtick),
            ),
            (r"(`+)(.*?)(\1)", String.Backtick),
            (r"\$\$[^$]+\$\$|(?<![\w$])\$(?=\S)[^$\n]*?(?<=\S)\$(?![\w$])", String),
            (
                r"(!?\[)([^\]\n]*)(\]\()([^)\n]*)(\))",
                bygroups(Punctuation, Name.Tag, Punctuation, Name.Attribute, Punctuation),
            ),
            (r"(?<![\w*])\*\*(?=\S)[^*\n]*?(?<=\S)\*\*(?![\w*])", Generic.Strong),
            (r"(?<![\w_])__(?=\S)[^_\n]*?(?<=\S)__(?![\w_])", Generic.Strong),
            (r"(?<![\w*])\*(?=[^\s*])[^*\n]*?(?<=[^\s*])\*(?![\w*])", Generic.Emph),
            (r"(?<![\w_])_(?=[^\s_])[^_\n]*?(?<=[^\s_])_(?![\w_])", Generic.Emph),
            (r"[^`$*_\[!{\n%(#>]+", Text),
            (r".", Text),
            (r"\n", Text),
        ]
    }


def setup_lexer(app: Any) -> None:
    """Register the lexer with Sphinx (``app.add_lexer``), as ``myst``."""
    app.add_lexer("myst", MystLexer)
