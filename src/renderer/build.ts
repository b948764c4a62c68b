import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ERRORS } from '../error-codes.js';

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
}

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
  throw ERRORS.CLIENT_ENTRY_MISSING('the renderer client entry (client.tsx or client.js) is missing beside build.js');
}

/**
 * Bundles the client with esbuild and writes it under its content hash, then points the manifest at it. Building the
 * same sources again gives the same build id and rewrites nothing, so calling this at every start is cheap and safe.
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
    logLevel: 'silent',
    ...(options.banner === undefined ? {} : { banner: { js: `/* ${options.banner.replace(/\*\//g, '* /')} */` } }),
  });
  const bundle = result.outputFiles[0];
  if (bundle === undefined) throw ERRORS.CLIENT_BUILD_FAILED('esbuild produced no client bundle');
  const buildId = createHash('sha256').update(bundle.contents).digest('base64url').slice(0, 16);
  const manifest: ClientManifest = { buildId, script: 'client.js' };
  const folder = join(options.outDir, buildId);
  if (!existsSync(join(folder, manifest.script))) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, manifest.script), bundle.contents);
  }
  const manifestFile = join(options.outDir, 'manifest.json');
  const temporary = `${manifestFile}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(manifest)}\n`);
  renameSync(temporary, manifestFile);
  return manifest;
}

/** Reads the current build named by `<outDir>/manifest.json` into memory. */
export function loadClientBuild(outDir: string): ClientBuild {
  let manifest: ClientManifest;
  try {
    manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as ClientManifest;
  } catch (error) {
    throw ERRORS.CLIENT_BUILD_MISSING.with({ cause: error }, `no client build in ${outDir}: run buildClient (sitestack front and start do)`);
  }
  if (typeof manifest.buildId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(manifest.buildId) || typeof manifest.script !== 'string') {
    throw ERRORS.CLIENT_BUILD_INVALID(`the client manifest in ${outDir} is malformed`);
  }
  const files = new Map([[manifest.script, readFileSync(join(outDir, manifest.buildId, manifest.script))]]);
  return { ...manifest, files };
}
