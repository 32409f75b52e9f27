import base64
import os
import re
import struct
import unittest

from ptycase import PtyCase

import matplotlib
matplotlib.use("module://domterm.matplotlib_backend")
import matplotlib.pyplot as plt  # noqa: E402

from domterm import matplotlib_backend  # noqa: E402

IMAGE = re.compile(rb"\x1b\]1337;File=([^:]*):([A-Za-z0-9+/=]*)\x07\Z")


def image(written):
    """The File= arguments and the decoded bytes of one iTerm2 image."""
    m = IMAGE.match(written)
    if not m:
        raise AssertionError("not one image: %r" % written[:200])
    args = dict(a.split("=", 1) for a in m.group(1).decode().split(";"))
    return args, base64.b64decode(m.group(2))


class BackendTest(PtyCase):
    def setUp(self):
        PtyCase.setUp(self)
        self.saved = os.environ.pop("DOMTERM_MPL_FORMAT", None)
        import sys
        self.stdout = sys.stdout
        sys.stdout = self.out

    def tearDown(self):
        import sys
        sys.stdout = self.stdout
        matplotlib_backend.FORMAT = None
        matplotlib_backend.SCALE = None
        if self.saved is not None:
            os.environ["DOMTERM_MPL_FORMAT"] = self.saved
        PtyCase.tearDown(self)

    def test_show_draws_a_png_at_twice_the_dpi(self):
        plt.plot([1, 2, 3])
        plt.show()
        args, data = image(self.written())
        self.assertEqual(args["inline"], "1")
        self.assertEqual(args["width"], "640px")
        self.assertEqual(int(args["size"]), len(data))
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
        self.assertEqual(struct.unpack(">II", data[16:24]), (1280, 960))
        self.assertEqual(plt.get_fignums(), [])  # shown figures are closed

    def test_svg_and_scale_settings(self):
        os.environ["DOMTERM_MPL_FORMAT"] = "svg"
        fig = plt.figure(figsize=(4, 3))
        fig.add_subplot().plot([3, 1, 2])
        fig.show()
        args, data = image(self.written())
        self.assertEqual(args["width"], "400px")
        self.assertIn(b"<svg", data[:1000])
        matplotlib_backend.FORMAT = "png"
        matplotlib_backend.SCALE = 1
        plt.show()
        args, data = image(self.written())
        self.assertEqual(struct.unpack(">II", data[16:24]), (400, 300))

    def test_outside_domterm_show_prints_the_figure(self):
        del os.environ["DOMTERM"]
        plt.plot([1, 2])
        plt.show()
        self.assertEqual(self.written(), b"<Figure size 640x480 with 1 Axes>\n")


if __name__ == "__main__":
    unittest.main()
