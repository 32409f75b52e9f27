/**
 * The row factory: the HTML of one `div.dt-row` drawn from a model line
 * (its cells through client/style_runs.ts's RowPainter), and the classes
 * that tell a row's line size and soft wrap.
 *
 * @module
 */
import {
  type Line,
  LINE_DOUBLE_BOTTOM,
  LINE_DOUBLE_TOP,
  LINE_DOUBLE_WIDTH,
  LINE_SINGLE,
  type LineSize,
} from "../../core/model/line.ts";
import type { RowPainter } from "../style_runs.ts";

/** Class of a row (or text chunk) whose last line goes on (client/selection.ts). */
export const WRAPPED = "dt-wrapped";

/** Class names of DEC line sizes (ESC # 5/6/3/4), see core/model/line.ts. */
const SIZE_CLASS: Readonly<Record<LineSize, string>> = {
  [LINE_SINGLE]: "",
  [LINE_DOUBLE_WIDTH]: " dt-dw",
  [LINE_DOUBLE_TOP]: " dt-dh-top",
  [LINE_DOUBLE_BOTTOM]: " dt-dh-bottom",
};

/** The class attribute of a row drawn from `line`. */
export function rowClass(line: Line): string {
  return (line.wrapped ? "dt-row dt-wrapped" : "dt-row") +
    SIZE_CLASS[line.size];
}

/** The element of a row drawn from `line` (painter.drawnCells tells its cells). */
export function rowHtml(line: Line, painter: RowPainter): string {
  return `<div class="${rowClass(line)}">${painter.html(line)}</div>`;
}
