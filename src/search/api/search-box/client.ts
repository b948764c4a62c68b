/** The search box script's entry (bundled by esbuild, served as `/api/search/box.js`). */
import { ELEMENT_NAME, SearchBoxElement } from './element.js';

const script = document.currentScript;
if (script instanceof HTMLScriptElement && script.src !== '') SearchBoxElement.defaultEndpoint = new URL(script.src).origin;
if (customElements.get(ELEMENT_NAME) === undefined) customElements.define(ELEMENT_NAME, SearchBoxElement);
