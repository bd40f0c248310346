"""What every playbook directive shares: tolerant options, located warnings, components.

Directives build plain docutils nodes (containers with classes, figures), so
every builder can write them; an HTML-only post-transform (``html.py``) swaps in
the semantic elements. Options are parsed tolerantly: an unknown option or a bad
value becomes a ``playbook`` warning with the directive's subtype, instead of
docutils' untyped error, and the directive still renders with its defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from ..diagnostics import PlaybookWarning, warn

#: Values of ``:layout:`` and of the ``layout`` directive, and their classes.
LAYOUT_CLASSES = {
    "body": "l-body",
    "body-outset": "l-body-outset",
    "page": "l-page",
    "screen": "l-screen",
    "screen-inset": "l-screen-inset",
    "gutter": "l-gutter",
}
ALL_LAYOUT_CLASSES = frozenset(LAYOUT_CLASSES.values()) | {"l-middle", "l-page-outset"}

#: A directive's options and their converters.
OptionSpec = dict[str, Callable[[Any], Any]]

#: Node attribute naming which playbook component a container is.
COMPONENT = "playbook_component"


def component(name: str, classes: list[str] | None = None, **attributes: Any) -> nodes.container:
    """A container that the HTML post-transform will recognise as ``name``."""
    node = nodes.container("", classes=list(classes or []), **attributes)
    node[COMPONENT] = name
    return node


def is_component(node: nodes.Node, name: str) -> bool:
    return isinstance(node, nodes.Element) and node.get(COMPONENT) == name


def find_components(
    root: nodes.Node, *names: str, kind: type[nodes.Element] = nodes.container
) -> dict[str, list[Any]]:
    """The components of each name under ``root``, in document order, in one walk
    (docutils' fast path for a node class, not a predicate per node). ``kind`` is
    the node class the components are made of."""
    found: dict[str, list[Any]] = {name: [] for name in names}
    for node in root.findall(kind):
        name = node.get(COMPONENT)
        if name in found:
            found[name].append(node)
    return found


@dataclass(frozen=True)
class UnknownOption:
    """Stands for an option the directive does not have."""

    name: str


@dataclass(frozen=True)
class InvalidValue:
    """Stands for an option value its converter refused."""

    name: str
    value: Any
    reason: str


class TolerantOptionSpec(dict):
    """An ``option_spec`` that never raises: the directive reports problems itself.

    docutils and MyST both look options up with ``spec[name]``; an unknown name
    gets a converter returning :class:`UnknownOption`, and each known converter
    is wrapped so a ``ValueError`` becomes :class:`InvalidValue`.
    """

    def __init__(self, spec: dict[str, Callable[[Any], Any]]) -> None:
        super().__init__({name: self._wrap(name, conv) for name, conv in spec.items()})

    @staticmethod
    def _wrap(name: str, converter: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def convert(value: Any) -> Any:
            try:
                return converter(value)
            except (ValueError, TypeError) as error:
                return InvalidValue(name, value, str(error) or "invalid value")

        convert.__name__ = getattr(converter, "__name__", name)
        return convert

    def __missing__(self, name: str) -> Callable[[Any], Any]:
        return lambda value: UnknownOption(name)

    def __bool__(self) -> bool:
        # docutils and MyST skip option parsing for an empty spec and take the
        # options as content; a directive without options must still report them.
        return True


def choice(*values: str) -> Callable[[Any], str]:
    """A converter accepting one of ``values`` (case-insensitive)."""

    def convert(argument: Any) -> str:
        text = (argument or "").strip().lower()
        if text not in values:
            raise ValueError(f"expected one of {', '.join(values)}")
        return text

    return convert


class PlaybookDirective(SphinxDirective):
    """Base class: reports bad options at the directive's line and keeps going."""

    subtype: ClassVar[PlaybookWarning]
    spec: ClassVar[OptionSpec] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.option_spec = TolerantOptionSpec(cls.spec)

    def warn(self, message: str) -> None:
        warn(f"{self.name}: {message}", self.subtype, (self.env.docname, self.lineno))

    def valid_options(self) -> dict[str, Any]:
        """The options that parsed; each unknown or invalid one is reported once."""
        good: dict[str, Any] = {}
        for name, value in self.options.items():
            if isinstance(value, UnknownOption):
                known = ", ".join(f":{n}:" for n in sorted(self.spec)) or "none"
                self.warn(f"unknown option :{name}:; the options are {known}")
            elif isinstance(value, InvalidValue):
                self.warn(f"invalid value {value.value!r} for :{name}: ({value.reason}); ignored")
            else:
                good[name] = value
        return good

    def fill(self, node: nodes.Element, options: dict[str, Any]) -> nodes.Element:
        """Give ``node`` its source line, the ``:name:`` target and the parsed content."""
        self.set_source_info(node)
        if "name" in options:
            self.options["name"] = options["name"]
            self.add_name(node)
        self.state.nested_parse(self.content, self.content_offset, node)
        return node

    def require_content(self) -> bool:
        if self.content and any(line.strip() for line in self.content):
            return True
        self.warn("has no content; write the text to show inside the directive")
        return False


#: Option converters shared by several directives.
CLASS_OPTION = directives.class_option
NAME_OPTION = directives.unchanged


class ContentDirective(PlaybookDirective):
    """A directive whose content goes into one marked container, with :class: and :name:."""

    component_name: ClassVar[str]
    css_class: ClassVar[str]
    has_content = True
    spec: ClassVar[OptionSpec] = {"class": CLASS_OPTION, "name": NAME_OPTION}

    def run(self) -> list[nodes.Node]:
        options = self.valid_options()
        if not self.require_content():
            return []
        node = component(self.component_name, [self.css_class, *options.get("class", [])])
        self.fill(node, options)
        self.check(node)
        return [node]

    def check(self, node: nodes.Element) -> None:
        """Warn about what the parsed content should not contain."""
