"""A ``sys.displayhook`` for the plain ``python3`` REPL: a result with an
HTML, Markdown, SVG or image representation (a pandas DataFrame, an
``HTML()``...) is shown as such; anything else is printed as before.

``import domterm.repl`` installs it, only when standard output is a domterm
terminal; ``PYTHONSTARTUP=$(domterm python-path)/domterm/startup.py`` does
that in every interactive session (docs/python.md).
"""

import builtins
import sys

from . import _display, _term

_previous = sys.displayhook


def displayhook(value):
    """Show ``value`` richly when it can be, else hand it to the hook that
    was there before."""
    if value is None:
        return
    seq = None
    if not isinstance(value, (str, bytes, bytearray)):
        found = _display.rich_data(value)
        if found is not None:
            seq = _display.rich_bytes(*found)
    if seq is None:
        _previous(value)
        return
    builtins._ = None  # as the default hook: not kept alive by `_` meanwhile
    _term.write(seq, sys.stdout)
    builtins._ = value


def install():
    """Make :func:`displayhook` the REPL's; returns whether it did (only in
    domterm)."""
    global _previous
    if not _term.is_domterm(sys.stdout):
        return False
    if sys.displayhook is not displayhook:
        _previous = sys.displayhook
        sys.displayhook = displayhook
    return True


def uninstall():
    """Put the previous display hook back."""
    if sys.displayhook is displayhook:
        sys.displayhook = _previous


install()
