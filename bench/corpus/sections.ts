/** A prose section of a content build's `index.json` body. */
export interface ProseSection {
  type: 'prose';
  value: { id: string; title: string; content: string };
}

/** What the next section is: its title, its id, and about how many bytes of blocks it holds. */
export interface SectionPlan {
  title: string;
  id: string;
  bytes: number;
}

/**
 * Prose sections of blocks until the body holds `targetBytes`: `next(remaining, index)` plans each section, `block()`
 * writes its blocks. Both draw from the corpus's seeded generator, in this order, so a corpus stays the same.
 */
export function proseBody(targetBytes: number, next: (remaining: number, index: number) => SectionPlan, block: () => string): ProseSection[] {
  const body: ProseSection[] = [];
  let bytes = 0;
  while (bytes < targetBytes) {
    const section = next(targetBytes - bytes, body.length);
    const blocks: string[] = [];
    let length = 0;
    while (length < section.bytes) {
      const html = block();
      blocks.push(html);
      length += html.length;
    }
    body.push({ type: 'prose', value: { id: section.id, title: section.title, content: blocks.join('\n') } });
    bytes += length;
  }
  return body;
}
