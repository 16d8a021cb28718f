/**
 * Search with suggestions as you type (GET /api/search, debounced): an ARIA combobox; arrows move
 * through the suggestions, Enter opens the game, Escape closes the list.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { formatCompact } from '../lib/format';
import { useDebounced } from '../lib/hooks';

export function GameSearch() {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const listId = useId();
  const q = useDebounced(text.trim(), 200);
  const results = useQuery({
    queryKey: ['search', q],
    queryFn: () => unwrap(api.GET('/api/search', { params: { query: { q, limit: 8 } } })),
    enabled: q.length >= 2,
    staleTime: 60_000,
  });
  const items = q.length >= 2 ? (results.data?.results ?? []) : [];
  const go = (placeId: number) => {
    setOpen(false);
    setText('');
    navigate(`/games/${placeId}`);
  };
  return (
    <div className="search-box">
      <label htmlFor={`${listId}-input`} className="sr-only">
        Search games
      </label>
      <input
        id={`${listId}-input`}
        type="search"
        role="combobox"
        aria-expanded={open && items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        placeholder="Search games by name, creator or id"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setActive((a) => Math.min(items.length - 1, a + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(-1, a - 1));
          } else if (e.key === 'Enter') {
            const pick = items[Math.max(active, 0)];
            if (pick) go(pick.place_id);
          } else if (e.key === 'Escape') {
            setOpen(false);
          }
        }}
        style={{ minWidth: 280 }}
      />
      {open && q.length >= 2 ? (
        <div className="suggestions" id={listId} role="listbox" aria-label="Suggestions">
          {results.isPending ? <div className="suggestion-note">Searching…</div> : null}
          {results.error ? (
            <div className="suggestion-note">Search failed: {(results.error as Error).message}</div>
          ) : null}
          {!results.isPending && !results.error && items.length === 0 ? (
            <div className="suggestion-note">No game matches “{q}”.</div>
          ) : null}
          {items.map((g, i) => (
            <div
              key={g.place_id}
              tabIndex={-1}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                go(g.place_id);
              }}
            >
              <strong>{g.name}</strong>{' '}
              <span className="muted small">
                by {g.creator} · {formatCompact(g.ccu)} playing
              </span>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
