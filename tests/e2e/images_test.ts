/**
 * Images end to end: `domterm imgcat` of a PNG, a JPEG, a GIF and an SVG
 * inside a real session (iTerm2 `OSC 1337 ; File=`), a sixel image, sizes
 * in cells, and a download link for inline=0. Each image must show with
 * its natural size.
 */
import { assert, assertEquals } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/**
 * A GIF of `w` x `h` pixels, one colour: logical screen and one image of
 * that size, LZW data of clear code, pixels of index 0, end code.
 */
function gif(w: number, h: number): Uint8Array {
  const bytes: number[] = [];
  const u16 = (v: number) => bytes.push(v & 0xff, v >> 8);
  bytes.push(...new TextEncoder().encode("GIF89a"));
  u16(w);
  u16(h);
  bytes.push(0x80, 0, 0); // global colour table of 2 entries
  bytes.push(0x20, 0x80, 0xd0, 0xff, 0xff, 0xff);
  bytes.push(0x2c);
  u16(0);
  u16(0);
  u16(w);
  u16(h);
  bytes.push(0);
  // LZW, minimum code size 2: clear (4), then index 0 for every pixel with
  // codes of growing width, end (5). Written with a tiny bit packer.
  const codes: number[] = [4];
  for (let i = 0; i < w * h; i++) codes.push(0);
  codes.push(5);
  let acc = 0, n = 0, size = 3, next = 6;
  const data: number[] = [];
  for (const [k, c] of codes.entries()) {
    acc |= c << n;
    n += size;
    while (n >= 8) {
      data.push(acc & 0xff);
      acc >>= 8;
      n -= 8;
    }
    // After the clear code no entry is added for the first code.
    if (k >= 2 && c !== 5) {
      next++;
      if (next === 1 << size && size < 12) size++;
    }
  }
  if (n > 0) data.push(acc & 0xff);
  bytes.push(2);
  for (let i = 0; i < data.length; i += 255) {
    const chunk = data.slice(i, i + 255);
    bytes.push(chunk.length, ...chunk);
  }
  bytes.push(0, 0x3b);
  return new Uint8Array(bytes);
}

function fromDataUrl(url: string): Uint8Array {
  const bin = atob(url.slice(url.indexOf(",") + 1));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

Deno.test("e2e images: imgcat PNG, JPEG, GIF and SVG show with their natural sizes", async () => {
  const dir = await Deno.makeTempDir();
  const t = await startDomterm([
    "sh",
    "-c",
    `while [ ! -e '${dir}/go' ]; do sleep 0.05; done; ` +
    `'${Deno.execPath()}' run -A '${MAIN}' imgcat '${dir}/a.png' '${dir}/b.jpg' '${dir}/c.gif' '${dir}/d.svg'; ` +
    `printf '\\033]1337;File=name=%s;size=4:aGV5IQ==\\a' "$(printf 'n.bin' | base64)"; ` +
    `printf '\\033]1337;File=inline=1;width=10;height=2;preserveAspectRatio=0:%s\\a' "$(base64 -w0 '${dir}/a.png')"; ` +
    `printf '\\033P0;1;0q"1;1;6;12#1;2;100;0;0#1~~~~~~-~~~~~~\\033\\\\'; ` +
    `echo; echo IMG-DONE; sleep 60`,
  ]);
  try {
    // PNG and JPEG from the browser's own encoder, GIF and SVG by hand.
    const urls = await t.page.evaluate(() => {
      const draw = (w: number, h: number, type: string) => {
        const c = document.createElement("canvas");
        c.width = w;
        c.height = h;
        const ctx = c.getContext("2d")!;
        ctx.fillStyle = "#3a7";
        ctx.fillRect(0, 0, w, h);
        return c.toDataURL(type, 0.9);
      };
      return [draw(40, 24, "image/png"), draw(30, 20, "image/jpeg")];
    });
    await Deno.writeFile(`${dir}/a.png`, fromDataUrl(urls[0]));
    await Deno.writeFile(`${dir}/b.jpg`, fromDataUrl(urls[1]));
    await Deno.writeFile(`${dir}/c.gif`, gif(12, 6));
    await Deno.writeTextFile(
      `${dir}/d.svg`,
      `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="50" height="16">` +
        `<rect width="50" height="16" fill="orange"/></svg>`,
    );
    await Deno.writeTextFile(`${dir}/go`, "");
    await waitForRow(t.page, "IMG-DONE", 30_000);
    await t.page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll<HTMLImageElement>("img.dt-img"))
          .every((i) => i.complete),
    );
    const r = await t.page.evaluate(() => {
      const imgs = Array.from(
        document.querySelectorAll<HTMLImageElement>(".dt-image img.dt-img"),
      );
      const cellW = parseFloat(
        getComputedStyle(document.getElementById("terminal")!)
          .getPropertyValue("--dt-cell-w"),
      );
      const cellH = parseFloat(
        getComputedStyle(document.getElementById("terminal")!)
          .getPropertyValue("--dt-cell-h"),
      );
      const canvas = document.querySelector<HTMLCanvasElement>(
        "canvas.dt-sixel",
      );
      const link = document.querySelector<HTMLAnchorElement>("a.dt-download");
      return {
        images: imgs.map((i) => {
          const b = i.getBoundingClientRect();
          return {
            type: i.src.slice(5, i.src.indexOf(";")),
            natural: [i.naturalWidth, i.naturalHeight],
            shown: [Math.round(b.width), Math.round(b.height)],
          };
        }),
        cellW,
        cellH,
        sixel: canvas ? [canvas.width, canvas.height] : null,
        errors: Array.from(document.querySelectorAll(".dt-image-error"))
          .map((e) => e.textContent),
        link: link ? { text: link.textContent, download: link.download } : null,
      };
    });
    assertEquals(r.images.slice(0, 4), [
      { type: "image/png", natural: [40, 24], shown: [40, 24] },
      { type: "image/jpeg", natural: [30, 20], shown: [30, 20] },
      { type: "image/gif", natural: [12, 6], shown: [12, 6] },
      { type: "image/svg+xml", natural: [50, 16], shown: [50, 16] },
    ]);
    // width=10 cells, height=2 cells, stretched.
    const sized = r.images[4];
    assertEquals(sized.type, "image/png");
    assert(
      Math.abs(sized.shown[0] - 10 * r.cellW) <= 1 &&
        Math.abs(sized.shown[1] - 2 * r.cellH) <= 1,
      `sized image ${JSON.stringify(sized)} cell ${r.cellW}x${r.cellH}`,
    );
    assertEquals(r.errors, []);
    // Taller rows did not break following the output: the view is at the
    // bottom and the cursor is inside it. Nothing was pushed out of view:
    // blank rows below the cursor gave way to the images (there is no
    // history to scroll to).
    await t.page.waitForTimeout(200);
    const view = await t.page.evaluate(() => {
      const vp = document.querySelector(".dt-viewport")!;
      const c = document.querySelector(".dt-cursor")!.getBoundingClientRect();
      const v = vp.getBoundingClientRect();
      return {
        scrolled: vp.scrollTop > 0,
        atBottom: vp.scrollHeight - vp.scrollTop - vp.clientHeight <= 2,
        cursorInView: c.top >= v.top && c.bottom <= v.bottom + 1,
      };
    });
    assertEquals(view, { scrolled: false, atBottom: true, cursorInView: true });
    assertEquals(r.sixel, [6, 12]);
    assertEquals(r.link, { text: "Download n.bin (4 B)", download: "n.bin" });
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e images: a small sixel that draws a billion pixels is refused at once; input goes on", async () => {
  // 40 KB: 5,000 bands of one 30,000-pixel repeat.
  const t = await startDomterm([
    "sh",
    "-c",
    `printf '\\033Pq#0;2;50;50;0#0'; yes '!30000~-' | head -n 5000 | tr -d '\\n'; ` +
    `printf '\\033\\\\'; echo; echo SIXEL-DONE; exec cat`,
  ]);
  try {
    await waitForRow(t.page, "SIXEL-DONE", 30_000);
    const start = Date.now();
    await t.page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll(".dt-image-error")).some((e) =>
          /sixel image of 30000x30000 pixels not shown/.test(
            e.textContent ?? "",
          )
        ),
      undefined,
      { timeout: 5000 },
    );
    const noticed = Date.now() - start;
    await t.page.keyboard.type("typed-after");
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, "typed-after", 5000);
    const echoed = Date.now() - start;
    assert(
      echoed < 3000,
      `notice after ${noticed} ms, echo after ${echoed} ms`,
    );
  } finally {
    await t.close();
  }
});

