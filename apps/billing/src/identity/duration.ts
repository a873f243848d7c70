const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 31_536_000_000 };

/** "90m", "12h", "30d", "2w", "1y" → milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+)\s*([mhdwy])$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration: use a number and a unit m, h, d, w or y (e.g. 30d)`);
  const ms = Number(match[1]) * UNITS[match[2]];
  if (ms <= 0) throw new Error('A token lifetime must be longer than zero');
  return ms;
}
