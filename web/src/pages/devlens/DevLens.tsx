/**
 * Dev Lens (Studio and above): drop a Creator Hub CSV, watch it upload, read the report; saved
 * reports listed and reopened (?report=<id>). Plans below Studio get the API's 403 as an upgrade card.
 */

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, api, type Schemas, unwrap } from '../../api/client';
import { useGenreList } from '../../components/GenreSelect';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading, UpgradeCard } from '../../components/states';
import { Time } from '../../components/Time';
import { formatInteger } from '../../lib/format';
import { RequireAuth } from '../../lib/session';
import { DevLensReport } from './DevLensReport';
import { FILE_TYPE_LABELS } from './report';
import { ACCEPT, analyse, checkUpload, type Phase } from './upload';

const REPORTS_KEY = ['devlens', 'reports'] as const;
const REPORTS_LIMIT = 50;

type Result = Schemas['DevLensResult'];

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function useGenreNames() {
  const genres = useGenreList();
  return useMemo(() => {
    // 'unknown' (unclassified games) has no benchmark table; the API would refuse it.
    const list = (genres.data ?? []).filter((g) => g.name !== 'unknown');
    const names = new Map(list.map((g) => [g.name, g.display_name] as const));
    return {
      list,
      name: (key: string) => names.get(key) ?? key.replace(/_/g, ' '),
    };
  }, [genres.data]);
}

function Progress({ phase, fileName, onCancel }: { phase: Phase; fileName: string; onCancel: () => void }) {
  const labelId = useId();
  const percent =
    phase.kind === 'uploading' && phase.total > 0 ? Math.round((phase.loaded / phase.total) * 100) : null;
  return (
    <div className="devlens-progress stack" data-testid="devlens-progress">
      <div className="row devlens-progress-head">
        <span id={labelId} role="status" aria-live="polite">
          {phase.kind === 'uploading'
            ? `Uploading ${fileName}… ${percent ?? 0}%`
            : `Analysing ${fileName}… this takes a few seconds.`}
        </span>
        <button type="button" className="button ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {phase.kind === 'uploading' ? (
        <progress aria-labelledby={labelId} max={100} value={percent ?? 0} />
      ) : (
        <progress aria-labelledby={labelId} />
      )}
    </div>
  );
}

