"""``display()`` and ``replace()``: an object's richest representation that
domterm shows, else its text.

What is shown, in this order (Jupyter's): ``text/html``, ``text/markdown``
(a small subset, see ``_markdown``), ``image/svg+xml``, ``image/png``,
``image/jpeg``, from ``_repr_mimebundle_`` or the ``_repr_*_`` methods. HTML
goes out as ``OSC 72`` (wrapped in a ``<div class="domterm-display">``, so it
is a block of its own; ``<style>`` elements left out), images as iTerm2 ``OSC 1337 ; File=``.
"""

import base64
import html as _html
import re
import sys
from html.parser import HTMLParser

from . import _markdown, _term

#: (MIME type, IPython display method), in the order they are preferred.
RICH_TYPES = (
    ("text/html", "_repr_html_"),
    ("text/markdown", "_repr_markdown_"),
    ("image/svg+xml", "_repr_svg_"),
    ("image/png", "_repr_png_"),
    ("image/jpeg", "_repr_jpeg_"),
)
#: ``<style>`` elements: domterm's sanitizer removes them (with a notice), so
#: they are left out (pandas puts one before each table).
_STYLE = re.compile(r"<style\b[^>]*>.*?</style\s*>", re.IGNORECASE | re.DOTALL)
_IMAGE_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


class _TextOf(HTMLParser):
    """The text of an HTML fragment (for the plain-text fallback)."""

    def __init__(self):
        HTMLParser.__init__(self, convert_charrefs=True)
        self.parts = []

    def handle_data(self, data):
        self.parts.append(data)


def html_text(fragment):
    """The text of the HTML ``fragment``, tags left out."""
    parser = _TextOf()
    parser.feed(fragment)
    parser.close()
    return "".join(parser.parts).strip()


class HTML(object):
    """An HTML fragment to show as such (domterm sanitizes it)."""

    def __init__(self, data):
        self.data = str(data)

    def _repr_html_(self):
        return self.data

    def __repr__(self):
        return html_text(self.data)


class Markdown(object):
    """Markdown text, shown as HTML (a small subset)."""

    def __init__(self, data):
        self.data = str(data)

    def _repr_markdown_(self):
        return self.data

    def __repr__(self):
        return self.data


class SVG(object):
    """An SVG image (text or UTF-8 bytes), shown as an image."""

    def __init__(self, data):
        if isinstance(data, (bytes, bytearray)):
            data = bytes(data).decode("utf-8")
        self.data = data

    def _repr_svg_(self):
        return self.data

    def __repr__(self):
        return "<SVG image>"


class Image(object):
    """PNG, JPEG or GIF bytes, shown as an image; ``width``/``height`` as
    iTerm2 takes them: ``N`` cells, ``Npx``, ``N%`` or ``auto``."""

    def __init__(self, data, width=None, height=None):
        self.data = bytes(data)
        self.width = width
        self.height = height

    def _repr_png_(self):
        return self.data

    def __repr__(self):
        return "<image, %d bytes>" % len(self.data)


def _unwrap(value):
    # A _repr_*_ method may return (data, metadata).
    if isinstance(value, tuple) and len(value) == 2:
        return value[0]
    return value


def rich_data(obj):
    """The preferred (MIME type, data) of ``obj`` that domterm shows, or
    None. Raw PNG/JPEG/GIF bytes are an image."""
    if isinstance(obj, (bytes, bytearray)):
        for magic, mime in _IMAGE_MAGIC:
            if bytes(obj[:8]).startswith(magic):
                return (mime, bytes(obj))
        return None
    if isinstance(obj, (str, type)):
        return None
    bundle = None
    method = getattr(obj, "_repr_mimebundle_", None)
    if callable(method):
        try:
            bundle = _unwrap(method(include=None, exclude=None))
        except Exception:
            bundle = None
    for mime, name in RICH_TYPES:
        if isinstance(bundle, dict) and bundle.get(mime) is not None:
            return (mime, bundle[mime])
        method = getattr(obj, name, None)
        if not callable(method):
            continue
        try:
            data = _unwrap(method())
        except Exception:
            continue
        if data is not None:
            return (mime, data)
    return None


def _image_bytes(data):
    if isinstance(data, str):  # base64, as in a Jupyter bundle
        return base64.b64decode(data)
    return bytes(data)


def _px(value):
    if value is None:
        return None
    value = str(value)
    return value + "px" if value.isdigit() else value


def rich_bytes(mime, data, width=None, height=None):
    """The escape sequence that shows ``data`` of type ``mime``, or None
    when it is too large for domterm."""
    if mime in ("text/html", "text/markdown"):
        fragment = _STYLE.sub("", data) if mime == "text/html" else \
            _markdown.markdown_to_html(data)
        fragment = _term.clean_html(
            '<div class="domterm-display">%s</div>' % fragment)
        return _term.osc72(fragment) if _term.html_fits(fragment) else None
    if mime == "image/svg+xml":
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        name = "image.svg"
    else:
        raw = _image_bytes(data)
        name = "image." + mime.split("/")[1]
    if len(raw) > _term.MAX_IMAGE:
        return None
    return _term.osc1337_image(raw, name, _px(width), _px(height))


def _text(obj):
    return obj if isinstance(obj, str) else repr(obj)


def display(*objs, file=None):
    """Show each object in domterm as its richest representation (HTML,
    Markdown, SVG, PNG, JPEG), or print its text when it has none, when it
    is too large, or when ``file`` (default ``sys.stdout``) is not a domterm
    terminal. Strings are printed as text: wrap markup in ``HTML()``."""
    out = sys.stdout if file is None else file
    rich = _term.is_domterm(out)
    for obj in objs:
        seq = None
        if rich:
            found = rich_data(obj)
            if found is not None:
                width = getattr(obj, "width", None)
                height = getattr(obj, "height", None)
                if not isinstance(obj, Image):
                    width = height = None
                seq = rich_bytes(found[0], found[1], width, height)
        if seq is not None:
            _term.write(seq, out)
        else:
            print(_text(obj), file=out)
            out.flush()


def replace(key, html, file=None):
    """Replace the children of the element printed earlier with
    ``class="can-replace-children" replace-key="KEY"`` by ``html`` (a string
    or an object with ``_repr_html_``): ``OSC 721``. Returns whether it was
    sent (nothing is sent outside domterm)."""
    out = sys.stdout if file is None else file
    if not _term.is_domterm(out):
        return False
    if not isinstance(html, str):
        html = _unwrap(html._repr_html_())
    fragment = _term.clean_html(html)
    if not _term.html_fits(fragment):
        fragment = "<pre>%s</pre>" % _html.escape(
            "(too large for domterm: %d characters)" % len(fragment))
    _term.write(_term.osc721(key, fragment), out)
    return True
