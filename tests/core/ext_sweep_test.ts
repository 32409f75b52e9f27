/**
 * Reclaiming extended-style ids (core/emulator/ext_table.ts, ext_sweep.ts;
 * found under issue 37): a terminal that prints ever new OSC 8 links and
 * underline colours keeps giving them to new output, because the ids no
 * cell holds any more (scrolled out of the history, overwritten) are
 * freed and reused; snapshots, frames and history slices carry the right
 * entries across; with more live entries than ids the oldest history
 * loses its links, never new output, and no cell shows a wrong link.
 */
import { assert, assertEquals } from "../assert.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import {
  MAX_EXT_ID,
  SWEEP_HEADROOM,
  SWEEP_MIN,
} from "../../core/emulator/ext_table.ts";
import { Line } from "../../core/model/line.ts";
import {
  mapPackedAttrs,
  PackedStore,
  unpackInto,
} from "../../core/model/packed_line.ts";
import { modelDiff, modelHash } from "../../core/serialize/model_hash.ts";
import {
  readNormalLines,
  readSnapshotExt,
} from "../../core/serialize/snapshot.ts";

const ST = "\x1b\\";

/**
 * Lines `from` to `to`: line i holds `per` links `f<i>.<j>` to
 * `https://x/<i>/<j>`; with `underline`, each also has its own underline
 * colour (SGR 58), another entry per link.
 */
function linkLines(from: number, to: number, per = 1, underline = false) {
  let s = "";
  for (let i = from; i < to; i++) {
    for (let j = 0; j < per; j++) {
      const ul = underline
        ? `\x1b[4;58:2::${i & 255}:${j}:${i >> 8 & 255}m`
        : "";
      s += `${ul}\x1b]8;;https://x/${i}/${j}${ST}f${i}.${j}\x1b]8;;${ST}` +
        (underline ? "\x1b[0m " : " ");
    }
    s += "\r\n";
  }
  return s;
}

/** What {@link checkLinks} found. */
interface LinkCheck {
  /** Link texts that had their link, and the newest / oldest line number among them. */
  linked: number;
  newest: number;
  oldest: number;
  /** Link texts that lost it (the oldest history, when ids ran out), and the newest of them. */
  lost: number;
  newestLost: number;
  /** Distinct ext ids held by cells. */
  ids: Set<number>;
}

/**
 * Check every `f<i>.<j>` of the normal buffer (history and screen): each
 * of its cells has the link `https://x/<i>/<j>` (through cell -> id ->
 * entry -> url), or none at all (and then its whole text has none); any
 * other link throws.
 */
function checkLinks(t: Terminal): LinkCheck {
  const r: LinkCheck = {
    linked: 0,
    newest: -1,
    oldest: Infinity,
    lost: 0,
    newestLost: -1,
    ids: new Set(),
  };
  const buf = t.normalBuffer;
  for (let k = 0; k < buf.length; k++) {
    const line = buf.getLine(k);
    const text = line.toString();
    for (const m of text.matchAll(/f(\d+)\.(\d+)/g)) {
      const want = `https://x/${m[1]}/${m[2]}`;
      const links = new Set<string | null>();
      for (let x = m.index; x < m.index + m[0].length; x++) {
        const id = line.attr(x) >>> 16;
        if (id !== 0) r.ids.add(id);
        links.add(t.ext(id).link);
      }
      const n = Number(m[1]);
      if (links.size === 1 && links.has(want)) {
        r.linked++;
        r.newest = Math.max(r.newest, n);
        r.oldest = Math.min(r.oldest, n);
      } else if (links.size === 1 && links.has(null)) {
        r.lost++;
        r.newestLost = Math.max(r.newestLost, n);
      } else {
        throw new Error(
          `line ${k} "${m[0]}": links ${
            JSON.stringify([...links])
          }, want ${want}`,
        );
      }
    }
  }
  return r;
}

/** Write `n` link lines in pieces (compacting the history after each, as the server does, with `packed`). */
function flood(
  t: Terminal,
  from: number,
  n: number,
  opts: { per?: number; underline?: boolean; packed?: boolean } = {},
): void {
  const piece = 500;
  for (let i = from; i < from + n; i += piece) {
    t.write(
      linkLines(i, Math.min(from + n, i + piece), opts.per, opts.underline),
    );
    if (opts.packed) t.normalBuffer.compactHistory();
  }
}