function Uploader({
  genres,
  onResult,
}: {
  genres: ReturnType<typeof useGenreNames>;
  onResult: (result: Result) => void;
}) {
  const client = useQueryClient();
  const [genre, setGenre] = useState('');
  const [save, setSave] = useState(true);
  const [over, setOver] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase | null>(null);
  const [fileName, setFileName] = useState('');
  const abort = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const upload = useMutation({
    mutationFn: (file: File) => {
      abort.current = new AbortController();
      return analyse(file, { genre, save, onPhase: setPhase, signal: abort.current.signal });
    },
    onSuccess: (result) => {
      if (result.report_id != null) void client.invalidateQueries({ queryKey: REPORTS_KEY });
      onResult(result);
    },
    onSettled: () => {
      setPhase(null);
      abort.current = null;
      if (input.current) input.current.value = '';
    },
  });

  useEffect(() => () => abort.current?.abort(), []);

  const start = (files: FileList | null) => {
    if (upload.isPending) return;
    upload.reset();
    if (!files || files.length === 0) return;
    if (files.length > 1) {
      setProblem('Drop one file at a time: Dev Lens reads one CSV export per report.');
      return;
    }
    const file = files[0] as File;
    const why = checkUpload(file);
    setProblem(why);
    if (why) return;
    setFileName(file.name);
    upload.mutate(file);
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    start(e.dataTransfer.files);
  };

  return (
    <section className="card stack" aria-labelledby="upload-title">
      <h2 id="upload-title">Analyse a CSV export</h2>
      <div className="row devlens-options">
        <label>
          Benchmark against
          <select value={genre} onChange={(e) => setGenre(e.target.value)} disabled={upload.isPending}>
            <option value="">All genres</option>
            {genres.list.map((g) => (
              <option key={g.name} value={g.name}>
                {g.display_name}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          <input
            type="checkbox"
            checked={save}
            onChange={(e) => setSave(e.target.checked)}
            disabled={upload.isPending}
          />
          Save the report (the results, never the file)
        </label>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer gesture; the file button inside is the keyboard way in */}
      <div
        className={`dropzone devlens-dropzone${over ? ' over' : ''}`}
        data-testid="devlens-dropzone"
        onDragEnter={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = upload.isPending ? 'none' : 'copy';
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
        }}
        onDrop={onDrop}
      >
        <p className="devlens-drop-title">Drag a Creator Hub CSV export here</p>
        <p className="muted small">or</p>
        <label className={`button primary devlens-file${upload.isPending ? ' disabled' : ''}`}>
          Choose a CSV file
          <input
            ref={input}
            className="sr-only"
            type="file"
            accept={ACCEPT}
            data-testid="devlens-file-input"
            disabled={upload.isPending}
            onChange={(e) => start(e.target.files)}
          />
        </label>
        <p className="muted small devlens-hint">
          Up to 10 MB. Creator Hub chart exports (Engagement, Retention, Monetization, Acquisition), a daily
          table with a Date column, a Sales data export, or a funnel table (Step, Users). The file is analysed
          in memory and never stored.
        </p>
      </div>
      {phase ? <Progress phase={phase} fileName={fileName} onCancel={() => abort.current?.abort()} /> : null}
      {problem ? (
        <div className="state state-error" role="alert">
          <p className="state-title">{problem}</p>
        </div>
      ) : null}
      {upload.error ? (
        isAbort(upload.error) ? (
          <p className="notice" role="status">
            Upload of {fileName} cancelled.
          </p>
        ) : (
          <ErrorState error={upload.error} />
        )
      ) : null}
    </section>
  );
}

type Saved = NonNullable<Awaited<ReturnType<typeof fetchReports>>>['reports'][number];

function fetchReports() {
  return unwrap(api.GET('/api/dev-lens/reports', { params: { query: { limit: REPORTS_LIMIT } } }));
}

function SavedReports({
  reports,
  openId,
  onOpen,
  genreName,
}: {
  reports: Saved[];
  openId: number | null;
  onOpen: (id: number) => void;
  genreName: (key: string) => string;
}) {
  return (
    <section className="card stack" aria-labelledby="saved-title">
      <h2 id="saved-title">Saved reports</h2>
      {reports.length === 0 ? (
        <Empty title="No saved report yet.">
          Analyse a file with “Save the report” ticked and it is listed here.
        </Empty>
      ) : (
        <>
          <ul className="devlens-reports" data-testid="devlens-reports">
            {reports.map((r) => (
              <li key={r.id} className={openId === r.id ? 'current' : undefined}>
                <div>
                  <strong>{FILE_TYPE_LABELS[r.file_type] ?? r.file_type}</strong>
                  <span className="muted small">
                    {' '}
                    · {r.genre === 'all' ? 'all genres' : genreName(r.genre)} ·{' '}
                    {r.result.coverage.days > 0
                      ? `${formatInteger(r.result.coverage.days)} days`
                      : `${formatInteger(r.result.coverage.rows)} rows`}
                  </span>
                  <br />
                  <span className="muted small">
                    <Time at={r.created_at} />
                  </span>
                </div>
                <button
                  type="button"
                  className="button"
                  onClick={() => onOpen(r.id)}
                  aria-current={openId === r.id ? 'true' : undefined}
                  aria-label={`Open the ${FILE_TYPE_LABELS[r.file_type] ?? r.file_type} report saved ${new Date(r.created_at).toLocaleString()}`}
                >
                  Open
                </button>
              </li>
            ))}
          </ul>
          {reports.length >= REPORTS_LIMIT ? (
            <p className="muted small">Your {formatInteger(REPORTS_LIMIT)} most recent reports.</p>
          ) : null}
        </>
      )}
    </section>
  );
}

function DevLens() {
  const [params, setParams] = useSearchParams();
  const genres = useGenreNames();
  const reports = useQuery({ queryKey: REPORTS_KEY, queryFn: fetchReports });
  const [fresh, setFresh] = useState<Result | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [focusReport, setFocusReport] = useState(0);
  const openId = params.get('report') ? Number(params.get('report')) : null;

  useEffect(() => {
    if (focusReport > 0) heading.current?.focus();
  }, [focusReport]);

  if (reports.isPending) return <Loading label="Opening Dev Lens" />;
  const gate =
    reports.error instanceof ApiError && reports.error.code === 'plan_upgrade_required'
      ? reports.error
      : null;
  if (gate) {
    return (
      <div data-testid="devlens-upgrade">
        <UpgradeCard plan={gate.requiredPlan ?? 'Studio'} feature="Dev Lens">
          <p>
            Upload a Creator Hub CSV export and get its retention, engagement, monetization or acquisition
            figures against your genre, the patterns in them and what to do next.
          </p>
        </UpgradeCard>
      </div>
    );
  }

  const saved = reports.data?.reports ?? [];
  const opened = openId != null ? saved.find((r) => r.id === openId) : undefined;
  const showFresh = fresh && (openId == null || fresh.report_id === openId);

  const openSaved = (id: number) => {
    setParams({ report: String(id) }, { replace: false });
    setFocusReport((n) => n + 1);
  };
  const onResult = (result: Result) => {
    setFresh(result);
    if (result.report_id != null) setParams({ report: String(result.report_id) }, { replace: true });
    else setParams({}, { replace: true });
    setFocusReport((n) => n + 1);
  };

  return (
    <>
      <div className="devlens-top">
        <Uploader genres={genres} onResult={onResult} />
        {reports.error ? (
          <section className="card stack" aria-labelledby="saved-title">
            <h2 id="saved-title">Saved reports</h2>
            <ErrorState error={reports.error} retry={() => void reports.refetch()} />
          </section>
        ) : (
          <SavedReports reports={saved} openId={openId} onOpen={openSaved} genreName={genres.name} />
        )}
      </div>
      {showFresh ? (
        <DevLensReport
          headingRef={heading}
          result={fresh}
          title={`${FILE_TYPE_LABELS[fresh.file_type] ?? fresh.file_type} report`}
          subtitle={
            fresh.report_id != null ? (
              <span className="badge">saved</span>
            ) : (
              <span className="badge">not saved</span>
            )
          }
          genreName={genres.name}
        />
      ) : opened ? (
        <DevLensReport
          headingRef={heading}
          result={opened.result}
          title={`${FILE_TYPE_LABELS[opened.file_type] ?? opened.file_type} report`}
          subtitle={
            <span className="badge">
              saved <Time at={opened.created_at} />
            </span>
          }
          genreName={genres.name}
        />
      ) : openId != null ? (
        <Empty title="That report is not among your saved reports.">
          It may be older than your last {REPORTS_LIMIT}.
        </Empty>
      ) : null}
    </>
  );
}

export function Component() {
  return (
    <RequireAuth>
      <div className="page">
        <PageHeader title="Dev Lens" />
        <p className="muted page-intro">
          Your own numbers, read for you: drop an analytics export from Creator Hub and see how it compares
          with your genre, what stands out and what to change first.
        </p>
        <DevLens />
      </div>
    </RequireAuth>
  );
}
