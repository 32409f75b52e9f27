"""Rich output for Python programs in domterm: HTML, SVG and images inline,
and events from the elements they print. Standard library only.

Nothing here prints escape sequences unless standard output is a domterm
terminal (``DOMTERM`` is set and names this tty): elsewhere ``display()``
prints text, and the other calls do nothing. See docs/python.md.

    import domterm
    domterm.display(domterm.HTML("<b>bold</b>"))
    domterm.display(dataframe)          # its _repr_html_: a table

Modules: ``domterm.repl`` (a ``sys.displayhook`` for the plain REPL),
``domterm.ipython`` (``%load_ext domterm.ipython``),
``domterm.matplotlib_backend`` (``MPLBACKEND=module://domterm.matplotlib_backend``).
"""

from ._term import is_domterm
from ._display import HTML, SVG, Image, Markdown, display, replace
from ._events import (EventParser, disable_events, enable_events, events,
                      parse_event, parse_event_line)

__all__ = [
    "HTML", "SVG", "Image", "Markdown", "display", "replace", "is_domterm",
    "enable_events", "disable_events", "events", "EventParser",
    "parse_event", "parse_event_line",
]
