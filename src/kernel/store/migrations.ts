/**
 * Schema migrations, one knex migration per entry, shared by SQLite and MySQL/MariaDB: no dialect
 * forks. Kept in code (a knex MigrationSource) so they run the same from a clone, a test or the CLI.
 * Times are epoch milliseconds in BIGINT columns, as the API exposes them.
 */
import type { Knex } from 'knex';

interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrations: Migration[] = [
  {
    name: '0001_initial',
    async up(knex) {
      await knex.schema.createTable('accounts', (t) => {
        t.string('id', 40).primary();
        t.string('email', 320).notNullable();
        t.string('plan', 64).notNullable();
        t.bigInteger('credits_balance').notNullable().defaultTo(0);
        t.bigInteger('created_at_ms').notNullable();
      });
      await knex.schema.createTable('api_keys', (t) => {
        t.string('id', 40).primary();
        t.string('account_id', 40).notNullable().references('accounts.id');
        t.string('name', 200).notNullable();
        // SHA-256 of the key: keys are 190+ bits of randomness, so a slow hash adds nothing (as GitHub and Stripe do).
        t.string('key_hash', 64).notNullable().unique();
        t.string('key_prefix', 16).notNullable();
        t.text('scopes').notNullable();
        t.bigInteger('created_at_ms').notNullable();
        t.bigInteger('last_used_at_ms').nullable();
        t.bigInteger('revoked_at_ms').nullable();
        t.index(['account_id']);
      });
      await knex.schema.createTable('requests', (t) => {
        t.string('id', 40).primary();
        t.string('account_id', 40).notNullable();
        t.string('api_key_id', 40).notNullable();
        t.string('operation', 100).notNullable();
        t.string('model', 100).notNullable();
        t.string('status', 16).notNullable();
        t.integer('billable_credits').notNullable();
        t.text('input', 'longtext').nullable();
        t.text('output', 'longtext').nullable();
        t.text('error_message').nullable();
        t.string('webhook_url', 2048).nullable();
        t.bigInteger('created_at_ms').notNullable();
        t.bigInteger('started_at_ms').nullable();
        t.bigInteger('completed_at_ms').nullable();
        // Worker bookkeeping: which plugin holds the task, the opaque task, who holds the lease and until when.
        t.string('provider', 64).nullable();
        t.text('task').nullable();
        t.integer('attempts').notNullable().defaultTo(0);
        t.integer('poll_count').notNullable().defaultTo(0);
        t.string('lease_owner', 64).nullable();
        t.bigInteger('lease_expires_at_ms').nullable();
        // When the sweeper should expect a job for this request to be on the queue (run, retry or poll).
        t.bigInteger('next_check_at_ms').nullable();
        t.bigInteger('data_removed_at_ms').nullable();
        t.index(['api_key_id', 'created_at_ms']);
        t.index(['account_id', 'created_at_ms']);
        t.index(['status', 'next_check_at_ms']);
        t.index(['status', 'lease_expires_at_ms']);
      });
      await knex.schema.createTable('credit_ledger', (t) => {
        t.increments('id');
        t.string('account_id', 40).notNullable();
        t.string('request_id', 40).nullable();
        // grant | debit | refund | adjust: one debit and at most one refund per request, enforced by the unique index.
        t.string('kind', 16).notNullable();
        t.integer('amount').notNullable();
        t.string('note', 200).nullable();
        t.bigInteger('created_at_ms').notNullable();
        t.unique(['request_id', 'kind']);
        t.index(['account_id']);
      });
      await knex.schema.createTable('idempotency_keys', (t) => {
        t.string('api_key_id', 40).notNullable();
        t.string('idempotency_key', 255).notNullable();
        t.string('request_hash', 64).notNullable();
        t.string('state', 16).notNullable();
        t.string('request_id', 40).nullable();
        t.integer('response_status').nullable();
        t.text('response_body').nullable();
        t.bigInteger('created_at_ms').notNullable();
        // An in-flight record older than this belongs to a process that died; the key may be taken over.
        t.bigInteger('locked_until_ms').notNullable();
        t.primary(['api_key_id', 'idempotency_key']);
        t.index(['created_at_ms']);
      });
    },
    async down(knex) {
      for (const table of ['idempotency_keys', 'credit_ledger', 'requests', 'api_keys', 'accounts']) {
        await knex.schema.dropTableIfExists(table);
      }
    },
  },
  {
    name: '0002_webhooks',
    async up(knex) {
      await knex.schema.createTable('webhook_secrets', (t) => {
        t.string('account_id', 40).primary();
        t.string('secret', 100).notNullable();
        // After a rotation the previous secret keeps signing (next to the new one) until this time.
        t.string('previous_secret', 100).nullable();
        t.bigInteger('previous_expires_at_ms').nullable();
        t.bigInteger('created_at_ms').notNullable();
      });
      await knex.schema.createTable('webhook_deliveries', (t) => {
        // The Standard Webhooks message id (webhook-id): the same on every attempt, so receivers can deduplicate.
        t.string('id', 40).primary();
        t.string('request_id', 40).notNullable();
        t.string('account_id', 40).notNullable();
        t.string('url', 2048).notNullable();
        t.string('event_type', 40).notNullable();
        t.text('payload', 'longtext').notNullable();
        // pending | delivered | failed | disabled
        t.string('state', 16).notNullable();
        t.integer('attempts').notNullable().defaultTo(0);
        t.bigInteger('next_attempt_at_ms').nullable();
        t.integer('last_status_code').nullable();
        t.text('last_error').nullable();
        t.bigInteger('created_at_ms').notNullable();
        t.bigInteger('delivered_at_ms').nullable();
        t.index(['state', 'next_attempt_at_ms']);
        t.index(['request_id']);
      });
      await knex.schema.createTable('webhook_attempts', (t) => {
        t.increments('id');
        t.string('delivery_id', 40).notNullable();
        t.bigInteger('attempted_at_ms').notNullable();
        t.integer('status_code').nullable();
        t.text('error').nullable();
        t.integer('duration_ms').notNullable();
        t.index(['delivery_id']);
      });
    },
    async down(knex) {
      for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_secrets']) await knex.schema.dropTableIfExists(table);
    },
  },
  {
    name: '0003_rate_limits',
    async up(knex) {
      // Fixed one-minute windows per API key and bucket, shared by every API process of a deployment.
      await knex.schema.createTable('rate_limit_windows', (t) => {
        t.string('api_key_id', 40).notNullable();
        t.string('bucket', 16).notNullable();
        t.bigInteger('window_start_ms').notNullable();
        t.integer('count').notNullable();
        t.primary(['api_key_id', 'bucket', 'window_start_ms']);
        t.index(['window_start_ms']);
      });
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('rate_limit_windows');
    },
  },
  {
    name: '0004_retention_index',
    async up(knex) {
      await knex.schema.alterTable('requests', (t) => {
        // Nothing reads requests by account; every insert paid for this index.
        t.dropIndex(['account_id', 'created_at_ms']);
        // The retention purge's scan: rows still holding data, oldest first, without reading finished rows one by one.
        t.index(['data_removed_at_ms', 'created_at_ms']);
      });
    },
    async down(knex) {
      await knex.schema.alterTable('requests', (t) => {
        t.dropIndex(['data_removed_at_ms', 'created_at_ms']);
        t.index(['account_id', 'created_at_ms']);
      });
    },
  },
  {
    name: '0005_users_sessions',
    async up(knex) {
      // People who sign in to the console. E-mail is stored lowercased so the unique index is case-insensitive
      // on both databases; 254 characters is the longest address SMTP can carry (RFC 5321 path limit).
      await knex.schema.createTable('users', (t) => {
        t.string('id', 40).primary();
        t.string('email', 254).notNullable().unique();
        // A versioned PHC-style string (passwords.ts): algorithm, parameters, salt and hash together.
        t.string('password_hash', 255).notNullable();
        t.bigInteger('created_at_ms').notNullable();
        t.boolean('disabled').notNullable().defaultTo(false);
      });
      await knex.schema.createTable('memberships', (t) => {
        t.string('user_id', 40).notNullable();
        t.string('account_id', 40).notNullable();
        // owner | admin | developer | viewer (kernel/accounts/members.ts)
        t.string('role', 16).notNullable();
        t.bigInteger('created_at_ms').notNullable();
        t.primary(['user_id', 'account_id']);
        t.index(['account_id']);
      });
      await knex.schema.createTable('console_sessions', (t) => {
        // SHA-256 of the cookie value: a copy of this table signs nobody in.
        t.string('id', 64).primary();
        t.string('user_id', 40).notNullable();
        // The account the user is acting in (the account switcher changes it).
        t.string('account_id', 40).nullable();
        t.string('csrf_token', 64).notNullable();
        t.bigInteger('created_at_ms').notNullable();
        t.bigInteger('last_seen_at_ms').notNullable();
        t.bigInteger('expires_at_ms').notNullable();
        t.index(['user_id']);
        t.index(['expires_at_ms']);
      });
      // Failed sign-ins, one row each, counted in a sliding window per subject (an e-mail or a client IP).
      await knex.schema.createTable('login_attempts', (t) => {
        t.increments('id');
        // email | ip
        t.string('scope', 8).notNullable();
        t.string('subject', 254).notNullable();
        t.bigInteger('attempted_at_ms').notNullable();
        t.index(['scope', 'subject', 'attempted_at_ms']);
        t.index(['attempted_at_ms']);
      });
    },
    async down(knex) {
      for (const table of ['login_attempts', 'console_sessions', 'memberships', 'users']) await knex.schema.dropTableIfExists(table);
    },
  },
  {
    name: '0006_oauth',
    async up(knex) {
      // Every oidc-provider model (sessions, interactions, codes, refresh tokens, grants, clients) in one table;
      // the lookup columns are the ones its adapter interface searches by.
      await knex.schema.createTable('oauth_models', (t) => {
        t.string('model', 40).notNullable();
        t.string('id', 255).notNullable();
        t.text('payload', 'longtext').notNullable();
        t.string('grant_id', 255).nullable();
        t.string('user_code', 255).nullable();
        t.string('uid', 255).nullable();
        t.bigInteger('expires_at_ms').nullable();
        t.bigInteger('consumed_at_ms').nullable();
        t.primary(['model', 'id']);
        t.index(['grant_id']);
        t.index(['uid']);
        t.index(['expires_at_ms']);
      });
      // Signing keys (JWKS) and cookie keys, generated at first start; newest first signs, the rest still verify.
      await knex.schema.createTable('oauth_keys', (t) => {
        t.string('id', 64).primary();
        t.string('purpose', 16).notNullable();
        t.text('material').notNullable();
        t.bigInteger('created_at_ms').notNullable();
        t.bigInteger('retired_at_ms').nullable();
        t.index(['purpose', 'created_at_ms']);
      });
      // An approved link of an OAuth client to an account: which member approved what, and the internal API key
      // that owns the requests the client makes (so REST and MCP keep one ownership rule).
      await knex.schema.createTable('oauth_links', (t) => {
        t.string('id', 40).primary();
        t.string('grant_id', 255).notNullable().unique();
        t.string('account_id', 40).notNullable();
        t.string('user_id', 40).notNullable();
        t.string('client_id', 255).notNullable();
        t.string('client_name', 200).notNullable();
        t.string('api_key_id', 40).notNullable();
        t.text('scopes').notNullable();
        // SHA-256 of the client's redirect URIs when approved: a client that changed them must be approved again.
        t.string('redirect_uris_hash', 64).notNullable();
        t.bigInteger('created_at_ms').notNullable();
        t.bigInteger('last_used_at_ms').nullable();
        t.bigInteger('revoked_at_ms').nullable();
        t.index(['account_id', 'created_at_ms']);
      });
    },
    async down(knex) {
      for (const table of ['oauth_links', 'oauth_keys', 'oauth_models']) await knex.schema.dropTableIfExists(table);
    },
  },
  {
    name: '0007_workspaces',
    async up(knex) {
      // An account's workspaces (one default, made on first use). Members' roles come from their account roles
      // (kernel/workspaces/workspace-roles.ts); projects add their own shares on top.
      await knex.schema.createTable('workspaces', (t) => {
        t.string('id', 40).primary();
        t.string('account_id', 40).notNullable();
        t.string('name', 200).notNullable();
        t.boolean('is_default').notNullable().defaultTo(false);
        t.bigInteger('created_at_ms').notNullable();
        t.index(['account_id', 'created_at_ms']);
      });
      // Creator-flow projects: the ordered draft steps are one JSON document (always read and replaced whole).
      await knex.schema.createTable('workspace_projects', (t) => {
        t.string('id', 40).primary();
        t.string('workspace_id', 40).notNullable();
        t.string('world_id', 40).nullable();
        t.string('title', 200).notNullable();
        t.text('description').notNullable();
        t.string('status', 16).notNullable();
        t.text('steps', 'mediumtext').notNullable();
        t.string('created_by', 40).notNullable();
        t.bigInteger('created_at_ms').notNullable();
        t.bigInteger('updated_at_ms').notNullable();
        // Soft delete: hidden at once, restorable by an owner, purged with its links 7 days later.
        t.bigInteger('deleted_at_ms').nullable();
        t.string('deleted_by', 40).nullable();
        t.index(['workspace_id', 'created_at_ms']);
        t.index(['deleted_at_ms']);
      });
      await knex.schema.createTable('workspace_project_shares', (t) => {
        t.string('project_id', 40).notNullable();
        t.string('user_id', 40).notNullable();
        // owner | editor | viewer
        t.string('role', 16).notNullable();
        t.bigInteger('created_at_ms').notNullable();
        t.primary(['project_id', 'user_id']);
        t.index(['user_id']);
      });
      await knex.schema.createTable('workspace_worlds', (t) => {
        t.string('id', 40).primary();
        t.string('workspace_id', 40).notNullable();
        t.string('name', 200).notNullable();
        t.text('description').notNullable();
        t.string('created_by', 40).notNullable();
        t.bigInteger('created_at_ms').notNullable();
        t.bigInteger('updated_at_ms').notNullable();
        t.bigInteger('deleted_at_ms').nullable();
        t.string('deleted_by', 40).nullable();
        t.index(['workspace_id', 'created_at_ms']);
        t.index(['deleted_at_ms']);
      });
      // Characters, objects, locations and zones of a world; a zone may sit in one of the world's locations.
      await knex.schema.createTable('workspace_assets', (t) => {
        t.string('id', 40).primary();
        t.string('world_id', 40).notNullable();
        t.string('workspace_id', 40).notNullable();
        t.string('kind', 16).notNullable();
        t.string('name', 200).notNullable();
        t.text('description').notNullable();
        t.string('location_id', 40).nullable();
        t.text('reference_media').notNullable();
        t.string('created_by', 40).notNullable();
        t.bigInteger('created_at_ms').notNullable();
        t.bigInteger('updated_at_ms').notNullable();
        t.bigInteger('deleted_at_ms').nullable();
        t.string('deleted_by', 40).nullable();
        t.index(['world_id', 'created_at_ms']);
        t.index(['deleted_at_ms']);
      });
      // A generation request's artifacts linked to an asset or a world, or the request recorded on a project.
      // Written in the request's finishing transaction; one row per request and target.
      await knex.schema.createTable('workspace_links', (t) => {
        t.string('target_id', 40).notNullable();
        t.string('request_id', 40).notNullable();
        // asset | world | project
        t.string('target_type', 16).notNullable();
        t.string('operation', 64).notNullable();
        t.text('artifacts').notNullable();
        t.bigInteger('created_at_ms').notNullable();
        t.primary(['target_id', 'request_id']);
        t.index(['request_id']);
      });
    },
    async down(knex) {
      for (const table of ['workspace_links', 'workspace_assets', 'workspace_worlds', 'workspace_project_shares', 'workspace_projects', 'workspaces']) {
        await knex.schema.dropTableIfExists(table);
      }
    },
  },
  {
    name: '0008_trace_context',
    async up(knex) {
      // The W3C traceparent of the create when tracing is on (docs/tracing.md), so that jobs sent long after it
      // (delayed polls, the sweeper's republishes) continue the create's trace. NULL when tracing is off. Version 00
      // is 55 characters; the rest is headroom for a later version of the header.
      await knex.schema.alterTable('requests', (t) => {
        t.string('trace_context', 128).nullable();
      });
    },
    async down(knex) {
      await knex.schema.alterTable('requests', (t) => {
        t.dropColumn('trace_context');
      });
    },
  },
  {
    name: '0009_cancel_requested',
    async up(knex) {
      // When a client asked to cancel a request that a worker in another process was running (cancel-request.ts):
      // that worker reads it before it stops the start, so a broker message alone never cancels a request.
      await knex.schema.alterTable('requests', (t) => {
        t.bigInteger('cancel_requested_at_ms').nullable();
      });
    },
    async down(knex) {
      await knex.schema.alterTable('requests', (t) => {
        t.dropColumn('cancel_requested_at_ms');
      });
    },
  },
];

export const migrationSource: Knex.MigrationSource<Migration> = {
  async getMigrations() {
    return migrations;
  },
  getMigrationName(migration) {
    return migration.name;
  },
  async getMigration(migration) {
    return migration;
  },
};
