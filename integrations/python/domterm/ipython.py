"""An IPython extension: ``%load_ext domterm.ipython`` (or
``c.InteractiveShellApp.extensions = ["domterm.ipython"]`` in a profile).

In a domterm terminal, results (``Out[N]``) and ``display()`` outputs with a
``text/html``, ``text/markdown``, ``image/svg+xml``, ``image/png`` or
``image/jpeg`` representation are shown inline (the first of these a
bundle has); the rest is printed as text as before. It uses IPython's
terminal ``mime_renderers``. When no matplotlib backend was chosen yet
(``MPLBACKEND`` unset, matplotlib not imported), it chooses
``module://domterm.matplotlib_backend``, so ``plt.show()`` draws inline;
``%matplotlib inline`` works too. Outside domterm it does nothing.
"""

import os
import sys

from . import _display, _term

_MIMES = [mime for mime, _ in _display.RICH_TYPES]
_added_types = []


def _renderer(mime):
    def render(data, metadata):
        metadata = metadata if isinstance(metadata, dict) else {}
        seq = _display.rich_bytes(mime, data, metadata.get("width"),
                                  metadata.get("height"))
        if seq is None:
            print("(%s output too large for domterm)" % mime)
        else:
            _term.write(seq, sys.stdout)
    return render


def load_ipython_extension(ipython):
    """Called by ``%load_ext domterm.ipython``."""
    if not _term.is_domterm(sys.stdout):
        return
    renderers = getattr(ipython, "mime_renderers", None)
    if renderers is None:  # not the terminal IPython (a kernel has its own)
        return
    formatter = ipython.display_formatter
    new = [mime for mime in _MIMES if mime not in formatter.active_types]
    _added_types.extend(new)
    # Assigned, not appended: the trait's observer enables their formatters.
    formatter.active_types = list(formatter.active_types) + new
    # First match wins: ours, in order of preference, before any others.
    others = [(k, v) for k, v in renderers.items() if k not in _MIMES]
    renderers.clear()
    for mime in _MIMES:
        renderers[mime] = _renderer(mime)
    renderers.update(others)
    if "MPLBACKEND" not in os.environ and "matplotlib" not in sys.modules:
        os.environ["MPLBACKEND"] = "module://domterm.matplotlib_backend"


def unload_ipython_extension(ipython):
    """Called by ``%unload_ext domterm.ipython``."""
    renderers = getattr(ipython, "mime_renderers", None) or {}
    for mime in _MIMES:
        renderers.pop(mime, None)
    formatter = ipython.display_formatter
    formatter.active_types = [
        mime for mime in formatter.active_types if mime not in _added_types
    ]
    del _added_types[:]
