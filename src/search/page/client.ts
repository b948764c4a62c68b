/** The standalone search page's script entry (bundled by esbuild; see bundle.ts). */
import { startSearchPage } from './app.js';

startSearchPage();
