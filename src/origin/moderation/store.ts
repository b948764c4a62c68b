import { ERRORS } from '../../error-codes.js';
import { BOUND_LIMIT } from '../../sqlite-limit.js';
import type { OriginDatabase } from '../database.js';
import { purgeForComments } from '../policy.js';
import type { ContentStore } from '../store.js';
import type { CommentInput } from '../validation.js';
import { describeRule, judge, RULE_LIMITS, type Rule, type RuleInput } from './rules.js';

export interface ModerationOptions {
  /**
   * How long the address a pending comment came from is kept (for the queue, so an editor can write an address rule).
   * It is forgotten sooner when the comment is approved or deleted. @default 1209600000 (14 days)
   */
  addressRetentionMs?: number;
  /** @default Date.now */
  now?: () => number;
}

export const MODERATION_DEFAULTS = { addressRetentionMs: 14 * 86_400_000 } as const;

/** A pending comment as the queue shows it: its post's title, and what the rules made of it. */
export interface QueuedComment {
  id: number;
  oid: string;
  title: string;
  name: string;
  comment: string;
  add_date: string;
  /** The hold rule that matched, as describeRule words it; null when none did. */
  flag: string | null;
  /** The address it was sent from, while kept (options.addressRetentionMs); null after. */
  address: string | null;
}

export type BatchAction = 'approve' | 'delete';

export interface BatchResult {
  /** Ids acted on (approving an approved comment counts: it is approved). */
  done: number[];
  /** Ids of no comment (never one, or deleted meanwhile). */
  missing: number[];
}

/** What the comment route does with a reader's comment. */
export type Receipt = { stored: false } | { stored: true; id: number; kept: boolean };

/**
 * The moderation queue, the rule list and the rule check of new comments. Writes that change pages enqueue their
 * purges in their own transaction, as ContentStore's do: one per post touched, however many of its comments change.
 */
export class ModerationStore {
  private readonly statements;
  private readonly now: () => number;
  private readonly retentionMs: number;

  constructor(private readonly db: OriginDatabase, private readonly content: ContentStore, options: ModerationOptions = {}) {
    this.now = options.now ?? Date.now;
    this.retentionMs = options.addressRetentionMs ?? MODERATION_DEFAULTS.addressRetentionMs;
    this.statements = {
      rules: db.prepare<[], Rule>(`SELECT id, kind, pattern, action, note, created_at FROM moderation_rules ORDER BY id`),
      rule: db.prepare<[number], Rule>(`SELECT id, kind, pattern, action, note, created_at FROM moderation_rules WHERE id = ?`),
      sameRule: db.prepare<[string, string], number>(`SELECT id FROM moderation_rules WHERE kind = ? AND pattern = ?`).pluck(),
      ruleCount: db.prepare<[], number>(`SELECT count(*) FROM moderation_rules`).pluck(),
      insertRule: db.prepare<[string, string, string, string, number]>(
        `INSERT INTO moderation_rules (kind, pattern, action, note, created_at) VALUES (?, ?, ?, ?, ?)`,
      ),
      updateRule: db.prepare<[string, string, string, string, number]>(`UPDATE moderation_rules SET kind = ?, pattern = ?, action = ?, note = ? WHERE id = ?`),
      deleteRule: db.prepare<[number]>(`DELETE FROM moderation_rules WHERE id = ?`),
      record: db.prepare<[number, string | null, string | null, number]>(
        `INSERT INTO comment_moderation (comment_id, address, flag, received_at) VALUES (?, ?, ?, ?)`,
      ),
      dropComment: db.prepare<[number]>(`DELETE FROM comments WHERE id = ?`),
      forgetAddresses: db.prepare<[number]>(`UPDATE comment_moderation SET address = NULL WHERE address IS NOT NULL AND received_at < ?`),
      queue: db.prepare<[number, number, number], QueuedComment>(
        `SELECT c.id, c.oid, p.title, c.name, c.comment, c.add_date, m.flag, m.address
           FROM comments c JOIN posts p ON p.oid = c.oid LEFT JOIN comment_moderation m ON m.comment_id = c.id
          WHERE c.approved = 0 AND c.id > ? AND (? = 0 OR m.flag IS NOT NULL) ORDER BY c.id ${BOUND_LIMIT}`,
      ),
      counts: db.prepare<[], { pending: number; flagged: number }>(
        `SELECT count(*) AS pending, count(m.flag) AS flagged
           FROM comments c LEFT JOIN comment_moderation m ON m.comment_id = c.id WHERE c.approved = 0`,
      ),
      comment: db.prepare<[number], { oid: string; approved: number }>(`SELECT oid, approved FROM comments WHERE id = ?`),
      approve: db.prepare<[number]>(`UPDATE comments SET approved = 1 WHERE id = ?`),
      categories: db.prepare<[string], string>(`SELECT categories FROM posts WHERE oid = ?`).pluck(),
      enqueue: db.prepare<[string, string, string]>(`INSERT INTO purge_jobs (pathnames, keys, created_at) VALUES (?, ?, ?)`),
    };
  }

