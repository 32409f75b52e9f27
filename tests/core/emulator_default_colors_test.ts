/**
 * A terminal's configured default colours (a theme: `colors` in the
 * options, or `setDefaultColors`): colour queries (OSC 4 / 5 / 10-19)
 * answer them, and OSC 104 / 105 / 110-119 and RIS go back to them, not
 * to the built-in d0d0d0 on black. As esctest2's ResetColor tests put it:
 * after a reset the query answers what it answered at the start.
 */
import { assertEquals, ESC, OSC, ST } from "./helpers.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { BUILTIN_DEFAULT_COLORS } from "../../core/emulator/colors.ts";

const THEME = {
  foreground: "#102030",
  background: "#fdf6e3",
  cursor: "#ff8800",
  palette: ["#010203", "#dc322f"],
};

function themed(colors = THEME): { term: Terminal; replies: string[] } {
  const replies: string[] = [];
  const term = new Terminal({
    cols: 80,
    rows: 24,
    reply: (d) => replies.push(d),
    colors,
  });
  return { term, replies };
}

/** Write `input`, return the replies it brought. */
function ask(t: { term: Terminal; replies: string[] }, input: string) {
  t.replies.length = 0;
  t.term.write(input);
  return [...t.replies];
}

Deno.test("default colours: queries answer the configured theme", () => {
  const t = themed();
  assertEquals(ask(t, `${OSC}10;?;?;?${ST}`), [
    `${OSC}10;rgb:1010/2020/3030${ST}`,
    `${OSC}11;rgb:fdfd/f6f6/e3e3${ST}`,
    `${OSC}12;rgb:ffff/8888/0000${ST}`,
  ]);
  assertEquals(ask(t, `${OSC}4;0;?;1;?;2;?${ST}`), [
    `${OSC}4;0;rgb:0101/0202/0303${ST}`,
    `${OSC}4;1;rgb:dcdc/3232/2f2f${ST}`,
    `${OSC}4;2;rgb:0000/cdcd/0000${ST}`, // past the theme's palette: xterm's
  ]);
  // Colours that follow the text colours follow the theme's.
  assertEquals(ask(t, `${OSC}5;0;?${ST}${OSC}14;?${ST}`), [
    `${OSC}5;0;rgb:1010/2020/3030${ST}`,
    `${OSC}14;rgb:fdfd/f6f6/e3e3${ST}`,
  ]);
});

Deno.test("default colours: resets go back to the theme", () => {
  const t = themed();
  t.term.write(`${OSC}10;red;blue;green${ST}${OSC}4;1;blue;2;red${ST}`);
  t.term.write(`${OSC}110${ST}${OSC}111${ST}${OSC}112${ST}${OSC}104;1${ST}`);
  assertEquals(ask(t, `${OSC}10;?;?;?${ST}${OSC}4;1;?;2;?${ST}`), [
    `${OSC}10;rgb:1010/2020/3030${ST}`,
    `${OSC}11;rgb:fdfd/f6f6/e3e3${ST}`,
    `${OSC}12;rgb:ffff/8888/0000${ST}`,
    `${OSC}4;1;rgb:dcdc/3232/2f2f${ST}`,
    `${OSC}4;2;rgb:ffff/0000/0000${ST}`, // not reset
  ]);
  t.term.write(`${OSC}4;0;red${ST}${OSC}11;red${ST}${ESC}c`);
  assertEquals(ask(t, `${OSC}4;0;?${ST}${OSC}11;?${ST}`), [
    `${OSC}4;0;rgb:0101/0202/0303${ST}`,
    `${OSC}11;rgb:fdfd/f6f6/e3e3${ST}`,
  ]);
});

Deno.test("default colours: setDefaultColors changes what a reset returns to", () => {
  const t = themed();
  t.term.write(`${OSC}10;red${ST}`);
  t.term.setDefaultColors({ foreground: "#aabbcc", palette: ["navy"] });
  // A colour the program set stays until it is reset.
  assertEquals(ask(t, `${OSC}10;?${ST}`), [`${OSC}10;rgb:ffff/0000/0000${ST}`]);
  assertEquals(ask(t, `${OSC}110${ST}${OSC}10;?;?${ST}${OSC}4;0;?${ST}`), [
    `${OSC}10;rgb:aaaa/bbbb/cccc${ST}`,
    `${OSC}11;rgb:fdfd/f6f6/e3e3${ST}`, // not given: unchanged
    `${OSC}4;0;rgb:0000/0000/8080${ST}`, // an X colour name works too
  ]);
  assertEquals(t.term.defaultColors.foreground, "#aabbcc");
  assertEquals(t.term.defaultColors.palette.length, 256);
  // A colour that does not parse leaves the default as it was.
  t.term.setDefaultColors({ background: "not a colour" });
  assertEquals(t.term.defaultColors.background, "#fdf6e3");
});

Deno.test("default colours: a snapshot restored keeps the terminal's own", () => {
  const t = themed();
  t.term.write(`${OSC}4;3;red${ST}`);
  const snap = t.term.snapshot();
  // Another terminal with other defaults loads it: the program's colour
  // comes along, the defaults are that terminal's.
  const other = themed({ ...THEME, foreground: "#445566" });
  other.term.load(snap);
  assertEquals(ask(other, `${OSC}4;3;?${ST}${OSC}10;?${ST}`), [
    `${OSC}4;3;rgb:ffff/0000/0000${ST}`,
    `${OSC}10;rgb:4444/5555/6666${ST}`,
  ]);
  const replies: string[] = [];
  const restored = Terminal.restore(snap, {
    reply: (d) => replies.push(d),
    colors: { foreground: "#778899" },
  });
  restored.write(`${OSC}10;?${ST}`);
  assertEquals(replies, [`${OSC}10;rgb:7777/8888/9999${ST}`]);
});

Deno.test("default colours: without a theme, today's defaults", () => {
  const t = themed({} as typeof THEME);
  assertEquals(t.term.defaultColors, {
    ...BUILTIN_DEFAULT_COLORS,
    palette: [...BUILTIN_DEFAULT_COLORS.palette],
  });
  assertEquals(ask(t, `${OSC}10;?;?;?${ST}`), [
    `${OSC}10;rgb:d0d0/d0d0/d0d0${ST}`,
    `${OSC}11;rgb:0000/0000/0000${ST}`,
    `${OSC}12;rgb:d0d0/d0d0/d0d0${ST}`,
  ]);
});
