/**
 * `releaseExecutablePages` (server/full_gc.ts): the resident pages of the
 * deno executable's read-only mappings are let go, the mappings it wrote to
 * are left alone, and the process goes on working (the pages come back from
 * the file as they are used).
 */
import { assert, assertEquals } from "../assert.ts";
import {
  readOnlyMappingsOf,
  releaseExecutablePages,
} from "../../server/full_gc.ts";

const SMAPS = `55d0a0000000-55d0a2000000 r--p 00000000 08:01 123 /usr/bin/deno
Size:              32768 kB
Rss:                9000 kB
Anonymous:             0 kB
55d0a2000000-55d0a8000000 r-xp 02000000 08:01 123 /usr/bin/deno
Size:              98304 kB
Anonymous:             0 kB
55d0a8000000-55d0a8100000 r--p 08000000 08:01 123 /usr/bin/deno
Size:               1024 kB
Anonymous:           800 kB
55d0a8100000-55d0a8200000 rw-p 08100000 08:01 123 /usr/bin/deno
Anonymous:          1024 kB
7f0000000000-7f0000100000 r-xp 00000000 08:01 456 /usr/lib/libc.so.6
Anonymous:             0 kB
7f0000200000-7f0000300000 r--p 00000000 08:01 777 /usr/bin/deno-other
Anonymous:             0 kB
7f0000400000-7f0000500000 rw-p 00000000 00:00 0
Anonymous:          1024 kB
`;

Deno.test("readOnlyMappingsOf: the executable's mappings that are not written and hold no anonymous page", () => {
  assertEquals(readOnlyMappingsOf(SMAPS, "/usr/bin/deno"), [
    { start: 0x55d0a0000000n, end: 0x55d0a2000000n },
    { start: 0x55d0a2000000n, end: 0x55d0a8000000n },
  ]);
  assertEquals(readOnlyMappingsOf(SMAPS, "/nowhere"), []);
});

/** KB resident of the executable's mappings in /proc/self/smaps. */
function executableRssKb(): number {
  const exe = Deno.realPathSync(Deno.execPath());
  let kb = 0;
  let inExe = false;
  for (const line of Deno.readTextFileSync("/proc/self/smaps").split("\n")) {
    const m = /^[0-9a-f]+-[0-9a-f]+ \S{4} \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) inExe = m[1] === exe;
    else if (inExe && line.startsWith("Rss:")) {
      kb += Number(line.split(/\s+/)[1]);
    }
  }
  return kb;
}

Deno.test({
  name:
    "releaseExecutablePages: the executable's resident pages go, and the process goes on working",
  ignore: Deno.build.os !== "linux",
  fn: () => {
    const before = executableRssKb();
    const released = releaseExecutablePages();
    const after = executableRssKb();
    console.log(
      `executable resident ${(before / 1024).toFixed(1)} MiB, ${
        (after / 1024).toFixed(1)
      } MiB after letting ${(released / 1048576).toFixed(0)} MiB go`,
    );
    assert(released > 0, "nothing released");
    // What this test ran between the two readings brought some back.
    assert(after < before / 2, `${after} KB resident, ${before} KB before`);
    // Code, the snapshot's data and ICU's come back from the file.
    const text = JSON.stringify({ a: [1, 2, 3], b: "é".normalize("NFD") });
    assertEquals(JSON.parse(text).a, [1, 2, 3]);
    assertEquals(
      new Intl.DateTimeFormat("en", { timeZone: "UTC" }).format(0),
      "1/1/1970",
    );
    assert(/\p{Emoji}/u.test("😀"));
    assert(executableRssKb() > after);
  },
});
