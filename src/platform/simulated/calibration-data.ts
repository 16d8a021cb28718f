/**
 * The shapes of the real market data the calibration estimators read (calibration*.ts). The data
 * themselves are never product data: test/helpers/ccu-realdata.ts loads them for the calibration
 * test, scripts/calibrate.ts and the forecast bench.
 */
export interface CcuReading {
  /** ms since epoch, UTC. */
  t: number;
  ccu: number;
}

export interface GameSeries {
  id: string;
  readings: CcuReading[];
}

export interface VisitsReading {
  /** UTC midnight of the snapshot's date (the hour of the daily run is not recorded). */
  day: number;
  visits: number;
}

export interface TopGame {
  rank: number;
  name: string;
  ccu: number;
  visits: number;
  favourites: number;
  likes: number;
  dislikes: number;
}

export interface RealData {
  ccu15: GameSeries[];
  ccu4h: GameSeries[];
  visitsDaily: Map<string, VisitsReading[]>;
  top1000: TopGame[];
}
