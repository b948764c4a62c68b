/* sitestack_fragments (fragments.c), registered by the extension's entry point (sitestack-fts5.c). */
int sitestackRegisterFragments(sqlite3 *db);
