/**
 * Background work. catalog.ts lists every job and worker with its schedule; the scheduler owns
 * when jobs run and that runs never overlap across processes; each job is `run(now)` and only calls
 * domain services: no business rules live here.
 */

export {
  allJobs,
  allWorkers,
  backgroundWork,
  purgeRefreshTokensJob,
  type Role,
  type Worker,
} from './catalog.js';
export { jobStates } from './jobs.repo.js';
export { type Job, type JobRunResult, Scheduler, type SchedulerDeps } from './scheduler.js';
