"""A module documented by autodoc and autodoc2 in the compatibility book."""


def add(first: int, second: int) -> int:
    """Add two numbers.

    :param first: the first number
    :param second: the second number
    :returns: their sum

    .. versionadded:: 1.2
    """
    return first + second
