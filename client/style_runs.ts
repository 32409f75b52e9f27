/**
 * Line -> HTML for one display row: the renderer's hot path. The painter
 * lives in `core/style_runs.ts`, shared with the saved-HTML serializer
 * (`core/serialize/html.ts`), so the window and a saved file draw cells
 * the same way.
 *
 * @module
 */
export { drawnEnd, RowPainter } from "../core/style_runs.ts";
