import { compare, type Figure, load, ratio, type Suite, startTarget } from './lib.js';

/** GET /healthz of the real server (helmet, request ids, error handling, logging) vs a bare route. */
export const httpSuite: Suite = {
  name: 'http',
  description: 'requests/s of GET /healthz against a bare Fastify route',
  async run(options) {
    const bare = await startTarget('bare');
    const app = await startTarget('app');
    try {
      const { floor, subject } = await compare(
        () => load(`${bare.url}/`, options),
        () => load(`${app.url}/healthz`, options),
      );
      if (subject.errors > 0 || subject.non2xx > 0) {
        throw new Error(
          `/healthz answered ${subject.non2xx} non-2xx and ${subject.errors} errors under load`,
        );
      }
      const figures: Figure[] = [
        {
          suite: 'http',
          name: 'GET /healthz requests/s',
          value: Math.round(subject.rps),
          unit: 'req/s',
          floor: { name: 'bare Fastify route', value: Math.round(floor.rps) },
          ratio: ratio(subject.rps, floor.rps),
        },
        {
          suite: 'http',
          name: 'GET /healthz p99 latency',
          value: subject.p99,
          unit: 'ms',
          floor: { name: 'bare Fastify route p99', value: floor.p99 },
          ratio: ratio(subject.p99, floor.p99),
        },
      ];
      return figures;
    } finally {
      await Promise.all([bare.stop(), app.stop()]);
    }
  },
};
