import { get } from '../../src/edge/test-support/edge-harness.js';
import type { Layers } from './surfaces.js';

/**
 * The listings surfaces.ts leaves out — the feed, the sitemap and one category's page — at the front and the edge:
 * those that name the post when they should not (`shown` false) or do not when they should (`shown` true). A category
 * page with no visible post left answers 404, which lists nothing.
 */
export async function listingsWrong(layers: Layers, oid: string, category: string, shown: boolean): Promise<string[]> {
  const wrong: string[] = [];
  for (const [layer, base] of [['front', layers.frontUrl], ['edge', layers.edgeUrl]] as const) {
    for (const path of ['/feed.xml', '/sitemap.xml', `/plog/category/${encodeURIComponent(category)}`]) {
      const answer = await get(`${base}${path}`);
      const names = answer.body.includes(`/plog/${oid}`);
      const answered = answer.status === 200 || (!shown && answer.status === 404 && path.startsWith('/plog/category/'));
      if (!answered || names !== shown) wrong.push(`${layer} ${path} (${answer.status})`);
    }
  }
  return wrong;
}
