/**
 * client/sanitize.ts in a real headless Chromium: every payload of the XSS
 * corpus is sanitized and inserted into the live document, and must run no
 * script, make no network request and leave no javascript: URL; safe HTML
 * must survive, <base href> must resolve relative URLs, block detection and
 * rejection must work.
 */
import { bundleForBrowser } from "./bundle.ts";
import {
  deepStrictEqual as assertEquals,
  ok as assert,
} from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { sharedChromium } from "./chromium.ts";
import { XSS_CORPUS } from "./fixtures/xss_corpus.ts";
import type {
  PayloadReport,
  SanitizeHarness,
} from "./fixtures/sanitize/harness.ts";

const HARNESS = new URL("./fixtures/sanitize/harness.ts", import.meta.url);
const EXT = "http://evil.example";
const PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8">` +
  `<title>sanitize</title></head><body>` +
  `<script type="module" src="/h.js"></script></body></html>`;

/** Bundle the harness once per run. */
function harnessScript(): Promise<string> {
  return bundleForBrowser(HARNESS);
}

interface Env {
  page: Page;
  origin: string;
  /** Every request the page made (page.on("request")), data: URLs excluded. */
  requests: string[];
  /** Requests that the route stopped (anything but the harness). */
  blocked: string[];
  /** Paths the test server was asked for. */
  served: string[];
}

/**
 * Serve the harness from 127.0.0.1:0, open it in a fresh context of the
 * file's shared Chromium with every other URL routed to an abort, run `fn`,
 * always close context and server.
 */
async function withPage(fn: (env: Env) => Promise<void>): Promise<void> {
  const js = await harnessScript();
  const served: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) => {
      const path = new URL(req.url).pathname;
      served.push(path);
      if (path === "/") {
        return new Response(PAGE, {
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      }
      if (path === "/h.js") {
        return new Response(js, {
          headers: { "content-type": "text/javascript" },
        });
      }
      return new Response("not here", { status: 404 });
    },
  );
  let context: BrowserContext | undefined;
  try {
    const origin = `http://127.0.0.1:${server.addr.port}`;
    const harness = new Set([`${origin}/`, `${origin}/h.js`]);
    context = await (await sharedChromium()).newContext();
    const page = await context.newPage();
    const env: Env = { page, origin, requests: [], blocked: [], served };
    page.on("request", (r) => {
      const url = r.url();
      if (!url.startsWith("data:")) env.requests.push(url);
    });
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (harness.has(url)) return route.continue();
      if (url !== `${origin}/favicon.ico`) env.blocked.push(url);
      return route.abort();
    });
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => "runPayload" in globalThis);
    await fn(env);
  } finally {
    await context?.close();
    await server.shutdown();
  }
}

/** Requests other than the harness page and script (and the browser's favicon). */
function foreign(env: Env, from: number): string[] {
  return env.requests.slice(from).filter((u) =>
    u !== `${env.origin}/` && u !== `${env.origin}/h.js` &&
    u !== `${env.origin}/favicon.ico`
  );
}

Deno.test("sanitize: XSS corpus runs nothing, loads nothing, keeps no javascript: URL", async (t) => {
  assert(
    XSS_CORPUS.length >= 80,
    `corpus has ${XSS_CORPUS.length} payloads`,
  );
  assertEquals(
    new Set(XSS_CORPUS.map((p) => p.name)).size,
    XSS_CORPUS.length,
    "payload names are unique",
  );
  await withPage(async (env) => {
    for (const [i, payload] of XSS_CORPUS.entries()) {
      const leak = `${env.origin}/leak/${i}`;
      const html = payload.html
        .replaceAll("{LEAK_NOSCHEME}", leak.replace(/^http:/, ""))
        .replaceAll("{LEAK}", leak)
        .replaceAll("{EXT}", EXT);
      await t.step(`${i}: ${payload.name}`, async () => {
        const from = env.requests.length;
        const blockedFrom = env.blocked.length;
        const r = await env.page.evaluate(
          (h) => (globalThis as unknown as SanitizeHarness).runPayload(h),
          html,
        ) as PayloadReport;
        const detail = `\n  payload: ${html}\n  result: ${r.html}`;
        assertEquals(r.hits, [], `script ran${detail}`);
        assertEquals(foreign(env, from), [], `network request${detail}`);
        assertEquals(
          env.blocked.slice(blockedFrom),
          [],
          `blocked request${detail}`,
        );
        assertEquals(r.unsafe, [], `unsafe output${detail}`);
        assertEquals(r.clobbered, [], `clobbered globals${detail}`);
        // Whatever was taken out is said.
        if (!payload.quiet) {
          assert(r.removed.length > 0, `nothing reported${detail}`);
        }
      });
    }
    // Stragglers (late loads, timers) after the last payload.
    await env.page.waitForTimeout(500);
    const late = await env.page.evaluate(() =>
      (globalThis as unknown as SanitizeHarness).takeHits()
    );
    assertEquals(late, [], "late script hits");
    assertEquals(foreign(env, 0), [], "requests over the whole run");
    assertEquals(env.blocked, [], "blocked requests over the whole run");
    assertEquals(
      env.served.filter((p) => p !== "/" && p !== "/h.js"),
      [],
      "the server saw only the harness",
    );
  });
});

