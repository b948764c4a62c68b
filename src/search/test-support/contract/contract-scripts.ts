import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doc, ids } from './contract-support.js';
import type { IndexedDocument, SearchEngine } from '../../engines/types.js';

/**
 * The contract of words in every script (see analysis/scripts.ts), on any engine: text written without spaces is
 * found by its words, phrases by their order, and a name glued to another script by either part. Run by
 * engineContractTests for every engine: the segmenting is the analysis module's, which an engine that cannot segment
 * receives with the text (see engines/elasticsearch/documents.ts).
 */
export function scriptTests(context: { engine: () => SearchEngine; indexWith: (documents: IndexedDocument[]) => Promise<string> }): void {
  const search = (index: string, text: string, extra: { highlight?: boolean; locales?: string[] } = {}) =>
    context.engine().search({ index, text, sort: 'relevance', ...extra });

  describe('words in every script', () => {
    it('finds a Chinese page by one word of its title, marking that word only', async () => {
      const index = await context.indexWith([
        doc('routing', '国际化（i18n）路由', { locale: 'zh-CN', popularity: 0.1 }),
        doc('compat', '浏览器兼容性', { locale: 'zh-CN', popularity: 0.9 }),
        doc('english', 'Internationalized routing', { popularity: 0.9 }),
      ]);
      const result = await search(index, '国际', { highlight: true });
      assert.deepEqual(ids(result), ['routing']);
      assert.deepEqual(result.documents[0]?.highlight?.title, ['<mark>国际</mark>化（i18n）路由']);
      assert.equal(result.documents[0]?.title, '国际化（i18n）路由', 'the title as the page has it');
      assert.deepEqual(ids(await search(index, '浏览器')), ['compat']);
    });

    it('ranks the page whose whole Chinese title is the query above a more popular page holding it', async () => {
      const index = await context.indexWith([
        doc('guide', '国际化路由：国际化路由指南', { locale: 'zh-CN', popularity: 1, body: '国际化路由' }),
        doc('exact', '国际化路由', { locale: 'zh-CN', popularity: 0 }),
      ]);
      assert.deepEqual(ids(await search(index, '国际化路由')), ['exact', 'guide']);
    });

    it('finds a Japanese word inside a longer run of the text', async () => {
      const index = await context.indexWith([
        doc('install', 'パッケージをインストール', { locale: 'ja', body: 'まずnpmをインストールしてください。' }),
        doc('other', 'コンポーネントの使い方', { locale: 'ja' }),
      ]);
      assert.deepEqual(ids(await search(index, 'インストール')), ['install']);
      assert.deepEqual(ids(await search(index, 'npm')), ['install']);
    });

    it('ranks a phrase in its order above the same words in another order', async () => {
      const index = await context.indexWith([
        doc('scattered', '説明', { locale: 'ja', body: '単語の一覧です。文章の例もあります。', popularity: 0.9 }),
        doc('phrase', '説明', { locale: 'ja', body: '日本語の文章を単語に分割する方法。', popularity: 0.1 }),
      ]);
      assert.deepEqual(ids(await search(index, '文章を単語に分割')), ['phrase']);
      assert.deepEqual(ids(await search(index, '文章 単語')), ['phrase', 'scattered']);
    });

    it('finds a Latin name glued to Korean by either part', async () => {
      const index = await context.indexWith([
        doc('glued', 'Next.js인가 설정', { locale: 'ko' }),
        doc('other', '인증 설정', { locale: 'ko' }),
      ]);
      assert.deepEqual(ids(await search(index, '인가')), ['glued']);
      assert.deepEqual(ids(await search(index, 'Next.js')), ['glued']);
    });
  });
}
