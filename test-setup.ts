// Tests never reach the network: every connection except loopback is refused.
import nock from 'nock';

nock.disableNetConnect();
nock.enableNetConnect(/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/);

// Property tests explore new inputs on every local run; CI replays one fixed seed, so a green
// fresh-clone check predicts a green CI. Set FC_SEED to replay a failure a local run reported.
import fc from 'fast-check';

const seed = process.env.FC_SEED ?? (process.env.CI ? '20261129' : undefined);
if (seed !== undefined) fc.configureGlobal({ seed: Number(seed) });
