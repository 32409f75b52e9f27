"""Where output goes and the escape sequences that carry it.

Rich output is written only to a stream that is a terminal and that terminal
is domterm: ``DOMTERM`` is set in the environment, and the ``tty=`` it names
is the stream's own terminal. Inside tmux or screen, over ssh, or with the
output redirected, the check fails and callers print text instead.
"""

import base64
import os
import re
import sys

#: Longest HTML fragment domterm keeps (UTF-16 code units, docs/html-output.md).
MAX_HTML = 1024 * 1024
#: Largest image domterm decodes (bytes, OSC 1337 ``File=``).
MAX_IMAGE = 6 * 1024 * 1024  # its base64 must also fit the 8 MiB OSC cap
#: replace-key values: what can sit between the semicolons of OSC 721.
_KEY = re.compile(r"[^;\x00-\x1f\x7f-\x9f]{1,256}\Z")
#: A tag, or the text between tags.
_TAG = re.compile(r"<[A-Za-z/!?][^>]*>?")
#: Characters an OSC string cannot carry: C0 controls (BEL and ESC end it,
#: CAN and SUB abort it, the others are dropped), DEL and the C1 controls.
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_TEXT_CHARS = {"\n": "&#10;", "\t": "&#9;"}


def domterm_tty():
    """The tty named by ``DOMTERM`` ("" when it names none), or None when
    the variable is not set."""
    value = os.environ.get("DOMTERM")
    if value is None:
        return None
    for field in value.split(";"):
        name, _, tty = field.partition("=")
        if name == "tty":
            return tty
    return ""


def is_domterm(file=None):
    """Whether ``file`` (default ``sys.stdout``) is a domterm terminal."""
    tty = domterm_tty()
    if tty is None:
        return False
    file = sys.stdout if file is None else file
    try:
        fd = file.fileno()
        if not os.isatty(fd):
            return False
        if tty and os.path.realpath(os.ttyname(fd)) != os.path.realpath(tty):
            return False
    except (AttributeError, OSError, ValueError):
        return False
    return True


def _clean_piece(piece):
    if piece.startswith("<"):
        # Inside a tag a line break is only a space between attributes.
        return _CONTROLS.sub(
            lambda m: " " if m.group() in "\n\t" else "", piece)
    return _CONTROLS.sub(lambda m: _TEXT_CHARS.get(m.group(), ""), piece)


def clean_html(html):
    """``html`` without the characters an OSC string cannot carry: line
    breaks and tabs in text become character references (kept in ``<pre>``),
    in tags spaces; other controls go."""
    html = html.replace("\r\n", "\n")
    if not _CONTROLS.search(html):
        return html
    out = []
    pos = 0
    for m in _TAG.finditer(html):
        out.append(_clean_piece(html[pos:m.start()]))
        out.append(_clean_piece(m.group()))
        pos = m.end()
    out.append(_clean_piece(html[pos:]))
    return "".join(out)


def html_fits(html):
    """Whether domterm keeps a fragment this long (UTF-16 code units)."""
    return len(html) <= MAX_HTML and len(html.encode("utf-16-le")) <= 2 * MAX_HTML


def osc72(html):
    """``OSC 72 ; html BEL``: insert an HTML fragment (already cleaned)."""
    return b"\x1b]72;" + html.encode("utf-8", "replace") + b"\x07"


def check_key(key):
    """``key`` if it can be a replace-key, else ValueError."""
    key = str(key)
    if not _KEY.match(key):
        raise ValueError(
            "a replace-key has 1 to 256 characters, no ';' and no controls: %r"
            % key)
    return key


def osc721(key, html):
    """``OSC 721 ; key ; html BEL``: replace the children of the element
    with ``replace-key="key"`` (``html`` already cleaned)."""
    return (b"\x1b]721;" + check_key(key).encode("utf-8") + b";" +
            html.encode("utf-8", "replace") + b"\x07")


def osc1337_image(data, name=None, width=None, height=None):
    """iTerm2's ``OSC 1337 ; File=...inline=1 : base64 BEL``: an image,
    whose type domterm tells from the bytes. ``width``/``height``: ``N``
    cells, ``Npx``, ``N%`` or ``auto``."""
    args = ["inline=1", "size=%d" % len(data)]
    if name:
        args.insert(0, "name=" +
                    base64.b64encode(name.encode("utf-8")).decode("ascii"))
    for key, value in (("width", width), ("height", height)):
        if value is not None:
            value = str(value)
            if not re.match(r"(\d+(\.\d+)?(px|%)?|auto)\Z", value):
                raise ValueError("bad image %s: %r" % (key, value))
            args.append("%s=%s" % (key, value))
    return (b"\x1b]1337;File=" + ";".join(args).encode("ascii") + b":" +
            base64.b64encode(bytes(data)) + b"\x07")


def write(data, file=None):
    """Write the bytes ``data`` to ``file`` (default ``sys.stdout``) at once,
    after what was printed to it before."""
    file = sys.stdout if file is None else file
    file.flush()
    buffer = getattr(file, "buffer", None)
    if buffer is not None:
        buffer.write(data)
        buffer.flush()
    else:
        file.write(data.decode("utf-8", "replace"))
        file.flush()
