import type Database from 'better-sqlite3';
import { seededRandom } from '../seeded-random.js';

interface Subject {
  slug: string;
  name: string;
  categories: string[];
  sentences: string[];
  snippet: string;
}

const SUBJECTS: Subject[] = [
  {
    slug: 'http-caching',
    name: 'HTTP caching',
    categories: ['Web', 'Performance'],
    sentences: [
      'A response that carries <code>Cache-Control: public, max-age=86400</code> may be kept by every cache between the server and the reader for a day.',
      'The cheapest request is the one that never reaches the origin, and a shared cache turns a thousand identical page views into one render.',
      'Validation with <code>ETag</code> and <code>If-None-Match</code> saves bandwidth, but it still costs a round trip to the server.',
      'Private responses, such as a page that greets a signed-in reader by name, must never land in a shared cache.',
      'The <code>Vary</code> header tells a cache which request headers change the answer, and every value it lists multiplies the number of stored copies.',
      'An explicit purge is the only way to make a long-lived cached page change the moment its content does.',
      'Browsers keep their own copy as well, so a purge on the server cannot reach a page a reader already holds.',
      'Immutable assets with a content hash in their URL can be cached for a year, because a new version simply gets a new URL.',
    ],
    snippet: 'Cache-Control: public, max-age=31536000, immutable',
  },
  {
    slug: 'server-rendering',
    name: 'server-side rendering',
    categories: ['React', 'Web'],
    sentences: [
      'Rendering on the server sends readable HTML in the first response, so the page shows before any script has run.',
      'Hydration attaches the client components to the HTML the server produced instead of building the page a second time.',
      'A render that waits on a slow data source holds the whole response back, which is why every data call needs a timeout.',
      'Client navigation fetches only the data of the next page and renders it in place, keeping the layout and the scroll position.',
      'When the client bundle and the server disagree about the markup, React reports a hydration mismatch and repaints the tree.',
      'A build identifier ties the data routes to one deployment, so an old tab never receives props it cannot render.',
      'Streaming the HTML lets the browser start fetching stylesheets while the server still renders the end of the page.',
      'The server render is a pure function of its props, which makes it easy to cache and easy to test.',
    ],
    snippet: "const html = renderToString(<Page {...props} />);",
  },
  {
    slug: 'sqlite',
    name: 'SQLite',
    categories: ['Databases'],
    sentences: [
      'SQLite keeps a whole database in one file and runs inside the application process, so a query costs a function call rather than a network trip.',
      'Write-ahead logging lets readers carry on while a single writer appends to the log.',
      'Prepared statements are parsed once and executed many times, which matters when a query runs thousands of times a second.',
      'A transaction groups several writes so that either all of them are committed or none of them is.',
      'The <code>user_version</code> pragma is a convenient place to record which schema migrations have already run.',
      'Foreign keys are off by default in SQLite and must be switched on for every connection.',
      'Backups of a live database are safest with the online backup API or <code>VACUUM INTO</code>, not with a plain file copy.',
      'FTS5 adds full-text search with ranking and highlighting without another service to run.',
    ],
    snippet: "PRAGMA journal_mode = WAL;",
  },
  {
    slug: 'search-relevance',
    name: 'search relevance',
    categories: ['Search'],
    sentences: [
      'A match in the title usually says more about a document than the same word deep in its body.',
      'BM25 rewards rare terms and dampens the effect of a word repeated many times in one document.',
      'Readers type fragments, so matching the last word as a prefix makes results appear while they are still typing.',
      'Popularity is a useful tie breaker, but letting it dominate hides the page that actually answers the question.',
      'A "did you mean" suggestion is only helpful when the corrected query finds something.',
      'Highlighting the matched words in a short fragment lets readers judge a result without opening it.',
      'Stemming folds "caching", "cached" and "caches" together, at the price of some surprising matches.',
      'Phrase matches deserve a boost: a document containing "page cache" as written is likely closer than one with both words far apart.',
    ],
    snippet: 'rank = popularity * 10 + score',
  },
  {
    slug: 'nginx',
    name: 'nginx as a reverse proxy',
    categories: ['Operations', 'Web'],
    sentences: [
      'The <code>proxy_cache_path</code> directive defines where nginx stores cached responses and how large the key zone may grow.',
      'With <code>proxy_cache_valid 200 1h</code> only successful answers are kept, and only for an hour.',
      'A bypass header lets an operator refresh one URL from the upstream without clearing the whole cache.',
      'The <code>$upstream_cache_status</code> variable reports HIT, MISS, BYPASS or EXPIRED for each request.',
      'Serving stale content while the upstream is down keeps a site readable during an outage.',
      'Keepalive connections to the upstream avoid a TCP handshake for every proxied request.',
      'Each worker process handles thousands of connections with an event loop, much like Node does.',
      'Testing the configuration with <code>nginx -t</code> before a reload catches typos before they take the site down.',
    ],
    snippet: 'proxy_cache_valid 200 1h;',
  },
  {
    slug: 'node-performance',
    name: 'Node.js performance',
    categories: ['Node.js', 'Performance'],
    sentences: [
      'The event loop runs one piece of JavaScript at a time, so a long synchronous task delays every other request.',
      'Measuring under load with many concurrent connections reveals queueing that a single request never shows.',
      'The 99th percentile latency is what the unluckiest reader in a hundred experiences, and it is often ten times the median.',
      'Buffers that are reused avoid pressure on the garbage collector in hot paths.',
      'Keeping the first byte early matters more to readers than shaving a millisecond off the last one.',
      'Worker processes sharing one port let a server use every core without threads in the application code.',
      'A flame graph shows where the time goes, and it is rarely where one expects.',
      'Benchmarks are only comparable when they run on the same machine, in the same run, against a baseline.',
    ],
    snippet: 'node --cpu-prof dist/cli.js front',
  },
  {
    slug: 'content-workflow',
    name: 'an editorial workflow',
    categories: ['Writing'],
    sentences: [
      'Writers want to see an edit on the live site within a second of saving it, not after a cache expires.',
      'A draft that is published by accident is worse than a draft that is published late.',
      'Comments from readers wait for approval, so spam never reaches the page.',
      'Each post belongs to one or more categories, which keeps the archive browsable years later.',
      'Grouping the archive by month gives readers a sense of when something was written.',
      'A short summary under each title helps readers decide what to open.',
      'Headings inside a post double as anchors that search results can link to directly.',
      'An outbox table records every change that needs a purge, in the same transaction as the change itself.',
    ],
    snippet: 'PUT /api/v1/plog/my-first-post',
  },
  {
    slug: 'testing',
    name: 'testing a web service',
    categories: ['Testing'],
    sentences: [
      'Tests that start real servers on a random port catch mistakes that a mocked request object hides.',
      'Property-based tests generate hundreds of inputs and shrink a failure to the smallest example.',
      'Every endpoint deserves a test with malformed, oversized and hostile input, because attackers will write that test anyway.',
      'A browser test proves that client navigation works, something no HTTP test can show.',
      'Each test should clean up its servers and temporary directories, or the suite slowly grinds to a halt.',
      'A test that cannot fail is worse than no test, because it gives false confidence.',
      'Running the same contract suite against every implementation of an interface keeps them interchangeable.',
      'Timing assertions in unit tests are flaky on a busy machine; benchmarks belong in their own harness.',
    ],
    snippet: "it('answers 404 when the build id is stale', async () => { /* ... */ });",
  },
  {
    slug: 'cdn',
    name: 'content delivery networks',
    categories: ['Web', 'Operations'],
    sentences: [
      'A CDN keeps copies of pages close to readers, so a request from another continent is answered nearby.',
      'Purging a CDN takes seconds to minutes to reach every edge location.',
      'The edge must only be purged after the origin side serves new content, or it refreshes itself from a stale copy.',
      'Forwarded host headers must be checked against an allow list before they are used to build absolute URLs.',
      'Long cache lifetimes at the edge make explicit purges essential for content that changes.',
      'Static assets with hashed names never need a purge at all.',
      'An edge that serves cached pages while the origin is down turns an outage into a non-event for readers.',
      'Measuring the hit ratio at the edge tells whether the cache keys are right.',
    ],
    snippet: 'curl -H "secret-header: true" https://example.com/plog/',
  },
  {
    slug: 'typescript',
    name: 'strict TypeScript',
    categories: ['TypeScript'],
    sentences: [
      'With <code>noUncheckedIndexedAccess</code> every array access may be undefined, which catches off-by-one mistakes at compile time.',
      'Type-only imports keep the emitted JavaScript free of modules that exist only for their types.',
      'A discriminated union describes the pages of a site better than a bag of optional fields.',
      'Validating input at the edge of the program lets the rest of the code trust its types.',
      'Strict null checks turn a whole class of runtime crashes into compiler errors.',
      'Options objects with documented defaults are easier to extend than long positional parameter lists.',
      'Errors with a stable code can be matched by callers without parsing messages.',
      'ES modules with explicit file extensions run in Node without a bundler.',
    ],
    snippet: "import type { Logger } from './log.js';",
  },
  {
    slug: 'accessibility',
    name: 'accessible pages',
    categories: ['Web', 'Design'],
    sentences: [
      'Headings in order give screen reader users a table of contents for free.',
      'Links should say where they lead; "read more" tells nothing out of context.',
      'Client navigation must move focus to the new content, or keyboard users are left at the old link.',
      'A page title that changes with each navigation tells assistive technology that something happened.',
      'Colour alone must never carry meaning, such as which result is highlighted.',
      'Forms need labels tied to their inputs, and error messages tied to the fields they concern.',
      'Pages that work before the script loads serve slow connections and search engines alike.',
      'Reduced motion preferences deserve respect in transitions between pages.',
    ],
    snippet: '<a href="/plog/accessible-pages">Accessible pages</a>',
  },
  {
    slug: 'observability',
    name: 'observability',
    categories: ['Operations'],
    sentences: [
      'Structured logs as JSON lines can be searched and aggregated without fragile regular expressions.',
      'A counter of cache hits and misses shows at a glance whether the cache earns its memory.',
      'Every retry loop should log its attempts, so a silent backlog cannot build up unnoticed.',
      'Health checks should test what readers need, not merely that the process is alive.',
      'A request identifier passed through every component ties one reader complaint to the right log lines.',
      'Logs belong on standard error, leaving standard output to the program\'s actual output.',
      'Alerting on symptoms readers feel, such as error rates and latency, beats alerting on every cause.',
      'Dashboards are most useful when they show the same percentiles the benchmarks measure.',
    ],
    snippet: '{"level":30,"msg":"purge delivered","route":"http://127.0.0.1:3000/__purge__"}',
  },
];

