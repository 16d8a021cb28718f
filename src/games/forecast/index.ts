/**
 * Forecasting engine (pure): daily mean CCU history → daily point forecasts with calibrated
 * intervals, and probabilities from the predictive distribution. Owns no tables and does no I/O
 * (apart from instantiating augurs' WASM once); the forecast service feeds it and stores results.
 */
export {
  type DailyValue,
  type ForecastPoint,
  type ForecastResult,
  forecastSeries,
  InsufficientHistoryError,
  MIN_HISTORY_DAYS,
  probabilityAbove,
} from './engine.js';
