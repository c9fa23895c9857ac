// Tests never reach the network: every connection except loopback is refused.
import nock from 'nock';

nock.disableNetConnect();
nock.enableNetConnect(/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/);