/** The first bytes of an image whose header declares `w` x `h` pixels. */
function hugeHeader(type: "png" | "gif" | "jpeg", w: number, h: number) {
  const out = new Uint8Array(2048);
  const v = new DataView(out.buffer);
  if (type === "png") {
    out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    v.setUint32(8, 13); // IHDR length
    out.set([0x49, 0x48, 0x44, 0x52], 12);
    v.setUint32(16, w);
    v.setUint32(20, h);
    out.set([8, 6, 0, 0, 0], 24); // 8-bit RGBA
  } else if (type === "gif") {
    out.set(new TextEncoder().encode("GIF89a"));
    v.setUint16(6, w, true);
    v.setUint16(8, h, true);
  } else {
    // SOI, then a baseline frame header (SOF0): length 17, 8 bits, size.
    out.set([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08]);
    v.setUint16(7, h);
    v.setUint16(9, w);
    out.set([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1], 11);
  }
  return out;
}

Deno.test("e2e images: raster images over 50 megapixels say so; an HTML <img> 30000 pixels square is capped to the terminal's width", async () => {
  const dir = await Deno.makeTempDir();
  const file = (b: Uint8Array) =>
    `\x1b]1337;File=inline=1:${btoa(String.fromCharCode(...b))}\x07\r\n`;
  await Deno.writeTextFile(
    `${dir}/out`,
    file(hugeHeader("png", 30000, 30000)) +
      file(hugeHeader("gif", 65535, 65535)) +
      file(hugeHeader("jpeg", 65500, 65500)) +
      `\x1b]72;<img class="big" width="30000" height="30000" src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==">\x07\r\nIMG-DONE\r\n`,
  );
  const t = await startDomterm(["sh", "-c", `cat '${dir}/out'; exec cat`]);
  try {
    await waitForRow(t.page, "IMG-DONE", 30_000);
    await t.page.waitForFunction(
      () => document.querySelectorAll(".dt-image-error").length === 3,
      undefined,
      { timeout: 5000 },
    );
    const notices = await t.page.evaluate(() =>
      Array.from(document.querySelectorAll(".dt-image-error")).map((e) =>
        e.textContent ?? ""
      )
    );
    for (
      const [i, size] of ["30000x30000", "65535x65535", "65500x65500"].entries()
    ) {
      assert(
        notices[i]?.includes(size) && /not shown/.test(notices[i]),
        `notice ${i}: ${notices[i]}`,
      );
    }
    const big = await t.page.evaluate(() => {
      const r = document.querySelector(".big")!.getBoundingClientRect();
      return { w: r.width, h: r.height, inner: innerWidth };
    });
    assert(
      big.w <= big.inner && big.h <= big.inner,
      `the <img> is ${big.w}x${big.h}`,
    );
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
