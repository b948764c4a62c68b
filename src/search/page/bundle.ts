import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ERRORS } from '../../error-codes.js';

const ENTRY_BASENAME = 'client';

/**
 * Bundles the search page's script with esbuild, in memory: one minified IIFE for browsers of the last few years.
 * Works from the TypeScript sources and from the compiled `dist` (the entry is the sibling `client.ts` or `client.js`).
 */
export async function bundleSearchPageScript(): Promise<string> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const result = await build({
    entryPoints: [`${here}${ENTRY_BASENAME}.${extension}`],
    bundle: true,
    format: 'iife',
    minify: true,
    target: ['es2020'],
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw ERRORS.CLIENT_BUILD_FAILED('search page script');
  return output.text;
}