  rules(): Rule[] {
    return this.statements.rules.all();
  }

  rule(id: number): Rule | undefined {
    return this.statements.rule.get(id);
  }

  /** Adds a rule; refused when the list is full or holds the same kind and pattern already. */
  addRule(input: RuleInput): Rule {
    return this.db.transaction(() => {
      this.refuseDuplicate(input);
      if (this.statements.ruleCount.get()! >= RULE_LIMITS.count) throw ERRORS.RULE_LIMIT(RULE_LIMITS.count);
      const id = Number(this.statements.insertRule.run(input.kind, input.pattern, input.action, input.note, this.now()).lastInsertRowid);
      return this.statements.rule.get(id)!;
    })();
  }

  /** Replaces rule `id`; undefined when there is none. */
  replaceRule(id: number, input: RuleInput): Rule | undefined {
    return this.db.transaction(() => {
      if (this.statements.rule.get(id) === undefined) return undefined;
      this.refuseDuplicate(input, id);
      this.statements.updateRule.run(input.kind, input.pattern, input.action, input.note, id);
      return this.statements.rule.get(id);
    })();
  }

  deleteRule(id: number): boolean {
    return this.statements.deleteRule.run(id).changes > 0;
  }

  private refuseDuplicate(input: RuleInput, except?: number): void {
    const existing = this.statements.sameRule.get(input.kind, input.pattern);
    if (existing !== undefined && existing !== except) throw ERRORS.RULE_EXISTS(describeRule(input), existing);
  }

  /**
   * A reader's comment through the rules: stored pending (flagged when a hold rule matched) or dropped. A dropped
   * comment is stored and deleted in one transaction, so it gets an id of its own like any other (the sender sees
   * the same answer either way) and is refused exactly when a kept one would be (no such post: not stored).
   */
  receive(oid: string, input: CommentInput, address: string): Receipt {
    const verdict = judge({ ...input, address }, this.rules());
    return this.db.transaction((): Receipt => {
      const now = this.now();
      this.statements.forgetAddresses.run(now - this.retentionMs);
      const id = this.content.addComment(oid, input);
      if (id === undefined) return { stored: false };
      if (verdict.action === 'drop') {
        this.statements.dropComment.run(id);
        return { stored: true, id, kept: false };
      }
      this.statements.record.run(id, address === '' ? null : address, verdict.rule === undefined ? null : describeRule(verdict.rule), now);
      return { stored: true, id, kept: true };
    })();
  }

  /** A page of the queue, oldest first, paged by id as `GET /api/v1/comments/pending` is; `flagged`: only those. */
  queue(page: { afterId: number; limit: number; flagged: boolean }): { items: QueuedComment[]; more: boolean } {
    this.statements.forgetAddresses.run(this.now() - this.retentionMs);
    const rows = this.statements.queue.all(page.afterId, page.flagged ? 1 : 0, page.limit + 1);
    return { items: rows.slice(0, page.limit), more: rows.length > page.limit };
  }

  counts(): { pending: number; flagged: number } {
    return this.statements.counts.get()!;
  }

  /** Approves or deletes the comments `ids` in one transaction, with one purge per post whose page changes. */
  batch(action: BatchAction, ids: readonly number[]): BatchResult {
    return this.db.transaction(() => {
      const done: number[] = [];
      const missing: number[] = [];
      const touched = new Set<string>();
      for (const id of new Set(ids)) {
        const comment = this.statements.comment.get(id);
        if (comment === undefined) {
          missing.push(id);
          continue;
        }
        done.push(id);
        // A pending comment changes no page when deleted; an approved one changes none when approved again.
        if (action === 'approve' && comment.approved === 0) {
          this.statements.approve.run(id);
          touched.add(comment.oid);
        } else if (action === 'delete') {
          this.statements.dropComment.run(id);
          if (comment.approved === 1) touched.add(comment.oid);
        }
      }
      const at = new Date(this.now()).toISOString();
      for (const oid of touched) {
        const { pathnames, keys } = purgeForComments(oid, JSON.parse(this.statements.categories.get(oid) ?? '[]') as string[]);
        this.statements.enqueue.run(JSON.stringify(pathnames), JSON.stringify(keys), at);
      }
      return { done, missing };
    })();
  }
}
