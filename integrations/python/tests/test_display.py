import base64
import io
import os
import unittest

from ptycase import PtyCase

import domterm
from domterm import _term

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwAE"
    "AQH/1Ck2ZwAAAABJRU5ErkJggg==")


def image_seq(data, name, extra=""):
    return (b"\x1b]1337;File=name=" + base64.b64encode(name.encode()) +
            b";inline=1;size=" + str(len(data)).encode() + extra.encode() +
            b":" + base64.b64encode(data) + b"\x07")


class Table(object):
    def _repr_html_(self):
        return "<table><tr><td>1</td></tr></table>"

    def __repr__(self):
        return "Table(1)"


class Bundle(object):
    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": "bundle", "image/png":
                base64.b64encode(PNG).decode("ascii")}


class Broken(object):
    def _repr_html_(self):
        raise RuntimeError("no")

    def _repr_svg_(self):
        return "<svg></svg>"


class Nothing(object):
    def _repr_html_(self):
        return None  # as pandas with notebook_repr_html off

    def __repr__(self):
        return "Nothing()"


class DisplayTest(PtyCase):
    def test_html_is_an_osc72_block(self):
        domterm.display(domterm.HTML("<b>bold</b>"), file=self.out)
        self.assertEqual(
            self.written(),
            b'\x1b]72;<div class="domterm-display"><b>bold</b></div>\x07')

    def test_style_elements_are_left_out(self):
        domterm.display(domterm.HTML(
            "<div><style scoped>\n.x { color: red }\n</style><p>t</p></div>"),
            file=self.out)
        self.assertEqual(
            self.written(),
            b'\x1b]72;<div class="domterm-display"><div><p>t</p></div></div>'
            b"\x07")

    def test_repr_html_object(self):
        domterm.display(Table(), file=self.out)
        self.assertEqual(
            self.written(),
            b'\x1b]72;<div class="domterm-display"><table><tr><td>1</td>'
            b"</tr></table></div>\x07")

    def test_line_breaks_survive_the_osc_string(self):
        domterm.display(
            domterm.HTML('<pre\nclass="x">a\n\tb\r\n</pre>\x1b\x07\x9c'),
            file=self.out)
        self.assertEqual(
            self.written(),
            b'\x1b]72;<div class="domterm-display"><pre class="x">'
            b"a&#10;&#9;b&#10;</pre></div>\x07")

    def test_svg_is_an_image(self):
        svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'
        domterm.display(domterm.SVG(svg), file=self.out)
        self.assertEqual(self.written(), image_seq(svg.encode(), "image.svg"))

    def test_png_bytes_and_image(self):
        domterm.display(PNG, file=self.out)
        self.assertEqual(self.written(), image_seq(PNG, "image.png"))
        domterm.display(domterm.Image(PNG, width=20), file=self.out)
        self.assertEqual(self.written(),
                         image_seq(PNG, "image.png", ";width=20px"))
        domterm.display(domterm.Image(PNG, width="50%"), file=self.out)
        self.assertEqual(self.written(),
                         image_seq(PNG, "image.png", ";width=50%"))

    def test_mimebundle_base64_png(self):
        domterm.display(Bundle(), file=self.out)
        self.assertEqual(self.written(), image_seq(PNG, "image.png"))

    def test_a_failing_method_falls_through(self):
        domterm.display(Broken(), file=self.out)
        self.assertEqual(self.written(), image_seq(b"<svg></svg>", "image.svg"))

    def test_markdown_subset(self):
        domterm.display(domterm.Markdown(
            "# Title\n\nSome *it* and **bold** `x<y`\n\n- one\n- two\n\n"
            "```\ncode <b>\n```\n[a](https://e.org) <script>"),
            file=self.out)
        self.assertEqual(
            self.written().decode(),
            '\x1b]72;<div class="domterm-display"><h1>Title</h1>'
            "<p>Some <em>it</em> and <strong>bold</strong> "
            "<code>x&lt;y</code></p><ul><li>one</li><li>two</li></ul>"
            "<pre><code>code &lt;b&gt;</code></pre>"
            '<p><a href="https://e.org">a</a> &lt;script&gt;</p></div>\x07')

    def test_text_for_the_rest(self):
        domterm.display("plain", 42, Nothing(), file=self.out)
        self.assertEqual(self.written(), b"plain\n42\nNothing()\n")

    def test_too_large_html_is_text(self):
        big = domterm.HTML("<p>" + "x" * (1024 * 1024) + "</p>")
        domterm.display(big, file=self.out)
        self.assertEqual(self.written(), b"x" * (1024 * 1024) + b"\n")

    def test_replace(self):
        self.assertTrue(domterm.replace("k1", "<i>new\nline</i>", self.out))
        self.assertEqual(self.written(),
                         b"\x1b]721;k1;<i>new&#10;line</i>\x07")
        domterm.replace("k2", domterm.HTML("<b>h</b>"), self.out)
        self.assertEqual(self.written(), b"\x1b]721;k2;<b>h</b>\x07")
        for bad in ("", "a;b", "a\x07"):
            with self.assertRaises(ValueError):
                domterm.replace(bad, "x", self.out)


class NotDomtermTest(PtyCase):
    def test_without_domterm_only_text(self):
        del os.environ["DOMTERM"]
        self.assertFalse(domterm.is_domterm(self.out))
        domterm.display(domterm.HTML("<b>b</b>"), Table(), PNG,
                        domterm.SVG("<svg/>"), file=self.out)
        self.assertFalse(domterm.replace("k", "x", self.out))
        self.assertFalse(domterm.enable_events(self.out))
        self.assertEqual(
            self.written(),
            b"b\nTable(1)\n" + repr(PNG).encode() + b"\n<SVG image>\n")

    def test_another_tty_is_not_domterm(self):
        os.environ["DOMTERM"] = "version=1;tty=/dev/null;session#=1"
        self.assertFalse(domterm.is_domterm(self.out))
        domterm.display(domterm.HTML("<b>b</b>"), file=self.out)
        self.assertEqual(self.written(), b"b\n")

    def test_redirected_output_is_not_domterm(self):
        buf = io.StringIO()
        self.assertFalse(domterm.is_domterm(buf))
        domterm.display(domterm.HTML("<b>b</b>"), file=buf)
        self.assertEqual(buf.getvalue(), "b\n")
        self.assertEqual(self.written(), b"")

    def test_tty_field_may_be_absent(self):
        os.environ["DOMTERM"] = "version=1"
        self.assertTrue(_term.is_domterm(self.out))

    def test_import_prints_nothing_and_hooks_nothing(self):
        import subprocess
        import sys
        env = dict(os.environ)
        env.pop("DOMTERM", None)
        env["PYTHONPATH"] = os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))
        code = ("import sys; h = sys.displayhook; import domterm, "
                "domterm.repl, domterm.ipython; "
                "print(sys.displayhook is h)")
        out = subprocess.run([sys.executable, "-c", code], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual((out.stdout, out.stderr), (b"True\n", b""))


if __name__ == "__main__":
    unittest.main()