/** Sanitize in the page and describe the fragment (without inserting it). */
function inspect(page: Page, html: string) {
  return page.evaluate((h) => {
    const { sanitizeHtml } = globalThis as unknown as SanitizeHarness;
    const r = sanitizeHtml(h);
    const div = document.createElement("div");
    if (r.fragment) div.append(r.fragment);
    const attrs = (sel: string, name: string) =>
      Array.from(div.querySelectorAll(sel)).map((e) => e.getAttribute(name));
    return {
      rejected: r.fragment === null,
      removed: r.removed,
      block: r.block,
      html: div.innerHTML,
      hrefs: attrs("a", "href"),
      srcs: attrs("img", "src"),
      svgHrefs: Array.from(div.querySelectorAll("use, image, svg a")).map((e) =>
        e.getAttribute("href") ?? e.getAttribute("xlink:href")
      ),
    };
  }, html);
}

Deno.test("sanitize: safe HTML survives", async () => {
  await withPage(async ({ page }) => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    const r = await inspect(
      page,
      `<b>bold</b> <i>it</i> <span class="x y">s</span>` +
        `<table><tr><th>h</th></tr><tr><td colspan="2">c</td></tr></table>` +
        `<svg width="20" height="20" viewBox="0 0 20 20"><circle cx="10" cy="10" r="5" fill="red"/></svg>` +
        `<img src="http://example.com/a.png" alt="a"><img src="${png}">` +
        `<a href="https://example.com/" target="_blank">e</a>` +
        `<a href="mailto:me@example.com">m</a><a href="file:///tmp/x">f</a>` +
        `<div style="color: red; background: url(&quot;${png}&quot;)">st</div>` +
        `<p data-k="v" aria-label="l" replace-key="k1" class="can-replace-children">p</p>`,
    );
    assertEquals(r.removed, []);
    assert(!r.rejected);
    for (
      const s of [
        "<b>bold</b>",
        "<i>it</i>",
        '<span class="x y">s</span>',
        '<td colspan="2">c</td>',
        '<circle cx="10" cy="10" r="5" fill="red"></circle>',
        'viewBox="0 0 20 20"',
        'alt="a"',
        'data-k="v"',
        'aria-label="l"',
        'replace-key="k1"',
        "color: red",
        `url(&quot;${png}&quot;)`,
      ]
    ) assert(r.html.includes(s), `${s} in ${r.html}`);
    assertEquals(r.srcs, ["http://example.com/a.png", png]);
    assertEquals(r.hrefs, [
      "https://example.com/",
      "mailto:me@example.com",
      "file:///tmp/x",
    ]);
    assert(
      r.html.includes('target="_blank" rel="noopener noreferrer"'),
      r.html,
    );
    assert(r.html.includes('referrerpolicy="no-referrer"'), r.html);

    // data:image/svg+xml only as <img src>.
    const svgData =
      "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
    const s = await inspect(
      page,
      `<img src="${svgData}"><a href="${svgData}">x</a>`,
    );
    assertEquals(s.srcs, [svgData]);
    assertEquals(s.hrefs, [null]);
    assert(s.removed.some((m) => m.includes("data:")), s.removed.join());

    // ids are prefixed, and #fragment references follow them.
    const ids = await inspect(
      page,
      `<svg><defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>` +
        `<circle id="c" r="3"/></defs><rect fill="url(#g)" width="9" height="9"/>` +
        `<use href="#c"/></svg><a href="#g">to g</a>`,
    );
    assertEquals(ids.removed, []);
    assert(ids.html.includes('id="user-content-g"'), ids.html);
    assert(ids.html.includes('fill="url(#user-content-g)"'), ids.html);
    assertEquals(ids.svgHrefs, ["#user-content-c"]);
    assertEquals(ids.hrefs, ["#user-content-g"]);
  });
});

