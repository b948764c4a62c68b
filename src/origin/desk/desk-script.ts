import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ERRORS } from '../../error-codes.js';
import { DESK_STATIC_PREFIX } from './session-policy.js';

/** The desk's script as the origin serves it: from memory, under a name holding its content hash. */
export interface DeskScript {
  /** `/admin/static/editor-<hash>.js`. */
  path: string;
  bytes: Buffer;
}

/** The entry beside this module: the TypeScript source under tsx, the compiled file under dist/. */
function entry(): string {
  for (const name of ['client/editor.ts', 'client/editor.js']) {
    const path = fileURLToPath(new URL(`./${name}`, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw ERRORS.DESK_SCRIPT_MISSING();
}

async function buildDeskScript(): Promise<DeskScript> {
  const result = await build({
    entryPoints: [entry()],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw ERRORS.CLIENT_BUILD_FAILED('desk script');
  const bytes = Buffer.from(output.contents);
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 16);
  return { path: `${DESK_STATIC_PREFIX}editor-${hash}.js`, bytes };
}

let built: Promise<DeskScript> | undefined;

/**
 * The desk's script, bundled by esbuild at the origin's start, in memory (a few kilobytes, well under a tenth of a
 * second): a fresh clone's `npm start` serves it with no build step, and the compiled dist/ bundles its compiled
 * entry. Built once per process, however many origin apps it runs (the tests run many).
 */
export function deskScript(): Promise<DeskScript> {
  built ??= buildDeskScript().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}
