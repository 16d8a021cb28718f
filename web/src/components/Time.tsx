import { formatAgo, formatLocal, formatUtc } from '../lib/format';

/** A moment in the viewer's zone, UTC on hover. */
export function Time({ at, relative = false }: { at: string; relative?: boolean }) {
  return (
    <time dateTime={at} title={formatUtc(at)}>
      {relative ? formatAgo(at) : formatLocal(at)}
    </time>
  );
}
