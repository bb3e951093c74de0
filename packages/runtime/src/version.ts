/** The reference runtime's own version, reported in `serverInfo.version` (informational). */
export const RUNTIME_VERSION = '0.1.0';