interface FloodCase {
  name: string;
  lines: number;
  per?: number;
  underline?: boolean;
  packed?: boolean;
}

const floods: FloodCase[] = [
  { name: "200,000 links", lines: 200_000 },
  { name: "200,000 links, packed history", lines: 200_000, packed: true },
  {
    name: "4 links a line, each with an underline colour",
    lines: 50_000,
    per: 4,
    underline: true,
  },
  {
    name: "4 links a line, packed history",
    lines: 50_000,
    per: 4,
    underline: true,
    packed: true,
  },
];

for (const c of floods) {
  Deno.test(`ext sweep: ${c.name} through a 1,000-line history keep resolving, ids reused, table bounded`, () => {
    const t = new Terminal({ cols: 80, rows: 24, scrollback: 1000 });
    flood(t, 0, c.lines, c);
    const r = checkLinks(t);
    const per = c.per ?? 1;
    // Every link kept (screen and history) resolves; none was lost.
    assertEquals(r.lost, 0);
    assertEquals(r.linked, (1000 + 23) * per);
    assertEquals(r.newest, c.lines - 1);
    assertEquals(r.oldest, c.lines - 1023);
    const st = t.stats;
    assert(st.extSweeps > 0, "swept");
    // 200,000 distinct entries went through ids that stay small: reused.
    const held = r.ids.size;
    assertEquals(held, (1000 + 23) * per);
    assert(
      st.extStyles <= Math.max(SWEEP_MIN, 2 * held + 2 * per * 500),
      `table ${st.extStyles} ids (${st.extLive} held) for ${held} in cells`,
    );
    assert(st.extLive <= st.extStyles);
    // New output still gets its links.
    t.write(`\x1b]8;;https://new${ST}NEW\x1b]8;;${ST}`);
    const buf = t.buffer, line = buf.getLine(buf.length - 1);
    assertEquals(t.ext(line.attr(0) >>> 16).link, "https://new");
  });
}

Deno.test("ext sweep: a snapshot after a sweep loaded into a fresh terminal gives the same links, and both go on alike", () => {
  const t = new Terminal({ cols: 80, rows: 24, scrollback: 1000 });
  flood(t, 0, 30_000, { underline: true });
  assert(t.stats.extSweeps > 0, "swept");
  const snap = JSON.parse(JSON.stringify(t.snapshot()));
  // Free ids are in it (as empty entries): ids stay what the cells hold.
  assert(snap.ext.length < 30_000);
  const u = new Terminal({ cols: 10, rows: 5, scrollback: 1000 });
  u.load(snap);
  assertEquals(modelHash(u), modelHash(t), modelDiff(u, t) ?? undefined);
  assertEquals(checkLinks(u).linked, checkLinks(t).linked);
  // Both reuse the free ids from here on, and stay alike.
  flood(t, 30_000, 20_000, { underline: true });
  flood(u, 30_000, 20_000, { underline: true });
  assertEquals(modelHash(u), modelHash(t), modelDiff(u, t) ?? undefined);
  const r = checkLinks(u);
  assertEquals([r.lost, r.newest], [0, 49_999]);
  const v = Terminal.restore(JSON.parse(JSON.stringify(u.snapshot())));
  assertEquals(modelHash(v), modelHash(t), modelDiff(v, t) ?? undefined);
});

for (const packed of [false, true]) {
  Deno.test(`ext sweep: more live links than ids${packed ? " (packed history)" : ""}: the oldest history loses its links, new output keeps its own, none is wrong`, () => {
    const t = new Terminal({ cols: 20, rows: 5, scrollback: 100_000 });
    const n = MAX_EXT_ID + 10_000;
    flood(t, 0, n, { packed });
    const r = checkLinks(t);
    // Lost links are all older than every kept one.
    assert(r.lost > 0, "some lost");
    assert(
      r.newestLost < r.oldest,
      `lost up to ${r.newestLost}, kept from ${r.oldest}`,
    );
    assertEquals(r.newest, n - 1);
    assert(r.linked >= MAX_EXT_ID - 2 * SWEEP_HEADROOM, `${r.linked} kept`);
    assert(t.stats.extStyles <= MAX_EXT_ID);
    // And it goes on: the newest lines always have theirs.
    flood(t, n, 20_000, { packed });
    const r2 = checkLinks(t);
    assertEquals(r2.newest, n + 20_000 - 1);
    assert(r2.newestLost < r2.oldest);
    assert(r2.linked >= MAX_EXT_ID - 2 * SWEEP_HEADROOM, `${r2.linked} kept`);
    // A snapshot of it loads with the same links.
    const u = Terminal.restore(JSON.parse(JSON.stringify(t.snapshot())));
    assertEquals(modelHash(u), modelHash(t), modelDiff(u, t) ?? undefined);
  });
}

