import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Hourly rollups of the three minute-level usage tables, kept exact by triggers on every insert,
 * update (the writers' upserts) and delete of a usage row, so that long histories and counters read
 * a row an hour instead of a row a minute. The metric definitions below are the
 * one place that says what each metric's count and bytes are made of; the minute-level queries
 * (db/usage-buckets.ts) sum the same expressions, so both levels always agree.
 *
 *   Docs     count: `added` events            bytes: their file bytes          units: content tokens
 *   OCR      count: OCR pages of `parsed`     bytes: file bytes of `parsed` rows with OCR pages
 *                                                                               units: OCR pages
 *   Indexed  count: `indexed` events          bytes: their file bytes          units: content tokens
 *   Queries  count: queries (all types)       bytes: query text bytes          units: queries
 *   Rerank   count: reranker calls (/models/rerank and the queries' `reranker` option)
 *                                             bytes: request bytes             units: reranker tokens
 *   Embed    count: /models/embed calls       bytes: request bytes             units: request tokens
 */
export const HOUR_SECONDS = 3600;

export type UsageSource = 'documents' | 'queries' | 'reranker' | 'embed';

interface SourceDefinition {
  /** Minute-level table written by the actions. */
  table: 'document_usage' | 'query_usage' | 'reranker_usage' | 'embed_usage';
  /** Hourly rollup of it. */
  rollup: 'usage_hourly_documents' | 'usage_hourly_queries' | 'usage_hourly_reranker' | 'usage_hourly_embed';
  /** Key columns besides organization_id and window_start. */
  keys: string[];
  /** Carried along, not summed (the name of the collection of collection_id). */
  carried: string[];
  /** Rollup column -> its value for one minute row, as SQL over a row prefix (`NEW.`, `u.`). */
  metrics: (row: string) => Record<string, string>;
}

export const usageSources: Record<UsageSource, SourceDefinition> = {
  documents: {
    table: 'document_usage',
    rollup: 'usage_hourly_documents',
    keys: ['collection_id'],
    carried: ['collection_name'],
    metrics: (r) => ({
      docs_count: `case when ${r}event_type = 'added' then ${r}event_count else 0 end`,
      docs_bytes: `case when ${r}event_type = 'added' then ${r}total_file_size_bytes else 0 end`,
      docs_units: `case when ${r}event_type = 'added' then ${r}total_content_tokens else 0 end`,
      ocr_count: `case when ${r}event_type = 'parsed' then ${r}total_ocr_pages else 0 end`,
      ocr_bytes: `case when ${r}event_type = 'parsed' and ${r}total_ocr_pages > 0 then ${r}total_file_size_bytes else 0 end`,
      ocr_units: `case when ${r}event_type = 'parsed' then ${r}total_ocr_pages else 0 end`,
      indexed_count: `case when ${r}event_type = 'indexed' then ${r}event_count else 0 end`,
      indexed_bytes: `case when ${r}event_type = 'indexed' then ${r}total_file_size_bytes else 0 end`,
      indexed_units: `case when ${r}event_type = 'indexed' then ${r}total_content_tokens else 0 end`,
    }),
  },
  queries: {
    table: 'query_usage',
    rollup: 'usage_hourly_queries',
    keys: ['collection_id'],
    carried: ['collection_name'],
    metrics: (r) => ({
      queries_count: `${r}event_count`,
      queries_bytes: `${r}total_query_bytes`,
      queries_units: `${r}event_count`,
    }),
  },
  reranker: {
    table: 'reranker_usage',
    rollup: 'usage_hourly_reranker',
    keys: [],
    carried: [],
    metrics: (r) => ({
      rerank_count: `${r}event_count`,
      rerank_bytes: `${r}total_request_bytes`,
      rerank_units: `${r}total_reranker_tokens`,
    }),
  },
  embed: {
    table: 'embed_usage',
    rollup: 'usage_hourly_embed',
    keys: ['embedding_model'],
    carried: [],
    metrics: (r) => ({
      embed_count: `${r}event_count`,
      embed_bytes: `${r}total_request_bytes`,
      embed_units: `${r}total_request_tokens`,
    }),
  },
};

const hourOf = (row: string) => `(${row}window_start - ${row}window_start % ${HOUR_SECONDS})`;

/** Creates the rollup tables of these sources, fills them from existing rows and installs the triggers (migrations 005, 010). */
export async function createUsageRollups(db: Kysely<unknown>, sources: UsageSource[]): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const source of sources.map((name) => usageSources[name])) {
    const metricColumns = Object.keys(source.metrics(''));
    let table = db.schema
      .createTable(source.rollup)
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn('window_start', 'bigint', (c) => c.notNull());
    for (const column of [...source.keys, ...source.carried]) table = table.addColumn(column, 'text', (c) => c.notNull());
    for (const column of metricColumns) table = table.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
    await table.addPrimaryKeyConstraint(`${source.rollup}_pk`, ['organization_id', 'window_start', ...source.keys] as never).execute();

    const columns = ['organization_id', 'window_start', ...source.keys, ...source.carried, ...metricColumns];
    const grouped = source.metrics('u.');
    await sql
      .raw(
        `insert into ${source.rollup} (${columns.join(', ')})
         select u.organization_id, ${hourOf('u.')}, ${source.keys.map((k) => `u.${k}, `).join('')}${source.carried.map((c) => `max(u.${c}), `).join('')}
                ${metricColumns.map((m) => `sum(${grouped[m]})`).join(', ')}
         from ${source.table} u
         group by u.organization_id, ${hourOf('u.')}${source.keys.map((k) => `, u.${k}`).join('')}`,
      )
      .execute(db);

    for (const statement of postgres ? postgresTriggers(source) : sqliteTriggers(source)) await sql.raw(statement).execute(db);
  }
}

