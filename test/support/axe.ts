import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Every axe-core violation of the page as it is now, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  // The desk's Content-Security-Policy allows no script tag: axe is evaluated through the DevTools protocol instead.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type Found = { id: string; impact: string | null; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: Found[] }> } }).axe;
    const { violations: found } = await axe.run(document);
    return found.map((violation) => `${violation.impact ?? ''} ${violation.id} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  });
}
