import { assertEquals } from "../assert.ts";
import { PagerOnFinder } from "../../client/pager.ts";
import { rng } from "../core/helpers.ts";

const enc = new TextEncoder();

/** Where the sequence ends in the whole stream, found piece by piece. */
function findInPieces(text: string, cuts: number[]): number {
  const data = enc.encode(text);
  const finder = new PagerOnFinder();
  let start = 0;
  for (const end of [...cuts, data.length]) {
    const at = finder.find(data.subarray(start, end));
    if (at >= 0) return start + at;
    start = end;
  }
  return -1;
}

Deno.test("pager: CSI 92;1u is found wherever the output is cut", () => {
  const text = "abc\x1b[31mred\x1b[9\x1b[92;1umore";
  const want = text.indexOf("more");
  assertEquals(findInPieces(text, []), want);
  for (let a = 0; a <= text.length; a++) {
    assertEquals(findInPieces(text, [a]), want, `cut at ${a}`);
    for (let b = a; b <= text.length; b++) {
      assertEquals(findInPieces(text, [a, b]), want, `cuts at ${a}, ${b}`);
    }
  }
});

Deno.test("pager: a prefix that does not go on is no match", () => {
  assertEquals(findInPieces("x\x1b[92;2u", []), -1);
  assertEquals(findInPieces("x\x1b[92;", [5]), -1);
  assertEquals(findInPieces("x\x1b[92;2u", [5]), -1);
  assertEquals(findInPieces("\x1b[92\x1b[92;1u!", [4]), 11);
  // Bytes that went by unseen (reset) break a carried prefix.
  const f = new PagerOnFinder();
  assertEquals(f.find(enc.encode("\x1b[92")), -1);
  f.reset();
  assertEquals(f.find(enc.encode(";1u")), -1);
});

Deno.test("pager: CSI 92;1u is found after many escapes (the skipping scan)", () => {
  const sgr = "\x1b[1;31mx\x1b[0m ".repeat(40);
  const text = `${sgr}\x1b[92;1u${sgr}`;
  const want = sgr.length + 7;
  for (let a = 0; a <= text.length; a += 3) {
    assertEquals(findInPieces(text, [a]), want, `cut at ${a}`);
  }
  assertEquals(findInPieces(`${sgr}\x1b[92;2u${sgr}`, [100]), -1);
});

Deno.test("pager: the finder agrees with a plain search on random output", () => {
  const next = rng(0x5eed);
  const alphabet = ["\x1b", "[", "9", "2", ";", "1", "u", "a", "bcd"];
  for (let round = 0; round < 3000; round++) {
    let text = "";
    const len = Math.floor(next() * 300);
    // The whole sequence is rare, so it often comes after more escapes
    // than the finder checks one by one.
    const whole = round % 2 ? 0.02 : 0;
    for (let k = 0; k < len; k++) {
      text += next() < whole
        ? "\x1b[92;1u"
        : alphabet[Math.floor(next() * alphabet.length)];
    }
    const at = text.indexOf("\x1b[92;1u");
    const want = at < 0 ? -1 : at + 7;
    const cut = Math.floor(next() * text.length);
    const cuts = [cut, Math.max(cut, Math.floor(next() * text.length))];
    assertEquals(
      findInPieces(text, cuts),
      want,
      JSON.stringify({ text, cuts }),
    );
  }
});
