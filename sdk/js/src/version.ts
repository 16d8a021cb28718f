/** The SDK's version, sent as X-Svc-SDK-Version (`js/<version>`); kept equal to package.json's by a test. */
export const SDK_VERSION = '0.1.0';