Deno.test("sanitize: relative URLs resolve against <base href>", async () => {
  await withPage(async ({ page }) => {
    const r = await inspect(
      page,
      `<base href="https://example.com/dir/"><a href="page.html">p</a>` +
        `<img src="../img/x.png"><a href="//other.example/y">o</a><a href="#top">t</a>`,
    );
    assertEquals(r.removed, [], "a valid base is not reported");
    assertEquals(r.hrefs, [
      "https://example.com/dir/page.html",
      "https://other.example/y",
      "#user-content-top",
    ]);
    assertEquals(r.srcs, ["https://example.com/img/x.png"]);
    assert(!r.html.includes("<base"), r.html);

    // No base: relative URLs would hit the terminal's own server; dropped.
    const nob = await inspect(
      page,
      `<a href="page.html">p</a><img src="x.png">`,
    );
    assertEquals(nob.hrefs, [null]);
    assertEquals(nob.srcs, [null]);
    assert(
      nob.removed.some((m) => m.includes("relative URL")),
      nob.removed.join(),
    );

    // Only http(s) bases count.
    const bad = await inspect(
      page,
      `<base href="javascript:__xss()//"><a href="p">p</a>`,
    );
    assertEquals(bad.hrefs, [null]);
    assert(
      bad.removed.some((m) => m.includes("<base href> ignored")),
      bad.removed.join(),
    );

    // A base later in the fragment still applies to earlier URLs.
    const late = await inspect(
      page,
      `<img src="a.png"><base href="http://example.org/">`,
    );
    assertEquals(late.srcs, ["http://example.org/a.png"]);
  });
});

Deno.test("sanitize: block detection", async () => {
  await withPage(async ({ page }) => {
    const cases: [string, boolean][] = [
      ["<div>x</div>", true],
      ["<table><tr><td>x</td></tr></table>", true],
      ["<svg><rect width='1' height='1'/></svg>", true],
      ["<p>x</p>", true],
      ["<pre>x</pre>", true],
      ["<ul><li>x</li></ul>", true],
      ["<h2>x</h2>", true],
      ["<hr>", true],
      ["<img src='http://example.com/a.png'>", true],
      ["<b>x</b>", false],
      ["<span class='a'>x</span>", false],
      ["<a href='https://example.com/'>x</a>", false],
      ["plain text", false],
      ["<i>x</i><br><code>y</code>", false],
    ];
    for (const [html, block] of cases) {
      const r = await inspect(page, html);
      assertEquals(r.block, block, html);
      assert(!r.rejected, html);
    }
  });
});

Deno.test("sanitize: rejection of over-long and pure-script fragments", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { sanitizeHtml } = globalThis as unknown as SanitizeHarness;
      const big = sanitizeHtml("<b>" + "x".repeat(2000) + "</b>", {
        maxLength: 1000,
      });
      const dflt = sanitizeHtml("x".repeat(1024 * 1024 + 1));
      const script = sanitizeHtml("<script>__xss()</script>");
      const style = sanitizeHtml("<style>*{color:red}</style><iframe src=x>");
      const partial = sanitizeHtml("<b>ok</b><script>__xss()</script>");
      const empty = sanitizeHtml("");
      return {
        big: [big.fragment === null, big.removed],
        dflt: [dflt.fragment === null, dflt.removed.length],
        script: [script.fragment === null, script.removed],
        style: [style.fragment === null, style.removed],
        partial: [
          partial.fragment?.textContent ?? null,
          partial.removed,
        ],
        empty: [empty.fragment !== null, empty.removed],
      };
    });
    assertEquals(r.big[0], true);
    assert(String(r.big[1]).includes("too large"), String(r.big[1]));
    assertEquals(r.dflt, [true, 1]);
    assertEquals(r.script, [true, ["<script> element"]]);
    assertEquals(r.style[0], true);
    assertEquals(r.style[1], ["<style> element", "<iframe> element"]);
    // Something safe remains: kept, and the removal is reported.
    assertEquals(r.partial, ["ok", ["<script> element"]]);
    assertEquals(r.empty, [true, []]);
  });
});

Deno.test("sanitize: removed lists what went, by name", async () => {
  await withPage(async ({ page }) => {
    const r = await inspect(
      page,
      `<img src="https://example.com/a.png" onerror="__xss()" onload="__xss()">` +
        `<a href="javascript:__xss()" target="_top">x</a>` +
        `<div style="color:blue;background-image:url(https://example.com/t.png)">d</div>` +
        `<span style="position:fixed">s</span>`,
    );
    assertEquals(r.removed.sort(), [
      "background-image in style on <div> (loads a URL)",
      "javascript: URL in href on <a>",
      "onerror event handler on <img>",
      "onload event handler on <img>",
      "position: fixed in style on <span>",
      'target="_top" on <a>',
    ]);
    assert(r.html.includes('style="color: blue;"'), r.html);

    // Counted once per attribute, even where DOMPurify logs it twice.
    const named = await inspect(
      page,
      `<img name="a" src="https://example.com/a.png"><img name="b" src="https://example.com/b.png">`,
    );
    assertEquals(named.removed, ["name attribute on <img> (2×)"]);
  });
});

