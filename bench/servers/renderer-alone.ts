// The renderer with nothing in front of it: `react` renders the page per request, `static` writes prebuilt bytes.
import { listen } from './listen.js';
import { renderer } from './renderer.js';

listen(renderer(process.argv[2]));
