/**
 * The layers of src/, lowest first. A module may import its own layer and the layers below it, never one above; no
 * import cycle anywhere. Type-only imports count: a type names a dependency as much as a value does.
 * docs/architecture.md explains each layer.
 */
const LAYERS = [
  {
    name: 'base',
    comment: 'utilities every layer uses: errors, logging, escaping, limits, test helpers',
    path: ['^src/[^/]+\\.tsx?$', '^src/test-support/'],
    pathNot: ['^src/(config|cli|surrogate-keys)(\\.test)?\\.ts$'],
  },
  { name: 'http', comment: 'HTTP pieces every server shares', path: ['^src/http/'] },
  { name: 'fleet', comment: 'the fleet of fronts over Redis: the purge stream, its readers and their membership', path: ['^src/fleet/'] },
  {
    name: 'search-core',
    comment: 'search engines, analysis and the indexing pipeline',
    path: ['^src/search/'],
    pathNot: ['^src/search/(api|page)/', '^src/search/index\\.ts$', '^src/search/test-support/(search-server|api-requests)\\.ts$'],
  },
  {
    name: 'features',
    comment: 'the renderer, origin, edge, search API and page, songs, the proxy, and the site-wide surrogate keys they share',
    path: [
      '^src/(renderer|origin|edge|songs|proxy)/',
      '^src/search/(api|page)/',
      '^src/search/index\\.ts$',
      '^src/search/test-support/(search-server|api-requests)\\.ts$',
      '^src/surrogate-keys(\\.test)?\\.ts$',
    ],
  },
  { name: 'wiring', comment: 'configuration and the server processes', path: ['^src/config(\\.test)?\\.ts$', '^src/server/'] },
  { name: 'cli', comment: 'the command line', path: ['^src/cli\\.ts$'] },
];

const either = (patterns) => patterns.join('|');

const layerRules = LAYERS.slice(0, -1).map((layer, index) => {
  const above = LAYERS.slice(index + 1);
  return {
    name: `layer-${layer.name}`,
    comment: `${layer.comment}: imports nothing from ${above.map((higher) => higher.name).join(', ')}`,
    severity: 'error',
    from: { path: either(layer.path), ...(layer.pathNot ? { pathNot: either(layer.pathNot) } : {}) },
    to: { path: either(above.flatMap((higher) => higher.path)) },
  };
});

export default {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'no module reaches itself through its imports, index.ts files included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'package-self-contained',
      comment: 'the page cache package (packages/page-cache) imports only its own files and its declared dependencies',
      severity: 'error',
      from: { path: '^packages/page-cache/' },
      to: { dependencyTypesNot: ['core', 'npm', 'npm-dev'], pathNot: '^packages/page-cache/' },
    },
    {
      name: 'layer-unknown',
      comment: 'every module under src/ belongs to a layer: name a new folder in LAYERS',
      severity: 'error',
      from: { path: '^src/', pathNot: either(LAYERS.flatMap((layer) => layer.path)) },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '^src/.*\\.d\\.ts$' },
  },
};
