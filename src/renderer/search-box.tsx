import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

/** The search box's timing: how long typing must pause before suggestions are asked for. */
const SEARCH_BOX_DEFAULTS = { debounceMs: 120, endpoint: '/api/search/autocomplete' } as const;

interface Match {
  title: string;
  url: string;
}

/** Suggestions and the text they were asked for: a list is shown only while the box still holds that text. */
interface Suggestions {
  prefix: string;
  matches: Match[];
}

const NONE: Suggestions = { prefix: '', matches: [] };

/**
 * The search box in every page's header: the WAI-ARIA 1.2 combobox pattern with a listbox popup of title suggestions
 * from the autocomplete API, of the page's locale. Without JavaScript it is a plain GET form to the search page. Typing waits for a pause
 * (debounce), aborts the request of an older text, and shows a list only for the text the box holds now.
 */
export function SearchBox({ locale }: { locale: string }) {
  const [value, setValue] = useState('');
  const [suggestions, setSuggestions] = useState<Suggestions>(NONE);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | undefined>(undefined);
  const current = useRef('');

  const cancel = () => {
    clearTimeout(timer.current);
    inFlight.current?.abort();
    inFlight.current = undefined;
  };
  useEffect(() => cancel, []);

  const ask = (prefix: string) => {
    cancel();
    if (prefix.trim() === '') {
      setSuggestions(NONE);
      setOpen(false);
      return;
    }
    timer.current = setTimeout(() => {
      const controller = new AbortController();
      inFlight.current = controller;
      fetch(`${SEARCH_BOX_DEFAULTS.endpoint}?q=${encodeURIComponent(prefix)}&locale=${encodeURIComponent(locale)}`, { signal: controller.signal, headers: { accept: 'application/json' } })
        .then((response) => (response.ok ? (response.json() as Promise<{ matches?: Match[] }>) : { matches: [] }))
        .then((body) => {
          // A late answer for text the reader has since changed is dropped: the list always matches the box.
          if (controller.signal.aborted || current.current !== prefix) return;
          const matches = Array.isArray(body.matches) ? body.matches.slice(0, 10) : [];
          setSuggestions({ prefix, matches });
          setOpen(matches.length > 0);
          setActive(-1);
        })
        .catch(() => undefined);
    }, SEARCH_BOX_DEFAULTS.debounceMs);
  };

  const shown = suggestions.prefix === value ? suggestions.matches : [];
  const expanded = open && shown.length > 0;
  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const choose = (match: Match) => {
    close();
    location.assign(match.url);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = shown.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (count === 0) return;
      event.preventDefault();
      setOpen(true);
      const down = event.key === 'ArrowDown';
      // Wraps around, as the APG's example does; from a closed list, ↓ opens on the first option and ↑ on the last.
      if (!expanded) setActive(down ? 0 : count - 1);
      else setActive((index) => (down ? (index + 1) % count : index <= 0 ? count - 1 : index - 1));
    } else if (event.key === 'Enter') {
      const match = expanded && active >= 0 ? shown[active] : undefined;
      if (match !== undefined) {
        event.preventDefault();
        choose(match);
      }
    } else if (event.key === 'Escape') {
      if (expanded) {
        event.preventDefault();
        close();
      } else if (value !== '') {
        event.preventDefault();
        current.current = '';
        setValue('');
        cancel();
      }
    }
  };

  const optionId = (index: number) => `site-search-option-${index}`;
  return (
    <form className="site-search" role="search" aria-label="Site" method="get" action={`/${locale}/search`}>
      <label htmlFor="site-search-input" className="visually-hidden">
        Search the site
      </label>
      <div className="combo">
        <input
          id="site-search-input"
          type="search"
          name="q"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls="site-search-listbox"
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          autoComplete="off"
          maxLength={200}
          placeholder="Search posts"
          value={value}
          onChange={(event) => {
            const text = event.target.value;
            current.current = text;
            setValue(text);
            setActive(-1);
            ask(text);
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
          onFocus={() => setOpen(shown.length > 0)}
        />
        <ul id="site-search-listbox" role="listbox" aria-label="Suggestions" hidden={!expanded}>
          {shown.map((match, index) => (
            <li
              key={match.url}
              id={optionId(index)}
              data-url={match.url}
              role="option"
              aria-selected={index === active}
              // Pressing on an option must not blur the box first, which would close the list under the pointer.
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => setActive(index)}
              onClick={() => choose(match)}
            >
              {match.title}
            </li>
          ))}
        </ul>
      </div>
      <button type="submit">Search</button>
    </form>
  );
}
