import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ERRORS } from '../../error-codes.js';

/**
 * Bundles a browser script with esbuild, in memory: one minified IIFE for browsers of the last few years. `entry` is
 * the entry module's URL without extension (`new URL('./client', import.meta.url)`): it works from the TypeScript
 * sources and from the compiled `dist`, where the entry is the `.ts` or the `.js` file beside the caller.
 */
export async function bundleBrowserScript(entry: URL, what: string): Promise<string> {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const result = await build({
    entryPoints: [`${fileURLToPath(entry)}.${extension}`],
    bundle: true,
    format: 'iife',
    minify: true,
    target: ['es2020'],
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw ERRORS.CLIENT_BUILD_FAILED(what);
  return output.text;
}

/** The search page's script (its entry is the sibling `client.ts`). */
export function bundleSearchPageScript(): Promise<string> {
  return bundleBrowserScript(new URL('./client', import.meta.url), 'search page script');
}
