import type { OriginDatabase } from '../../database.js';
import { AccountStore } from '../accounts.js';
import type { ScryptParams } from '../password-hash.js';

/** A cheap scrypt cost for tests: hashing at the real cost would take most of a test's time. */
export const TEST_SCRYPT: ScryptParams = { logN: 10, r: 8, p: 1 };

/** A browser's part in desk requests: a cookie jar, same-origin headers and no redirects followed. */
export class DeskClient {
  readonly cookies = new Map<string, string>();
  /** The raw `Set-Cookie` values of the last answer. */
  lastSetCookies: string[] = [];

  constructor(readonly base: string) {}

  get host(): string {
    return new URL(this.base).host;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: this.cookieHeader(), ...init.headers };
    let body = init.body;
    if (init.form !== undefined) {
      body = new URLSearchParams(init.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const response = await fetch(`${this.base}${path}`, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, redirect: 'manual' });
    this.lastSetCookies = response.headers.getSetCookie();
    for (const line of this.lastSetCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** The hidden `_csrf` of a page's first form. */
  static csrfOf(html: string): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(html);
    if (match?.[1] === undefined) throw new Error('no _csrf field on the page');
    return match[1];
  }

  /** Opens the login form and sends it from this origin, as the browser would. */
  async login(username: string, password: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Response> {
    const page = await (await this.request('/admin/login')).text();
    return this.request('/admin/login', {
      form: { _csrf: DeskClient.csrfOf(page), username, password, ...extra },
      headers: { origin: this.base, 'sec-fetch-site': 'same-origin', ...headers },
    });
  }

  /** The desk page's token (the session's), for a change. */
  async sessionToken(): Promise<string> {
    return DeskClient.csrfOf(await (await this.request('/admin/')).text());
  }

  /** A form the desk's page posts: with the session's token, from this origin. */
  async post(path: string, form: Record<string, string>): Promise<Response> {
    return this.request(path, { form: { _csrf: await this.sessionToken(), ...form }, headers: { origin: this.base, 'sec-fetch-site': 'same-origin' } });
  }
}

/** A client logged in as a new editor `name` of `db` (added with TEST_SCRYPT), for tests of desk pages. */
export async function loggedInEditor(origin: { db: OriginDatabase; base: string }, name: string, password: string): Promise<DeskClient> {
  await new AccountStore(origin.db, TEST_SCRYPT).addUser(name, password);
  const client = new DeskClient(origin.base);
  const answer = await client.login(name, password);
  if (answer.status !== 303) throw new Error(`login as ${name} answered ${answer.status}`);
  return client;
}
