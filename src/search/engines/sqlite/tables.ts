export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export interface Tables {
  docs: string;
  fts: string;
  titles: string;
  prefixes: string;
  vocab: string;
}

/** The names of the embedded engine's tables of one index, quoted for SQL. */
export function tablesOf(index: string): Tables {
  return {
    docs: quoteIdentifier(`ix_${index}_docs`),
    fts: quoteIdentifier(`ix_${index}_fts`),
    titles: quoteIdentifier(`ix_${index}_titles`),
    prefixes: quoteIdentifier(`ix_${index}_prefixes`),
    vocab: quoteIdentifier(`ix_${index}_vocab`),
  };
}
