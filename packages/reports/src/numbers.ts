/** Numbers said one way in every report: grouped thousands (`191,396`), a unit in its number (`1 line`). */
export const count = (n: number): string => Math.round(n).toLocaleString('en-US');

/** `1 line`, `2 lines`, `231,898 lines`: the unit agrees with the number as it is shown. */
export function counted(n: number, unit: string, units = `${unit}s`): string {
  const shown = count(n);
  return `${shown} ${shown === '1' ? unit : units}`;
}