const ANGLES = [
  {
    title: (s: Subject) => `A first look at ${s.name}`,
    oid: (s: Subject) => `first-look-${s.slug}`,
    sections: ['Why it matters', 'How it works', 'Getting started'],
  },
  {
    title: (s: Subject) => `${capitalise(s.name)} in production: lessons learned`,
    oid: (s: Subject) => `${s.slug}-in-production`,
    sections: ['What went wrong', 'What we changed', 'What we would do again'],
  },
  {
    title: (s: Subject) => `Measuring ${s.name}`,
    oid: (s: Subject) => `measuring-${s.slug}`,
    sections: ['The setup', 'The numbers', 'What the numbers mean'],
  },
];

const READERS = ['Ada', 'Grace Hopper', 'Linus', 'Margaret', 'Tim B.', 'Radia', 'Ken', 'Barbara L.', 'Dennis', 'Frances', 'Zoë', 'José'];
const REMARKS = [
  'Thanks, this was exactly what I needed today.',
  'Great write-up. Have you tried the same with a smaller cache?',
  'I ran into the same problem last year; the fix was almost identical.',
  'Could you share the configuration you used for the benchmark?',
  'Clear and to the point, as always.',
  'One small correction: the default changed in the latest release.',
  'We do something similar, but with a queue instead of a table.',
  'Bookmarked for the next time this bites us.\nThe section on retries is gold.',
];

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function slugify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}


