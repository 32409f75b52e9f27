"""A small Markdown subset as HTML, for ``_repr_markdown_``: ATX headings,
fenced code, bullet and numbered lists, block quotes, paragraphs, and inline
code, bold, italic and links. Everything else stays text; all text is
escaped, so no markup comes through from the source.
"""

import html
import re

_INLINE = re.compile(
    r"`([^`]+)`"  # code
    r"|\*\*(.+?)\*\*|__(.+?)__"  # bold
    r"|\*([^*\s][^*]*)\*|\b_([^_\s][^_]*)_\b"  # italic
    r"|\[([^\]]+)\]\(([^)\s]+)\)"  # link
)


def _inline(text):
    out = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        code, b1, b2, i1, i2, label, url = m.groups()
        if code is not None:
            out.append("<code>%s</code>" % html.escape(code))
        elif b1 is not None or b2 is not None:
            out.append("<strong>%s</strong>" % _inline(b1 or b2))
        elif i1 is not None or i2 is not None:
            out.append("<em>%s</em>" % _inline(i1 or i2))
        else:
            out.append('<a href="%s">%s</a>' %
                       (html.escape(url, quote=True), _inline(label)))
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


_HEADING = re.compile(r"(#{1,6})\s+(.*?)\s*#*\s*\Z")
_BULLET = re.compile(r"\s{0,3}[-*+]\s+(.*)\Z")
_NUMBER = re.compile(r"\s{0,3}\d{1,9}[.)]\s+(.*)\Z")


def _list_block(lines, i, pattern, tag):
    items = []
    while i < len(lines):
        m = pattern.match(lines[i])
        if m:
            items.append(m.group(1))
        elif lines[i].startswith("  ") and items and lines[i].strip():
            items[-1] += " " + lines[i].strip()
        else:
            break
        i += 1
    body = "".join("<li>%s</li>" % _inline(item) for item in items)
    return "<%s>%s</%s>" % (tag, body, tag), i


def markdown_to_html(text):
    """The HTML of the Markdown ``text`` (the subset in the module doc)."""
    lines = text.replace("\r\n", "\n").split("\n")
    out = []
    para = []

    def flush():
        if para:
            out.append("<p>%s</p>" % _inline(" ".join(para)))
            del para[:]

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            out.append("<pre><code>%s</code></pre>" %
                       html.escape("\n".join(lines[i + 1:j])))
            i = j + 1
            continue
        heading = _HEADING.match(stripped)
        if heading:
            flush()
            level = len(heading.group(1))
            out.append("<h%d>%s</h%d>" %
                       (level, _inline(heading.group(2)), level))
        elif _BULLET.match(line) or _NUMBER.match(line):
            flush()
            if _BULLET.match(line):
                block, i = _list_block(lines, i, _BULLET, "ul")
            else:
                block, i = _list_block(lines, i, _NUMBER, "ol")
            out.append(block)
            continue
        elif stripped.startswith(">"):
            flush()
            quoted = []
            while i < len(lines) and lines[i].strip().startswith(">"):
                quoted.append(lines[i].strip()[1:].lstrip())
                i += 1
            out.append("<blockquote>%s</blockquote>" %
                       markdown_to_html("\n".join(quoted)))
            continue
        elif not stripped:
            flush()
        else:
            para.append(stripped)
        i += 1
    flush()
    return "".join(out)