Deno.test("sanitize: sizes past 10,000 pixels are capped, and said", async () => {
  await withPage(async ({ page }) => {
    const r = await inspect(
      page,
      `<img width="30000" height="30000" src="https://example.com/a.png">` +
        `<div style="height: 30000px; color: red">tall</div>` +
        `<div style="min-height: 400in">taller</div>` +
        `<img width="640" height="480" src="https://example.com/b.png">`,
    );
    assertEquals(r.removed.sort(), [
      "height: 30000px in style on <div> (over 10000 pixels)",
      'height="30000" on <img> capped at 10000 pixels',
      "min-height: 400in in style on <div> (over 10000 pixels)",
      'width="30000" on <img> capped at 10000 pixels',
    ]);
    assert(r.html.includes('width="10000" height="10000"'), r.html);
    assert(r.html.includes('width="640" height="480"'), r.html);
    assert(r.html.includes('style="color: red;"'), r.html);
  });
});

Deno.test("sanitize: rejectedNotice renders visibly", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { rejectedNotice } = globalThis as unknown as SanitizeHarness;
      const el = rejectedNotice(["<script> element", "<b>not markup</b>"]);
      document.body.append(el);
      const box = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      return {
        cls: el.className,
        text: el.textContent,
        children: el.querySelectorAll("b").length,
        w: box.width,
        h: box.height,
        display: cs.display,
        visibility: cs.visibility,
        border: cs.borderTopStyle,
      };
    });
    assertEquals(r.cls, "dt-html-rejected");
    assert(r.text?.includes("<script> element"), r.text ?? "");
    assert(r.text?.includes("<b>not markup</b>"), "reasons are text");
    assertEquals(r.children, 0);
    assert(r.w > 0 && r.h > 0, `size ${r.w}x${r.h}`);
    assertEquals(r.display, "block");
    assertEquals(r.visibility, "visible");
    assertEquals(r.border, "dashed");
  });
});

Deno.test("sanitize: interactive elements keep data-dt-event; nothing else does", async () => {
  await withPage(async ({ page }) => {
    const r = await inspect(
      page,
      `<button data-dt-event="go">Go</button>` +
        `<a data-dt-event="more">more</a>` +
        `<details data-dt-event="t" class="can-replace-children" replace-key="k">` +
        `<summary>s</summary></details>` +
        `<input data-dt-event="c" type="checkbox" checked>` +
        `<input data-dt-event="r" type="RADIO" name="g" value="1">` +
        `<input data-dt-event="x" placeholder="name" maxlength="20">` +
        `<select data-dt-event="s"><optgroup label="o"><option value="a">A</option>` +
        `<option value="b" selected>B</option></optgroup></select>`,
    );
    assertEquals(r.removed, []);
    assertEquals(
      r.html,
      `<button data-dt-event="go" type="button">Go</button>` +
        `<a data-dt-event="more">more</a>` +
        `<details data-dt-event="t" class="can-replace-children" replace-key="k">` +
        `<summary>s</summary></details>` +
        `<input data-dt-event="c" type="checkbox" checked="">` +
        `<input data-dt-event="r" type="radio" value="1" name="user-content-g">` +
        `<input data-dt-event="x" placeholder="name" maxlength="20" type="text">` +
        `<select data-dt-event="s"><optgroup label="o"><option value="a">A</option>` +
        `<option value="b" selected="">B</option></optgroup></select>`,
    );
    const bad = await inspect(
      page,
      `<div data-dt-event="d">d</div><span data-dt-event="x y">s</span>` +
        `<button data-dt-event="a;b">b</button>` +
        `<input type="file"><input type="password" data-dt-event="p">` +
        `<button type="submit" form="f" formaction="https://example.com/">s</button>` +
        `<img name="n" src="https://example.com/a.png">`,
    );
    assertEquals(bad.removed.sort(), [
      '<input type="file"> element',
      '<input type="password"> element',
      "data-dt-event on <div>",
      "data-dt-event on <span>",
      'data-dt-event="a;b" (not a valid name)',
      "form attribute on <button>",
      "https: URL in formaction on <button>",
      "name attribute on <img>",
    ]);
    assertEquals(
      bad.html,
      `<div>d</div><span>s</span><button type="button">b</button>` +
        `<button type="button">s</button>` +
        `<img src="https://example.com/a.png" referrerpolicy="no-referrer">`,
    );
  });
});
