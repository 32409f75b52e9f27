/**
 * Frames (docs/protocol.md, "Frames"): a snapshot with only the newest
 * history lines, loaded over a terminal that keeps the history it has
 * where it joins up, and a large snapshot's history loaded in slices
 * above its screen: each ends with the same model as the terminal the
 * snapshots were taken from.
 */
import { assert, assertEquals } from "../assert.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { modelDiff, modelHash } from "../../core/serialize/model_hash.ts";
import { readNormalLines } from "../../core/serialize/snapshot.ts";

const SCROLLBACK = 500;

function term(): Terminal {
  return new Terminal({ cols: 40, rows: 10, scrollback: SCROLLBACK });
}

/** Some lines with colours, links and wide characters. */
function lines(from: number, to: number): string {
  let s = "";
  for (let i = from; i < to; i++) {
    s += i % 3 === 0
      ? `\x1b[3${i % 8}mline ${i}\x1b[0m 日本 \x1b[4:3;58:5:${
        i % 200
      }mu\x1b[0m\r\n`
      : `\x1b]8;;https://x/${i % 5}\x1b\\link ${i}\x1b]8;;\x1b\\\r\n`;
  }
  return s;
}

function same(a: Terminal, b: Terminal): void {
  assertEquals(modelHash(a), modelHash(b), modelDiff(a, b) ?? undefined);
}

Deno.test("frame snapshot: historyTail keeps only the newest history lines, trimmed counts the rest", () => {
  const t = term();
  t.write(lines(0, 100));
  const full = t.snapshot(), tail = t.snapshot(20);
  assertEquals(tail.normal.lines.length, 20 + t.rows);
  assertEquals(
    tail.normal.trimmed,
    full.normal.trimmed + full.normal.lines.length - 20 - t.rows,
  );
  assertEquals(tail.normal.lines, full.normal.lines.slice(-(20 + t.rows)));
});

Deno.test("frame snapshot: a page fed frames that join up ends with the source's whole model", () => {
  const src = term(), page = term();
  src.write(lines(0, 50));
  page.write(lines(0, 50));
  // Less than a frame's tail came since: the page's history joins up.
  src.write(lines(50, 70));
  assertEquals(page.loadFrame(src.snapshot(30), true), 31);
  same(page, src);
  src.write(lines(70, 95));
  page.loadFrame(src.snapshot(30), true);
  same(page, src);
});

Deno.test("frame snapshot: a frame past a gap holds only its lines; a grid change keeps nothing", () => {
  const src = term(), page = term();
  page.write(lines(0, 20));
  src.write(lines(0, 300));
  assertEquals(page.loadFrame(src.snapshot(30), true), 0);
  assertEquals(page.normalBuffer.historyLength, 30);
  const a = term(), b = term();
  a.write(lines(0, 40));
  b.write(lines(0, 40));
  a.write(lines(40, 45));
  assertEquals(b.loadFrame(a.snapshot(20), false), 0);
  assertEquals(b.normalBuffer.historyLength, 20);
});

Deno.test("frame snapshot: a history loaded in slices above its screen is the source's", () => {
  const src = term();
  src.write(lines(0, 400));
  const snap = src.snapshot();
  const page = term();
  // The screen and 50 history lines first, then slices of 64, newest first.
  const n = snap.normal.lines.length, first = 50 + snap.rows;
  page.load({
    ...snap,
    normal: {
      ...snap.normal,
      trimmed: snap.normal.trimmed + n - first,
      lines: snap.normal.lines.slice(n - first),
    },
  });
  // Output meanwhile is parsed as usual (both sides).
  src.write(lines(400, 405));
  page.write(lines(400, 405));
  for (let to = n - first; to > 0; to -= 64) {
    const from = Math.max(0, to - 64);
    const got = page.prependHistory(
      readNormalLines(snap, from, to),
      snap.normal.trimmed + to,
    );
    assertEquals(got, to - from);
  }
  same(page, src);
  // A slice that does not join up goes nowhere.
  assertEquals(
    page.prependHistory(
      readNormalLines(snap, 0, 5),
      snap.normal.trimmed + 5,
    ),
    0,
  );
  assert(page.normalBuffer.historyLength <= SCROLLBACK);
});
