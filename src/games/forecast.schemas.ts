import { type Static, Type } from 'typebox';
import { LEVEL } from './forecast.service.js';

const Bound = (what: string) =>
  Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
    description: `${what} of the ${LEVEL * 100}% prediction interval; null on the Builder plan. Never below 0.`,
  });

export const ForecastResponse = Type.Object({
  place_id: Type.Integer(),
  universe_id: Type.Integer(),
  forecast: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date', description: 'UTC day, tomorrow first.' }),
      predicted_ccu: Type.Number({ minimum: 0, description: 'Forecast daily mean CCU.' }),
      lower_bound: Bound('Lower bound'),
      upper_bound: Bound('Upper bound'),
    }),
  ),
  model_version: Type.String({ description: 'Model and engine version, e.g. `ets-auto-log@1`.' }),
  generated_at: Type.String({ format: 'date-time' }),
  level: Type.Union([Type.Number(), Type.Null()], {
    description: 'Coverage of the interval (0.8), or null when bounds are withheld.',
  }),
  history_days: Type.Integer({ description: 'Complete days of history the model was fitted on.' }),
});
export type ForecastResponseT = Static<typeof ForecastResponse>;
