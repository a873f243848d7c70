/**
 * The sections of a tool description written for the model, by the convention of
 * `@McpTool({ description })` ("When to use: … Never use for: … Side effects: … Success criteria: …
 * Fallback: …"). Only `Side effects` tells the person deciding what Continue does; the others are
 * instructions to the agent (when to call, how to read the answer, what to try next).
 */
const SECTION = /(?<=^|[.!?;:]\s+)(When to use|Never use for|Side effects|Success criteria|Fallback)\s*:\s*/gi;
const FOR_PEOPLE = new Set(['side effects']);

/**
 * What a tool does, told to the person who confirms it (the in-chat question, an approval page):
 * the description without its guidance for the model (the unlabelled lead, if any, and
 * `Side effects: …`). A description that does not follow the convention is shown whole: it is all
 * there is.
 */
export function personFacingSummary(description: string | undefined): string {
  const text = (description ?? '').trim();
  const sections = [...text.matchAll(SECTION)];
  if (!sections.length) return text;
  const kept = [text.slice(0, sections[0].index).trim()];
  sections.forEach((section, i) => {
    const end = i + 1 < sections.length ? sections[i + 1].index : text.length;
    if (FOR_PEOPLE.has(section[1].toLowerCase())) kept.push(`${section[1]}: ${text.slice(section.index + section[0].length, end).trim()}`);
  });
  return kept.filter(Boolean).join(' ');
}
