/**
 * Market data sources: the PlatformSource interface, the Roblox web-API client (roblox/) and the
 * deterministic simulated market (simulated/). Owns no tables: the collector (market/) stores what
 * a source returns.
 */
export * from './platform.js';