function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

function paragraph(subject: Subject, random: () => number): string {
  const count = 3 + Math.floor(random() * 2);
  const chosen = new Set<string>();
  while (chosen.size < count) chosen.add(pick(subject.sentences, random));
  return `<p>${[...chosen].join(' ')}</p>`;
}

export interface DemoPost {
  oid: string;
  title: string;
  summary: string;
  body_html: string;
  pub_date: string;
  categories: string[];
}

/** The demo posts: every subject from three angles, one post every five days from March 2026, oldest first. */
export function demoPosts(): DemoPost[] {
  const random = seededRandom(20260301);
  const posts: DemoPost[] = [];
  const start = Date.UTC(2026, 2, 2, 9, 0, 0);
  ANGLES.forEach((angle, angleIndex) => {
    SUBJECTS.forEach((subject, subjectIndex) => {
      const index = angleIndex * SUBJECTS.length + subjectIndex;
      const sections = angle.sections.map((heading, sectionIndex) => {
        const extra =
          sectionIndex === 1
            ? `<pre><code>${subject.snippet.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code></pre>`
            : sectionIndex === 2 && index % 4 === 0
              ? `<div class="notecard note"><p><strong>Note:</strong> the figures here come from a two-core test machine.</p></div>`
              : '';
        return `<h2 id="${slugify(heading)}">${heading}</h2>\n${paragraph(subject, random)}\n${extra}${paragraph(subject, random)}`;
      });
      const summary = subject.sentences[index % subject.sentences.length]?.replace(/<[^>]+>/g, '') ?? '';
      posts.push({
        oid: angle.oid(subject),
        title: angle.title(subject),
        summary,
        body_html: `${paragraph(subject, random)}\n${sections.join('\n')}\n<p>Related: <a href="/plog">the archive</a> lists every post about ${subject.name}.</p>`,
        pub_date: new Date(start + index * 5 * 86_400_000 + Math.floor(random() * 8) * 3_600_000).toISOString(),
        categories: subject.categories,
      });
    });
  });
  return posts;
}

/** Writes the demo posts and comments (some approved, some pending) into an empty database. */
export function seedDemoContent(db: Database.Database): void {
  const random = seededRandom(7);
  const insertPost = db.prepare(
    `INSERT INTO posts (oid, title, summary, body_html, pub_date, categories, updated_at)
     VALUES (@oid, @title, @summary, @body_html, @pub_date, @categories, @pub_date)`,
  );
  const insertComment = db.prepare<[string, string, string, number, string]>(
    `INSERT INTO comments (oid, name, comment, approved, add_date) VALUES (?, ?, ?, ?, ?)`,
  );
  for (const post of demoPosts()) {
    insertPost.run({ ...post, categories: JSON.stringify(post.categories) });
    const comments = Math.floor(random() * 4);
    for (let i = 0; i < comments; i++) {
      const approved = random() < 0.75 ? 1 : 0;
      const addDate = new Date(Date.parse(post.pub_date) + (i + 1) * 7_200_000).toISOString();
      insertComment.run(post.oid, pick(READERS, random), pick(REMARKS, random), approved, addDate);
    }
  }
}
