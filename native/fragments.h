/* sitestack_fragments and sitestack_marked (fragments.c), registered by the extension's entry point (sitestack-fts5.c). */
int sitestackRegisterFragments(sqlite3 *db);
