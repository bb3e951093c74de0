// @dsh-sdk/cli as a library: the pieces behind the dsh-sdk verbs, for tools and tests.
export { startRelay, FORWARDED_SIGNALS } from './relay.js';
export type { Relay, RelayEnd, RelayOptions } from './relay.js';
export { renderLivePage, renderTracePage } from './page-html.js';
export { readTrace } from './view-command.js';
export { Inspector } from './inspector.js';
export type { InspectorOptions } from './inspector.js';
export { describeFinding } from './trace-command.js';
