/**
 * `svc doctor`: one line per check of the configuration and of each engine it names (database
 * reachable and migrated, Redis, NATS stream and consumer, SMTP, platform source), each check
 * under a time limit. Read-only: it creates, migrates and sends nothing, and never prints a
 * password or a URL's credentials. It reaches the engines with their own clients and the
 * database through db/; it does not start services.
 */
export { CHECKS, DEFAULT_TIMEOUT_MS, DOCTOR_USAGE, doctorCommand, parseDoctorArgs } from './doctor.cli.js';
export {
  type Check,
  type CheckContext,
  type DoctorDeps,
  type Finding,
  formatLine,
  type RobloxCheckOptions,
  runDoctor,
  type Status,
} from './doctor.js';
export { maskUrl, redact } from './mask.js';
