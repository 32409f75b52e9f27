/**
 * Chunk boundaries must not matter: every corpus, split at every byte into
 * two writes (and fed one byte at a time), gives the same screen, history,
 * cursor, attributes and replies as a single write.
 */
import {
  assertEquals,
  CSI,
  ESC,
  makeTerminal,
  OSC,
  snapshot,
  ST,
} from "./helpers.ts";

const prompt = (cwd: string) =>
  `${OSC}0;user@host: ${cwd}\x07${CSI}01;32muser@host${CSI}00m:${CSI}01;34m${cwd}${CSI}00m$ `;

const shellSession = [
  prompt("~"),
  `${CSI}?2004hls --color${CSI}?2004l\r\n`,
  `${CSI}0m${CSI}01;34mbin${CSI}0m  ${CSI}01;32mbuild.sh${CSI}0m  README.md  ${CSI}01;31marchive.tar.gz${CSI}0m\r\n`,
  prompt("~"),
  "git diff\r\n",
  `${CSI}1mdiff --git a/x.ts b/x.ts${CSI}m\r\n${CSI}36m@@ -1,3 +1,3 @@${CSI}m\r\n`,
  `${CSI}31m-const a = 1;${CSI}m\r\n${CSI}32m+const a = 2;${CSI}m\r\n`,
  `${CSI}38;5;208morange${CSI}39m ${CSI}38;2;10;200;30mtruecolor${CSI}0m ${CSI}4:3;58:2::255:0:0mcurly${CSI}0m\r\n`,
  `${OSC}8;id=f1;file:///home/user/x.ts${ST}x.ts${OSC}8;;${ST} modified\r\n`,
  prompt("~/src"),
  "echo hello wor\b\b\b\x1b[Kworld\r\n",
  "hello world\r\n",
  `${CSI}6n${CSI}c`,
  "a very long line that will certainly wrap around the right edge of a forty column terminal\r\n",
  `${ESC}(0lqqqqk${ESC}(B\r\n`,
  "\x07",
].join("");

const vimRedraw = [
  `${CSI}?1049h${CSI}22;0;0t${CSI}?1h${ESC}=${CSI}H${CSI}2J`,
  `${CSI}?25l`,
  ...Array.from(
    { length: 8 },
    (_, i) =>
      `${CSI}${i + 1};1H${CSI}38;5;130m${String(i + 1).padStart(3)} ${CSI}m` +
      `${
        i % 3 === 0 ? `${CSI}1;34mfunction${CSI}m ` : ""
      }line ${i} text${CSI}K`,
  ),
  `${CSI}9;1H${CSI}7m NORMAL ${CSI}27m  main.ts${CSI}K${CSI}9;30H1,1  Top`,
  `${CSI}1;8r${CSI}8;1H\n${CSI}8;1H${CSI}38;5;130m  9 ${CSI}mnew line${CSI}K`,
  `${CSI}1;1H${ESC}M${CSI}1;1H${CSI}38;5;130m  0 ${CSI}mtop line${CSI}K${CSI}r`,
  `${CSI}3;5H${CSI}2P${CSI}4@XY${CSI}5;1H${CSI}2M${CSI}2L`,
  `${CSI}1 q${CSI}?25h${CSI}4;6H`,
  `${CSI}?1049l${CSI}23;0t${CSI}?1l${ESC}>`,
].join("");

const cjk = [
  "中文字符测试：终端模拟器必须正确处理宽字符。\r\n",
  "日本語のテキスト、カタカナとひらがな。ｈａｌｆ ﾊﾝｶｸ\r\n",
  "한국어 텍스트도 마찬가지입니다.\r\n",
  "Emoji: 😀 👍🏽 👨\u200d👩\u200d👧\u200d👦 ❤\ufe0f 🇩🇪 done\r\n",
  "Combining: e\u0301 a\u0308 n\u0303 \u0915\u094d\u0937 \u1100\u1161\u11a8\r\n",
  "123456789012345678901234567890123456789字wrap\r\n",
  `${CSI}31m红色${CSI}0m ${CSI}4m下划线${CSI}24m\r\n`,
  `${CSI}2;3H${CSI}4h插入${CSI}4l${CSI}10;1H字${CSI}b`,
].join("");

const corpora: [string, string][] = [
  ["shell session", shellSession],
  ["vim redraw", vimRedraw],
  ["CJK", cjk],
];

function runWhole(bytes: Uint8Array) {
  const t = makeTerminal(40, 10, 50);
  t.term.write(bytes);
  return {
    snap: JSON.stringify(snapshot(t.term)),
    replies: t.replies.join("|"),
  };
}

for (const [name, text] of corpora) {
  const bytes = new TextEncoder().encode(text);

  Deno.test(`chunks: ${name} split at every byte`, () => {
    const whole = runWhole(bytes);
    for (let k = 0; k <= bytes.length; k++) {
      const t = makeTerminal(40, 10, 50);
      t.term.write(bytes.subarray(0, k));
      t.term.write(bytes.subarray(k));
      const snap = JSON.stringify(snapshot(t.term));
      if (snap !== whole.snap) {
        throw new Error(`${name}: state differs when split at byte ${k}`);
      }
      assertEquals(t.replies.join("|"), whole.replies, `replies split at ${k}`);
    }
  });

  Deno.test(`chunks: ${name} one byte at a time`, () => {
    const whole = runWhole(bytes);
    const t = makeTerminal(40, 10, 50);
    for (let k = 0; k < bytes.length; k++) {
      t.term.write(bytes.subarray(k, k + 1));
    }
    assertEquals(JSON.stringify(snapshot(t.term)), whole.snap);
    assertEquals(t.replies.join("|"), whole.replies);
  });
}

Deno.test("chunks: the corpora exercise what they should", () => {
  const t = makeTerminal(40, 10, 50);
  t.term.write(shellSession + vimRedraw + cjk);
  // DSR and DA from the shell session.
  assertEquals(t.replies.length, 2);
  assertEquals(t.term.buffer.isAlt, false);
  assertEquals(t.term.title, "user@host: ~/src");
});
