/**
 * The app's identity over HTTP from the real domterm (main.ts with the
 * embedded assets): the manifest, the SVG icon and the PNG sizes are
 * served with their types, the page links them, and Chromium loads them
 * under the server's Content-Security-Policy.
 */
import { assert, assertEquals } from "../assert.ts";
import { spawnServer } from "./domterm.ts";
import { launchChromium } from "./chromium.ts";

const STATIC = new URL("../../static/", import.meta.url);

/** Width and height from a PNG's IHDR chunk. */
function pngSize(b: Uint8Array): [number, number] {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  assert(sig.every((v, i) => b[i] === v), "not a PNG");
  const v = new DataView(b.buffer, b.byteOffset);
  return [v.getUint32(16), v.getUint32(20)];
}

Deno.test("e2e app identity: manifest and icons are served, linked and load under the CSP", async () => {
  const { child, url } = await spawnServer(["--", "sleep", "60"]);
  try {
    const base = new URL(url).origin;
    const res = await fetch(`${base}/manifest.webmanifest`);
    assertEquals(res.status, 200);
    assertEquals(
      res.headers.get("content-type"),
      "application/manifest+json; charset=utf-8",
    );
    const manifest = await res.json();
    assertEquals(manifest.name, "domterm");
    assertEquals(manifest.display, "standalone");
    const icons = manifest.icons as { src: string; sizes: string }[];
    assertEquals(icons.map((i) => i.sizes), ["any", "192x192", "512x512"]);
    for (const icon of icons) {
      const r = await fetch(`${base}/${icon.src}`);
      assertEquals(r.status, 200, icon.src);
      const body = new Uint8Array(await r.arrayBuffer());
      if (icon.src.endsWith(".svg")) {
        assertEquals(r.headers.get("content-type"), "image/svg+xml");
        assert(new TextDecoder().decode(body).startsWith("<svg"));
      } else {
        assertEquals(r.headers.get("content-type"), "image/png");
        const n = parseInt(icon.sizes, 10);
        assertEquals(pngSize(body), [n, n]);
        // Exactly the committed file.
        assertEquals(body, await Deno.readFile(new URL(icon.src, STATIC)));
      }
    }
    const fav = await fetch(`${base}/icon-32.png`);
    assertEquals(pngSize(new Uint8Array(await fav.arrayBuffer())), [32, 32]);

    // The page links them, and the browser loads them (no CSP refusal).
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(m.text());
      });
      const loaded: string[] = [];
      page.on("response", (r) => {
        if (r.ok()) loaded.push(new URL(r.url()).pathname);
      });
      await page.goto(url);
      await page.waitForFunction(() => "domtermInspect" in globalThis);
      const links = await page.evaluate(() =>
        Array.from(
          document.querySelectorAll("link[rel=manifest], link[rel=icon]"),
        )
          .map((l) => l.getAttribute("href"))
      );
      assertEquals(links, ["manifest.webmanifest", "icon.svg", "icon-32.png"]);
      // What the browser sees in the manifest (it fetches it itself).
      const seen = await page.evaluate(async () => {
        const href = document.querySelector<HTMLLinkElement>(
          "link[rel=manifest]",
        )!.href;
        const r = await fetch(href);
        return r.ok ? (await r.json()).icons.length : -1;
      });
      assertEquals(seen, 3);
      const icon = await page.evaluate(async () => {
        const img = new Image();
        img.src = "icon.svg";
        await img.decode();
        return [img.naturalWidth > 0, img.naturalHeight > 0];
      });
      assertEquals(icon, [true, true]);
      assert(
        !problems.some((p) => /Content Security Policy|manifest/i.test(p)),
        problems.join("\n"),
      );
      assert(loaded.includes("/manifest.webmanifest"), loaded.join(" "));
    } finally {
      await browser.close();
    }
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
});