Deno.test("ext sweep: an OSC 8 link open across sweeps stays whole", () => {
  const t = new Terminal({ cols: 80, rows: 24, scrollback: 100 });
  t.write(`\x1b]8;;https://open${ST}A`);
  // Many underline colours interned (never printed) while the link is
  // open: sweeps come and free them.
  let s = "";
  for (let i = 0; i < 3 * SWEEP_MIN; i++) {
    s += `\x1b[58:2::${i & 255}:${i >> 8}:1m`;
  }
  t.write(s + `\x1b[59mB\x1b]8;;${ST}`);
  assert(t.stats.extSweeps > 0, "swept");
  assert(t.stats.extStyles <= 2 * SWEEP_MIN, `${t.stats.extStyles} ids`);
  const line = t.buffer.getLine(t.buffer.length - t.rows);
  assertEquals(line.toString(true), "AB");
  assertEquals(t.ext(line.attr(0) >>> 16).link, "https://open");
  assertEquals(t.ext(line.attr(1) >>> 16).link, "https://open");
});

Deno.test("ext sweep: a frame's kept history gets the frame's ids (page and server tables differ)", () => {
  const src = new Terminal({ cols: 40, rows: 10, scrollback: 500 });
  const page = Terminal.restore(src.snapshot());
  // The page interns entries the server does not (or frees them at
  // other times): from here on their ids differ.
  let s = "";
  for (let i = 1; i < 50; i++) s += `\x1b[58:5:${i}m`;
  page.write(s + "\x1b[0m");
  src.write(linkLines(0, 60));
  page.write(linkLines(0, 60));
  src.write(linkLines(60, 70));
  assertEquals(page.loadFrame(src.snapshot(30), true), 31);
  assertEquals(
    modelHash(page),
    modelHash(src),
    modelDiff(page, src) ?? undefined,
  );
  assertEquals(checkLinks(page).lost, 0);
});

Deno.test("ext sweep: history slices loaded after the page swept get their own links back", () => {
  const opts = { cols: 40, rows: 10, scrollback: 100_000 };
  const src = new Terminal(opts);
  flood(src, 0, 3000);
  const snap = src.snapshot();
  const page = new Terminal(opts);
  const n = snap.normal.lines.length, first = 50 + snap.rows, older = n - first;
  page.load({
    ...snap,
    normal: {
      ...snap.normal,
      trimmed: snap.normal.trimmed + older,
      lines: snap.normal.lines.slice(older),
    },
  });
  // Output meanwhile: enough new links that the page sweeps, freeing the
  // ids only the older (not yet loaded) lines hold, and reuses them.
  flood(src, 3000, 6000);
  flood(page, 3000, 6000);
  assert(page.stats.extSweeps > 0, "page swept");
  const got = page.prependHistory(
    readNormalLines(snap, 0, older),
    snap.normal.trimmed + older,
    readSnapshotExt(snap),
  );
  assertEquals(got, older);
  assertEquals(
    modelHash(page),
    modelHash(src),
    modelDiff(page, src) ?? undefined,
  );
  assertEquals(checkLinks(page).lost, 0);
});

Deno.test("ext sweep: a packed palette entry a sweep changed is not found again for a new style", () => {
  const store = new PackedStore();
  const line = new Line(4);
  line.set(0, 0x41, 0, 0, 7 << 16);
  const a = store.pack(line);
  assert(mapPackedAttrs(a, (attr) => attr & 0xffff), "changed");
  store.forgetStyles();
  // Id 7 now means another entry: a line packed with it keeps it.
  const b = store.pack(line);
  const out = new Line(4);
  unpackInto(b, out);
  assertEquals(out.attr(0) >>> 16, 7);
  const old = new Line(4);
  unpackInto(a, old);
  assertEquals(old.attr(0) >>> 16, 0);
});
