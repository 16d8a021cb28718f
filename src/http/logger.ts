import type { DestinationStream, LoggerOptions } from 'pino';
import type { LogLevel } from '../config.js';

/**
 * Paths that may carry secrets or personal data. Fastify's request serializer logs no headers
 * or bodies by default; these stay censored even if a handler logs a request or reply object.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  '*.password',
  '*.refresh_token',
  '*.access_token',
  '*.api_key',
  '*.key',
  '*.token',
  '*.secret',
  '*.email',
];

export interface LoggerSetup {
  level: LogLevel;
  /** Where JSON lines go; stdout when omitted. Tests pass a stream to capture them. */
  stream?: DestinationStream;
}

export function loggerOptions(setup: LoggerSetup): LoggerOptions & { stream?: DestinationStream } {
  return {
    level: setup.level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(setup.stream ? { stream: setup.stream } : {}),
  };
}
