/**
 * The budget of unpacked history lines that a thread's emulators share
 * (server/emulator_pack_budget.ts): many sessions flooding at once must not
 * each keep a whole history as cell arrays until they end.
 */
import { assert, assertEquals } from "../assert.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { UnpackedBudget } from "../../server/emulator_pack_budget.ts";

const encoder = new TextEncoder();

function lines(from: number, n: number): Uint8Array {
  let out = "";
  for (let i = from; i < from + n; i++) {
    out += `\x1b[3${i % 8}mline ${i}\x1b[m of the history 日本 e\u0301\r\n`;
  }
  return encoder.encode(out);
}

Deno.test("pack budget: past it every emulator counted is packed, and the models stay the same", () => {
  // 1,000 lines of 80 columns unpacked: 1.28 MB.
  const budget = new UnpackedBudget<number>(2_000_000);
  const terms: Terminal[] = [];
  const plain: Terminal[] = [];
  for (let i = 0; i < 4; i++) {
    const t = new Terminal({ cols: 80, rows: 24, scrollback: 5000 });
    terms.push(t);
    plain.push(new Terminal({ cols: 80, rows: 24, scrollback: 5000 }));
    budget.add(i, t);
  }
  let packed = 0;
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < terms.length; i++) {
      const data = lines(round * 1000, 1000);
      terms[i].write(data);
      plain[i].write(data);
      packed += budget.parsed(i);
      assert(
        budget.bytes <= budget.budget,
        `${budget.bytes} bytes unpacked counted (budget ${budget.budget})`,
      );
    }
  }
  // 12 writes of ~1,000 history lines each: packed about every second one.
  assert(packed >= 8000, `${packed} lines packed`);
  for (let i = 0; i < terms.length; i++) {
    assertEquals(
      JSON.stringify(terms[i].snapshot()),
      JSON.stringify(plain[i].snapshot()),
    );
  }
});

Deno.test("pack budget: one emulator's history under the budget is not packed while it floods", () => {
  const budget = new UnpackedBudget<string>();
  const t = new Terminal({ cols: 80, rows: 24, scrollback: 10_000 });
  budget.add("a", t);
  let packed = 0;
  for (let k = 0; k < 25; k++) {
    t.write(lines(k * 1000, 1000));
    packed += budget.parsed("a");
  }
  assertEquals(packed, 0);
  // 10,000 lines of 80 columns: 12.8 MB.
  assertEquals(budget.bytes, 10_000 * 80 * 16);
  budget.delete("a");
  assertEquals(budget.bytes, 0);
});

Deno.test("pack budget: a whole snapshot counts the history it unpacked", () => {
  const budget = new UnpackedBudget<string>(20_000_000);
  const t = new Terminal({ cols: 80, rows: 24, scrollback: 10_000 });
  budget.add("a", t);
  t.write(lines(0, 12_000));
  budget.parsed("a");
  t.normalBuffer.compactHistory();
  budget.packed("a");
  assertEquals(budget.bytes, 0);
  t.snapshot(); // unpacks every history line it reads
  assertEquals(budget.unpackedBySnapshot("a", 280), 0);
  assertEquals(budget.bytes, 280 * 80 * 16);
  // The whole history: 12.8 MB, under the budget.
  assertEquals(budget.unpackedBySnapshot("a", Infinity), 0);
  assertEquals(budget.bytes, 10_000 * 80 * 16);
  // A second emulator's whole snapshot passes it: both are packed.
  const u = new Terminal({ cols: 80, rows: 24, scrollback: 10_000 });
  budget.add("b", u);
  u.write(lines(0, 12_000));
  assert(budget.parsed("b") >= 10_000);
  assertEquals(budget.bytes, 0);
});
