"""A matplotlib backend that draws each ``show()`` inline in domterm:
``MPLBACKEND=module://domterm.matplotlib_backend`` (or
``matplotlib.use("module://domterm.matplotlib_backend")``).

``plt.show()`` shows every open figure, then closes them (as in a
notebook); ``fig.show()`` shows one. The format is PNG unless
``DOMTERM_MPL_FORMAT=svg`` (or ``FORMAT = "svg"`` in this module): PNG is
drawn at ``DOMTERM_MPL_SCALE`` (default 2) times the figure's dpi and shown
at the figure's size in CSS pixels (width x dpi), so it is sharp on a HiDPI
screen and costs little for plots with many points; SVG is exact at any
zoom but grows with what is drawn. A figure wider than the window is
scaled down to fit. Outside domterm, ``show()`` prints the figure's
description instead.
"""

import io
import os

from matplotlib._pylab_helpers import Gcf
from matplotlib.backend_bases import FigureManagerBase
from matplotlib.backends.backend_agg import FigureCanvasAgg

from . import _display, _term

#: "png" or "svg"; None: the DOMTERM_MPL_FORMAT variable, else "png".
FORMAT = None
#: PNG pixels per CSS pixel; None: the DOMTERM_MPL_SCALE variable, else 2.
SCALE = None


def _format():
    value = (FORMAT or os.environ.get("DOMTERM_MPL_FORMAT") or "png").lower()
    return "svg" if value == "svg" else "png"


def _scale():
    value = SCALE if SCALE is not None else os.environ.get("DOMTERM_MPL_SCALE")
    try:
        scale = float(value) if value is not None else 2.0
    except ValueError:
        scale = 2.0
    return min(max(scale, 0.25), 8.0)


def figure_bytes(figure):
    """The escape sequence that shows ``figure``, or None when too large."""
    width = int(round(figure.get_figwidth() * figure.dpi))
    buf = io.BytesIO()
    if _format() == "svg":
        figure.savefig(buf, format="svg")
        return _display.rich_bytes("image/svg+xml", buf.getvalue(), width)
    figure.savefig(buf, format="png", dpi=figure.dpi * _scale())
    return _display.rich_bytes("image/png", buf.getvalue(), width)


def show_figure(figure):
    """Show ``figure`` inline (or print what it is, outside domterm)."""
    seq = figure_bytes(figure) if _term.is_domterm() else None
    if seq is None:
        print(repr(figure))
    else:
        _term.write(seq)


class FigureManager(FigureManagerBase):
    """``fig.show()`` draws the figure inline."""

    def show(self):
        show_figure(self.canvas.figure)


class FigureCanvas(FigureCanvasAgg):
    manager_class = FigureManager


def show(*args, **kwargs):
    """``plt.show()``: every open figure inline, then closed."""
    try:
        for manager in Gcf.get_all_fig_managers():
            show_figure(manager.canvas.figure)
    finally:
        Gcf.destroy_all()
