export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export interface Tables {
  docs: string;
  prefixes: string;
  /** The partitions (see static-rank.ts) that have their full-text tables. */
  partitions: string;
}

/** The names of the embedded engine's tables of one index, quoted for SQL. */
export function tablesOf(index: string): Tables {
  return {
    docs: quoteIdentifier(`ix_${index}_docs`),
    prefixes: quoteIdentifier(`ix_${index}_prefixes`),
    partitions: quoteIdentifier(`ix_${index}_partitions`),
  };
}

/** The full-text tables of one partition of an index: title, summary, body and stems; the title alone; the vocabulary. */
export interface PartitionTables {
  fts: string;
  titles: string;
  vocab: string;
}

/** The names of the full-text tables of one partition of an index, quoted for SQL. */
export function partitionTablesOf(index: string, partition: number): PartitionTables {
  return {
    fts: quoteIdentifier(`ix_${index}_fts_${partition}`),
    titles: quoteIdentifier(`ix_${index}_titles_${partition}`),
    vocab: quoteIdentifier(`ix_${index}_vocab_${partition}`),
  };
}
