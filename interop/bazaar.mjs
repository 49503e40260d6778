// bazaar.mjs reads caddy-x402's discovery with upstream x402's own code:
// @x402/extensions' bazaar client (withBazaar on @x402/core's
// HTTPFacilitatorClient) lists GET /discovery/resources, filtered and
// paged, and @x402/extensions' validators check the bazaar extension of
// each listed resource and of a real 402, which @x402/core decodes.
//
// Inputs come from the environment (set by caddymodule/bazaar_test.go):
// FACILITATOR_URL, QUERY_URL (a paid GET route with a bazaar block),
// BODY_URL (a paid POST route with one), PAY_TO (their merchant). It prints
// one JSON object with what it saw, and exits non-zero on the first thing
// that is not what it should be.
import { HTTPFacilitatorClient, decodePaymentRequiredHeader } from '@x402/core/http';
import { withBazaar, validateDiscoveryExtension, extractDiscoveryInfo } from '@x402/extensions/bazaar';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const facilitatorURL = env('FACILITATOR_URL');
const queryURL = env('QUERY_URL');
const bodyURL = env('BODY_URL');
const payTo = env('PAY_TO');

function check(cond, what, detail) {
  if (!cond) {
    console.error(`bazaar interop: ${what}: ${JSON.stringify(detail)}`);
    process.exit(1);
  }
}

const client = withBazaar(new HTTPFacilitatorClient({ url: facilitatorURL }));
const seen = {};

// Everything, one page.
const all = await client.extensions.bazaar.listResources();
check(all.x402Version === 2, 'x402Version', all);
check(all.pagination && all.pagination.total === 2 && all.pagination.offset === 0 && all.pagination.limit === 20, 'pagination', all.pagination);
check(all.items.map((i) => i.resource).join(' ') === [bodyURL, queryURL].sort().join(' '), 'the listed resources', all.items.map((i) => i.resource));
for (const item of all.items) {
  check(item.type === 'http' && item.x402Version === 2 && typeof item.lastUpdated === 'string' && !Number.isNaN(Date.parse(item.lastUpdated)), 'item fields', item);
  check(item.accepts.length > 0 && item.accepts.every((a) => a.payTo === payTo && a.network.startsWith('eip155:')), 'item accepts', item.accepts);
  const v = validateDiscoveryExtension(item.extensions.bazaar);
  check(v.valid, `the listed bazaar extension of ${item.resource} validates`, v.errors);
}
seen.total = all.pagination.total;
seen.resources = all.items.map((i) => i.resource);

// Filters and paging, as the client sends them.
const page = await client.extensions.bazaar.listResources({ type: 'http', limit: 1, offset: 1 });
check(page.items.length === 1 && page.pagination.limit === 1 && page.pagination.offset === 1 && page.pagination.total === 2, 'limit 1 offset 1', page);
check(page.items[0].resource === all.items[1].resource, 'the second page is the second item', page.items[0].resource);
const mcp = await client.extensions.bazaar.listResources({ type: 'mcp' });
check(mcp.items.length === 0 && mcp.pagination.total === 0, 'type mcp lists nothing', mcp);
const other = await client.extensions.bazaar.listResources({ payTo: '0x000000000000000000000000000000000000dEaD' });
check(other.items.length === 0, 'another payTo lists nothing', other);
const mine = await client.extensions.bazaar.listResources({ payTo, scheme: 'exact', network: all.items[0].accepts[0].network, extensions: 'bazaar' });
check(mine.pagination.total === 2, 'payTo, scheme, network and extensions filters keep both', mine.pagination);
let refused = '';
try {
  await client.extensions.bazaar.listResources({ limit: 0 });
} catch (e) {
  refused = String(e.message);
}
check(refused.includes('(400)') && refused.includes('invalid_request'), 'limit 0 is refused with a 400', refused);
seen.filters = 'ok';

// The 402s carry the same declaration, which upstream's facilitator-side
// extraction reads as a discoverable resource.
for (const [url, method] of [[queryURL, 'GET'], [bodyURL, 'POST']]) {
  const resp = await fetch(url, { method, headers: { 'Content-Type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
  check(resp.status === 402, `${method} ${url} answers 402`, resp.status);
  const pr = decodePaymentRequiredHeader(resp.headers.get('PAYMENT-REQUIRED'));
  const ext = pr.extensions && pr.extensions.bazaar;
  check(ext, '402 carries extensions.bazaar', pr);
  const v = validateDiscoveryExtension(ext);
  check(v.valid, `the 402's bazaar extension of ${url} validates`, v.errors);
  const listed = all.items.find((i) => i.resource === url);
  check(JSON.stringify(listed.extensions.bazaar) === JSON.stringify(ext), 'the 402 and the list agree', { listed: listed.extensions.bazaar, ext });
  const found = extractDiscoveryInfo({ x402Version: 2, resource: pr.resource, accepted: pr.accepts[0], extensions: pr.extensions }, pr.accepts[0]);
  check(found && found.resourceUrl === url && found.method === method, 'extractDiscoveryInfo', found);
  seen[method] = { method: found.method, input: found.discoveryInfo.input, output: found.discoveryInfo.output, category: ext.info.category, tags: ext.info.tags };
}
console.log(JSON.stringify(seen));
