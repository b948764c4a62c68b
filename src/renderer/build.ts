import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { build } from 'esbuild';
import { ERRORS } from '../error-codes.js';
import type { Compressed } from '@sitestack/page-cache';

/** What `buildClient` writes to `<outDir>/manifest.json` and the renderer reads at start. */
export interface ClientManifest {
  /** Content hash of the client bundle; names the static folder and the data routes. */
  buildId: string;
  /** The bundle's file name inside `<outDir>/<buildId>/`. */
  script: string;
}

export interface BuildClientOptions {
  /** Where builds go: `<outDir>/<buildId>/client.js` and `<outDir>/manifest.json`. */
  outDir: string;
  /** @default true */
  minify?: boolean;
  /** Text put at the top of the bundle (a release note or licence line); it changes the build id like any code change. */
  banner?: string;
}

export interface ClientBuild extends ClientManifest {
  /** The bundle's bytes, served from memory. */
  files: ReadonlyMap<string, Buffer>;
  /** The bundle in each content coding, made once by `buildClient` beside it (`client.js.br`, `client.js.gz`). */
  encoded: Readonly<Record<Compressed, Buffer>>;
}

/** The file name suffix of the bundle in each coding. */
const SUFFIXES: Readonly<Record<Compressed, string>> = { br: '.br', gzip: '.gz' };

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The bundle's bytes in `coding`, at the highest levels: it never changes once built, so it is compressed once per
 * build (brotli 11 takes about 0.3 s on it) and every reader gets the smallest bytes.
 */
function compressBundle(bytes: Uint8Array, coding: Compressed): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(bytes, { level: 9 });
  return brotliAsync(bytes, {
    params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
}

/** Writes through a temporary file and a rename: front workers built at once never read a half-written file. */
function writeWhole(path: string, bytes: Uint8Array | string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

/** The folder holding this project's node_modules: two up from this module, under src/ or under dist/. */
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

const PREACT_ALIASES = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
};

/** The client entry beside this module: the TypeScript source under tsx, the compiled file under dist/. */
function clientEntry(): string {
  for (const name of ['client.tsx', 'client.js']) {
    const path = fileURLToPath(new URL(`./${name}`, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw ERRORS.CLIENT_ENTRY_MISSING();
}

/**
 * Bundles the client with esbuild and writes it under its content hash, with its brotli and gzip copies, then points
 * the manifest at it. Building the same sources again gives the same build id and rewrites nothing (a build folder
 * lacking a copy gets it), so calling this at every start is cheap and safe.
 */
export async function buildClient(options: BuildClientOptions): Promise<ClientManifest> {
  const result = await build({
    entryPoints: [clientEntry()],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: options.minify ?? true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    // The browser runs the pages' React components on Preact's compatibility layer: the same hooks and hydration,
    // in about a tenth of React DOM's size, which keeps a page's script inside its 30 KB budget (issue 21). The server
    // still renders with React.
    alias: PREACT_ALIASES,
    // esbuild resolves an alias's target from its working directory: the project's, whatever folder sitestack runs in.
    absWorkingDir: PROJECT_ROOT,
    logLevel: 'silent',
    ...(options.banner === undefined ? {} : { banner: { js: `/* ${options.banner.replace(/\*\//g, '* /')} */` } }),
  });
  const bundle = result.outputFiles[0];
  if (bundle === undefined) throw ERRORS.CLIENT_BUILD_FAILED('client bundle');
  const buildId = createHash('sha256').update(bundle.contents).digest('base64url').slice(0, 16);
  const manifest: ClientManifest = { buildId, script: 'client.js' };
  const script = join(options.outDir, buildId, manifest.script);
  mkdirSync(join(options.outDir, buildId), { recursive: true });
  if (!existsSync(script)) writeWhole(script, bundle.contents);
  for (const coding of ['br', 'gzip'] as const) {
    const path = `${script}${SUFFIXES[coding]}`;
    if (!existsSync(path)) writeWhole(path, await compressBundle(bundle.contents, coding));
  }
  writeWhole(join(options.outDir, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  return manifest;
}

/** Reads the current build named by `<outDir>/manifest.json` into memory. */
export function loadClientBuild(outDir: string): ClientBuild {
  let manifest: ClientManifest;
  try {
    manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as ClientManifest;
  } catch (error) {
    throw ERRORS.CLIENT_BUILD_MISSING.with({ cause: error }, outDir);
  }
  if (typeof manifest.buildId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(manifest.buildId) || typeof manifest.script !== 'string') {
    throw ERRORS.CLIENT_BUILD_INVALID(outDir);
  }
  const script = join(outDir, manifest.buildId, manifest.script);
  const read = (path: string) => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw ERRORS.CLIENT_BUILD_MISSING.with({ cause: error }, outDir, path);
    }
  };
  const files = new Map([[manifest.script, read(script)]]);
  return { ...manifest, files, encoded: { br: read(`${script}${SUFFIXES.br}`), gzip: read(`${script}${SUFFIXES.gzip}`) } };
}
