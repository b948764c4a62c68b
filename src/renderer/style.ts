/**
 * The site's one stylesheet, inlined in every page so a first view needs no second request. Colours are custom
 * properties so dark mode (prefers-color-scheme) swaps them in one place; both palettes keep text at WCAG AA contrast.
 * Long words, URLs and code wrap or scroll inside their box, so nothing scrolls the page sideways at 390 px.
 * Highlighted code (highlight.js classes, rendered when a post is saved) takes its colours from the palette too.
 */
export const STYLE = `:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1b;--muted:#595959;--line:#d6d6d6;--link:#0b57d0;--accent:#0b57d0;
--accent-fg:#fff;--code:#f3f3f3;--note:#f3f6fc;--mark:#ffe58a;--error:#b00020;--ok:#146c2e;--focus:#c2410c;
--hl-kw:#a626a4;--hl-str:#1a7f37;--hl-num:#953800;--hl-fn:#6639ba;--hl-type:#0550ae}
@media (prefers-color-scheme:dark){:root{--bg:#151515;--fg:#e8e8e8;--muted:#b0b0b0;--line:#3a3a3a;--link:#8ab4f8;--accent:#8ab4f8;
--accent-fg:#111;--code:#222;--note:#1d2533;--mark:#6b5900;--error:#ff8a80;--ok:#81c995;--focus:#fdba74;
--hl-kw:#ff7b72;--hl-str:#a5d6ff;--hl-num:#79c0ff;--hl-fn:#d2a8ff;--hl-type:#ffa657}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{font:17px/1.6 system-ui,sans-serif;max-width:46rem;margin:0 auto;padding:0 1rem;color:var(--fg);background:var(--bg);overflow-wrap:anywhere}
a{color:var(--link)}mark{background:var(--mark);color:var(--fg)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip-link{position:absolute;left:-100vw}.skip-link:focus{left:1rem;top:.5rem;background:var(--bg);padding:.25rem .5rem;z-index:2}
.site-header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;justify-content:space-between;align-items:center;border-bottom:1px solid var(--line);padding:1rem 0}
.site-header nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}.site-name{font-weight:700;text-decoration:none;font-size:1.15em}
.site-search{display:flex;gap:.5rem;flex:1 1 100%;position:relative}.combo{position:relative;flex:1;min-width:0}
input,textarea,select,button{font:inherit;color:inherit;border-radius:6px}
input[type=search],input[type=text],textarea,select{width:100%;background:var(--bg);border:1px solid var(--muted);padding:.45rem .6rem}
select{width:auto}textarea{resize:vertical;min-height:7rem}
button{background:var(--accent);color:var(--accent-fg);border:1px solid var(--accent);padding:.45rem 1rem;cursor:pointer;font-weight:600}
button:hover{filter:brightness(1.1)}
[role=listbox]{position:absolute;z-index:3;left:0;right:0;top:100%;margin:.25rem 0 0;padding:.25rem 0;list-style:none;background:var(--bg);
border:1px solid var(--muted);border-radius:6px;box-shadow:0 6px 18px rgb(0 0 0/.2);max-height:60vh;overflow:auto}
[role=option]{padding:.5rem .75rem;cursor:pointer}[role=option][aria-selected=true],[role=option]:hover{background:var(--accent);color:var(--accent-fg)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.post-list{padding-left:1.2rem}.post-line time,.post-meta,.comment-meta time,.hint{color:var(--muted);font-size:.9em}
.comment-text{white-space:pre-line}.notecard{border-left:4px solid var(--accent);padding:.2rem 1rem;background:var(--note)}
pre{overflow:auto;background:var(--code);padding:.75rem;border-radius:6px;max-width:100%}code{overflow-wrap:anywhere}
img,video,iframe,table{max-width:100%;height:auto}table{display:block;overflow:auto}th,td{border:1px solid var(--line);padding:.25rem .5rem}
.contains-task-list{list-style:none;padding-left:.5rem}
.hljs-keyword,.hljs-selector-tag,.hljs-meta{color:var(--hl-kw)}.hljs-string,.hljs-regexp,.hljs-addition{color:var(--hl-str)}
.hljs-number,.hljs-literal,.hljs-symbol{color:var(--hl-num)}.hljs-title,.hljs-section{color:var(--hl-fn)}
.hljs-built_in,.hljs-type,.hljs-attr,.hljs-attribute,.hljs-variable{color:var(--hl-type)}.hljs-comment,.hljs-quote{color:var(--muted);font-style:italic}
.comment-form{display:grid;gap:.5rem;margin-top:2rem;padding-top:1rem;border-top:1px solid var(--line)}.comment-form button{justify-self:start}
.comment-form .hp{position:absolute;left:-100vw;width:1px;height:1px;overflow:hidden}
.form-error{color:var(--error)}.form-ok{color:var(--ok)}
#search-form{display:flex;flex-wrap:wrap;gap:.5rem}#search-input{flex:1 1 14rem;width:auto}
#search-status.error{color:var(--error)}#search-results li{margin:1rem 0}.result-excerpt{margin:.25rem 0}
#search-pages{display:flex;flex-wrap:wrap;gap:.5rem;margin:1.5rem 0}#search-pages a,#search-pages span{padding:.25rem .6rem;border:1px solid var(--line);border-radius:6px}
#search-pages [aria-current]{background:var(--accent);color:var(--accent-fg);border-color:var(--accent)}
.site-footer{border-top:1px solid var(--line);margin-top:3rem;padding:1rem 0;color:var(--muted)}
main:focus{outline:none}`;
