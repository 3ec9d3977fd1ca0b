/** The frame every chart of the report draws in (SVG user units): one width and the same margins, so charts line up. */
export const CHART_FRAME = Object.freeze({ width: 1000, left: 48, right: 16, bottom: 40 });
