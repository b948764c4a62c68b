import { createAmazonProvider } from './amazon.js';
import { createItunesProvider } from './itunes.js';
import { startAmazonStandIn } from '../test-support/amazon-stand-in.js';
import { startItunesStandIn } from '../test-support/itunes-stand-in.js';
import { providerContract } from '../test-support/provider-contract.js';

const AMAZON_TEST_KEY = { accessKey: 'AKIDSTANDIN', secretKey: 'stand-in/secret+key', partnerTag: 'sitestack-20' };

providerContract('itunes', async (tracks) => {
  const standIn = await startItunesStandIn(tracks);
  return { standIn, provider: createItunesProvider({ baseUrl: standIn.url }) };
});

providerContract('amazon', async (tracks) => {
  const standIn = await startAmazonStandIn({
    tracks,
    keys: { [AMAZON_TEST_KEY.accessKey]: AMAZON_TEST_KEY.secretKey },
    partnerTag: AMAZON_TEST_KEY.partnerTag,
    region: 'us-east-1',
  });
  return { standIn, provider: createAmazonProvider({ ...AMAZON_TEST_KEY, baseUrl: standIn.url, region: 'us-east-1' }) };
});
