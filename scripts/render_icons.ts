/**
 * Renders static/icon.svg to the PNG sizes the manifest and favicon list
 * (static/icon-32.png, icon-192.png, icon-512.png) with headless Chromium.
 * Run it after changing the SVG and commit the PNGs.
 *
 * Usage: deno run -A scripts/render_icons.ts
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../tests/e2e/chromium.ts";

const staticDir = join(dirname(fileURLToPath(import.meta.url)), "..", "static");
/** The PNG sizes made, in pixels. */
export const ICON_SIZES = [32, 192, 512];

const svg = await Deno.readTextFile(join(staticDir, "icon.svg"));
const browser = await launchChromium();
try {
  for (const size of ICON_SIZES) {
    const page = await browser.newPage({
      viewport: { width: size, height: size },
    });
    const src = `data:image/svg+xml;base64,${
      btoa(String.fromCharCode(...new TextEncoder().encode(svg)))
    }`;
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}</style>` +
        `<img src="${src}" width="${size}" height="${size}">`,
    );
    await page.waitForFunction(() => document.images[0].complete);
    const png = await page.screenshot({ omitBackground: true });
    await Deno.writeFile(join(staticDir, `icon-${size}.png`), png);
    await page.close();
    console.error(`static/icon-${size}.png`);
  }
} finally {
  await browser.close();
}
