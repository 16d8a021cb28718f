/**
 * Pick a game by searching (GET /api/search, debounced, suggestions as you type), as an ARIA
 * combobox: arrows move through the suggestions, Enter picks, Escape closes. The market's search
 * (GameSearch) is this with a hidden label, opening the picked game's page.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, type Schemas, unwrap } from '../api/client';
import { formatCompact } from '../lib/format';
import { useDebounced } from '../lib/hooks';

type GameResult = Schemas['GameSearchResult'];

export function GamePicker({
  label,
  onPick,
  disabled = false,
  hideLabel = false,
  placeholder = 'Name, creator or id',
}: {
  label: string;
  onPick: (game: GameResult) => void;
  disabled?: boolean;
  /** The label for assistive technology only (a search box in a header). */
  hideLabel?: boolean;
  placeholder?: string;
}) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const id = useId();
  const listId = `${id}-list`;
  const q = useDebounced(text.trim(), 200);
  const results = useQuery({
    queryKey: ['search', q, 8],
    queryFn: () => unwrap(api.GET('/api/search', { params: { query: { q, limit: 8 } } })),
    enabled: q.length >= 2,
    staleTime: 60_000,
  });
  const items = q.length >= 2 ? (results.data?.results ?? []) : [];
  const pick = (g: GameResult) => {
    setOpen(false);
    setText('');
    setActive(-1);
    onPick(g);
  };
  const expanded = open && q.length >= 2;
  return (
    <div className="search-box game-picker">
      <label htmlFor={`${id}-input`}>
        <span className={hideLabel ? 'sr-only' : undefined}>{label}</span>
        <input
          id={`${id}-input`}
          type="search"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={active >= 0 ? `${id}-${active}` : undefined}
          placeholder={placeholder}
          autoComplete="off"
          disabled={disabled}
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
              e.preventDefault();
              const chosen = items[Math.max(active, 0)];
              if (chosen) pick(chosen);
            } else if (e.key === 'Escape') {
              setOpen(false);
            }
          }}
        />
      </label>
      {expanded ? (
        <div className="suggestions" id={listId} role="listbox" aria-label={`${label}: suggestions`}>
          {results.isPending ? <div className="suggestion-note">Searching…</div> : null}
          {results.error ? (
            <div className="suggestion-note">Search failed: {(results.error as Error).message}</div>
          ) : null}
          {!results.isPending && !results.error && items.length === 0 ? (
            <div className="suggestion-note">No game matches “{q}”.</div>
          ) : null}
          {items.map((g, i) => (
            <div
              key={g.universe_id}
              tabIndex={-1}
              id={`${id}-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(g);
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