export async function dropUsageRollups(db: Kysely<unknown>, sources: UsageSource[]): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const source of sources.map((name) => usageSources[name])) {
    if (postgres) {
      await sql.raw(`drop trigger if exists ${source.table}_rollup on ${source.table}`).execute(db);
      await sql.raw(`drop function if exists ${source.table}_rollup()`).execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists ${source.table}_rollup_${event}`).execute(db);
    }
    await db.schema.dropTable(source.rollup).ifExists().execute();
  }
}

/** `insert ... on conflict do update` adding one row's metrics into its hour. */
function addInto(source: SourceDefinition, row: string): string {
  const metrics = source.metrics(row);
  const metricColumns = Object.keys(metrics);
  const columns = ['organization_id', 'window_start', ...source.keys, ...source.carried, ...metricColumns];
  const values = [`${row}organization_id`, hourOf(row), ...[...source.keys, ...source.carried].map((c) => `${row}${c}`), ...metricColumns.map((m) => metrics[m])];
  return `insert into ${source.rollup} (${columns.join(', ')}) values (${values.join(', ')})
    on conflict (organization_id, window_start${source.keys.map((k) => `, ${k}`).join('')})
    do update set ${metricColumns.map((m) => `${m} = ${source.rollup}.${m} + excluded.${m}`).join(', ')}`;
}

/** `update` taking one (old) row's metrics out of its hour. */
function takeOut(source: SourceDefinition, row: string): string {
  const metrics = source.metrics(row);
  return `update ${source.rollup} set ${Object.keys(metrics).map((m) => `${m} = ${m} - (${metrics[m]})`).join(', ')}
    where organization_id = ${row}organization_id and window_start = ${hourOf(row)}${source.keys.map((k) => ` and ${k} = ${row}${k}`).join('')}`;
}

function sqliteTriggers(source: SourceDefinition): string[] {
  return [
    `create trigger ${source.table}_rollup_insert after insert on ${source.table} begin ${addInto(source, 'NEW.')}; end`,
    `create trigger ${source.table}_rollup_update after update on ${source.table} begin ${takeOut(source, 'OLD.')}; ${addInto(source, 'NEW.')}; end`,
    `create trigger ${source.table}_rollup_delete after delete on ${source.table} begin ${takeOut(source, 'OLD.')}; end`,
  ];
}

function postgresTriggers(source: SourceDefinition): string[] {
  return [
    `create or replace function ${source.table}_rollup() returns trigger language plpgsql as $$
     begin
       if tg_op in ('UPDATE', 'DELETE') then ${takeOut(source, 'OLD.')}; end if;
       if tg_op in ('INSERT', 'UPDATE') then ${addInto(source, 'NEW.')}; end if;
       return null;
     end $$`,
    `create trigger ${source.table}_rollup after insert or update or delete on ${source.table} for each row execute function ${source.table}_rollup()`,
  ];
}
