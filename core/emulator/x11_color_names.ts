/**
 * The X11 colour names (the server's rgb.txt) as data: lower case, spaces
 * removed; "grey" spellings are found through their "gray" twin, and
 * gray0-gray100 are computed (see {@link lookupX11Color}).
 *
 * Not every numbered variant of rgb.txt is listed: the primaries'
 * (red1-red4, green1-4, blue1-4, cyan1-4, magenta1-4, yellow1-4) are.
 *
 * @module
 */

/** name -> "rrggbb". */
const NAMES: Record<string, string> = Object.fromEntries(
  (
    "snow fffafa,ghostwhite f8f8ff,whitesmoke f5f5f5,gainsboro dcdcdc," +
    "floralwhite fffaf0,oldlace fdf5e6,linen faf0e6,antiquewhite faebd7," +
    "papayawhip ffefd5,blanchedalmond ffebcd,bisque ffe4c4,peachpuff ffdab9," +
    "navajowhite ffdead,moccasin ffe4b5,cornsilk fff8dc,ivory fffff0," +
    "lemonchiffon fffacd,seashell fff5ee,honeydew f0fff0,mintcream f5fffa," +
    "azure f0ffff,aliceblue f0f8ff,lavender e6e6fa,lavenderblush fff0f5," +
    "mistyrose ffe4e1,white ffffff,black 000000,darkslategray 2f4f4f," +
    "dimgray 696969,slategray 708090,lightslategray 778899,gray bebebe," +
    "lightgray d3d3d3,midnightblue 191970,navy 000080,navyblue 000080," +
    "cornflowerblue 6495ed,darkslateblue 483d8b,slateblue 6a5acd," +
    "mediumslateblue 7b68ee,lightslateblue 8470ff,mediumblue 0000cd," +
    "royalblue 4169e1,blue 0000ff,dodgerblue 1e90ff,deepskyblue 00bfff," +
    "skyblue 87ceeb,lightskyblue 87cefa,steelblue 4682b4," +
    "lightsteelblue b0c4de,lightblue add8e6,powderblue b0e0e6," +
    "paleturquoise afeeee,darkturquoise 00ced1,mediumturquoise 48d1cc," +
    "turquoise 40e0d0,cyan 00ffff,lightcyan e0ffff,cadetblue 5f9ea0," +
    "mediumaquamarine 66cdaa,aquamarine 7fffd4,darkgreen 006400," +
    "darkolivegreen 556b2f,darkseagreen 8fbc8f,seagreen 2e8b57," +
    "mediumseagreen 3cb371,lightseagreen 20b2aa,palegreen 98fb98," +
    "springgreen 00ff7f,lawngreen 7cfc00,green 00ff00,chartreuse 7fff00," +
    "mediumspringgreen 00fa9a,greenyellow adff2f,limegreen 32cd32," +
    "yellowgreen 9acd32,forestgreen 228b22,olivedrab 6b8e23," +
    "darkkhaki bdb76b,khaki f0e68c,palegoldenrod eee8aa," +
    "lightgoldenrodyellow fafad2,lightyellow ffffe0,yellow ffff00," +
    "gold ffd700,lightgoldenrod eedd82,goldenrod daa520," +
    "darkgoldenrod b8860b,rosybrown bc8f8f,indianred cd5c5c," +
    "saddlebrown 8b4513,sienna a0522d,peru cd853f,burlywood deb887," +
    "beige f5f5dc,wheat f5deb3,sandybrown f4a460,tan d2b48c," +
    "chocolate d2691e,firebrick b22222,brown a52a2a,darksalmon e9967a," +
    "salmon fa8072,lightsalmon ffa07a,orange ffa500,darkorange ff8c00," +
    "coral ff7f50,lightcoral f08080,tomato ff6347,orangered ff4500," +
    "red ff0000,hotpink ff69b4,deeppink ff1493,pink ffc0cb," +
    "lightpink ffb6c1,palevioletred db7093,maroon b03060," +
    "mediumvioletred c71585,violetred d02090,magenta ff00ff," +
    "violet ee82ee,plum dda0dd,orchid da70d6,mediumorchid ba55d3," +
    "darkorchid 9932cc,darkviolet 9400d3,blueviolet 8a2be2," +
    "purple a020f0,mediumpurple 9370db,thistle d8bfd8,darkgray a9a9a9," +
    "darkblue 00008b,darkcyan 008b8b,darkmagenta 8b008b,darkred 8b0000," +
    "lightgreen 90ee90,crimson dc143c,indigo 4b0082,olive 808000," +
    "rebeccapurple 663399,silver c0c0c0,teal 008080,aqua 00ffff," +
    "fuchsia ff00ff,lime 00ff00,webgray 808080,webgreen 008000," +
    "webmaroon 800000,webpurple 800080,x11gray bebebe,x11green 00ff00," +
    "x11maroon b03060,x11purple a020f0"
  ).split(",").map((e) => e.split(" ") as [string, string]),
);

/** The numbered variants of the primaries: 1 full, 2 238, 3 205, 4 139. */
const PRIMARIES: Record<string, [number, number, number]> = {
  red: [1, 0, 0],
  green: [0, 1, 0],
  blue: [0, 0, 1],
  cyan: [0, 1, 1],
  magenta: [1, 0, 1],
  yellow: [1, 1, 0],
};
const LEVELS = [255, 238, 205, 139];

/**
 * The 8-bit RGB of an X11 colour name, case- and space-insensitive
 * ("Navy Blue", "navyblue", "LightGrey", "gray50"), or null.
 */
export function lookupX11Color(name: string): [number, number, number] | null {
  const key = name.toLowerCase().replace(/ /g, "").replace(/grey/g, "gray");
  const hex = NAMES[key];
  if (hex !== undefined) {
    const v = parseInt(hex, 16);
    return [v >> 16, (v >> 8) & 0xff, v & 0xff];
  }
  const gray = /^gray([0-9]{1,3})$/.exec(key);
  if (gray) {
    const n = parseInt(gray[1], 10);
    if (n > 100 || gray[1].length > 1 && gray[1][0] === "0") return null;
    // rgb.txt rounds n * 2.55 as a double does (gray50 is 127, gray10 26).
    const v = Math.round(n * 2.55);
    return [v, v, v];
  }
  const num = /^([a-z]+)([1-4])$/.exec(key);
  if (num && PRIMARIES[num[1]]) {
    const l = LEVELS[parseInt(num[2], 10) - 1];
    const [r, g, b] = PRIMARIES[num[1]];
    return [r * l, g * l, b * l];
  }
  return null;
}
