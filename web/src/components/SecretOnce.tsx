/**
 * A copy button with its confirmation, and a secret shown once (an API key, an ingest key, a
 * webhook's signing secret) with that button, a warning and an "I've stored it" close.
 */
import { type ReactNode, useEffect, useId, useState } from 'react';

export function CopyButton({
  text,
  label = 'Copy',
  primary = false,
}: {
  text: string;
  label?: string;
  primary?: boolean;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 4000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="row copy-button">
      <button type="button" className={primary ? 'button primary' : 'button'} onClick={() => void copy()}>
        {label}
      </button>
      <span className="small" role="status" aria-live="polite">
        {state === 'copied' ? <span className="good">Copied to the clipboard.</span> : null}
        {state === 'failed' ? (
          <span className="bad">The browser refused the clipboard: select the text and copy it by hand.</span>
        ) : null}
      </span>
    </span>
  );
}

export function SecretOnce({
  title,
  secret,
  testId,
  children,
  after,
  onDone,
}: {
  title: ReactNode;
  secret: string;
  testId: string;
  /** What the secret is for, above it (the "won't be shown again" warning is the card's own). */
  children?: ReactNode;
  /** How to use it, below it. */
  after?: ReactNode;
  onDone: () => void;
}) {
  const id = useId();
  return (
    <section className="new-secret stack" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <p>
        {children} <strong>Copy it now: it won’t be shown again.</strong>
      </p>
      <div className="secret-row">
        <code className="secret" data-testid={testId}>
          {secret}
        </code>
        <CopyButton text={secret} primary />
      </div>
      {after}
      <div className="row">
        <button type="button" className="button" onClick={onDone}>
          I’ve stored it
        </button>
      </div>
    </section>
  );
}
