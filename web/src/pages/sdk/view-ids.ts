/** The SDK analytics views, in tab order (/sdk/:game/:view); SdkGame draws one per id. */
export const SDK_VIEW_IDS = [
  'overview',
  'engagement',
  'retention',
  'monetization',
  'ads',
  'geo',
  'levels',
  'funnel',
  'performance',
  'crashes',
  'errors',
  'brand',
  'brand-lift',
  'experiments',
  'segments',
  'export',
] as const;
export type SdkViewId = (typeof SDK_VIEW_IDS)[number];
