"""The one exception the command turns into a one-line message and an exit code."""

from __future__ import annotations


class CliError(Exception):
    """A problem the user can fix; printed as one line on stderr, never a traceback.

    ``exit_code`` is 2 for bad input (a wrong SOURCE, an OUT that exists...).
    """

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code
