// express-server.mjs is an upstream x402 resource server: Express with
// @x402/express's paymentMiddleware and @x402/evm's exact server scheme,
// which charges for GET /paid and has a caddy-x402 facilitator verify and
// settle the payments (over HTTP, with a facilitator API key, as a remote
// merchant). client/interop_express_test.go starts it and pays it with the
// caddy-x402 Go payer.
//
// Inputs come from the environment. It listens on 127.0.0.1 on a free port
// and prints one JSON line, {"url": ...}, once it listens; it stops when
// its standard input closes (when the test ends).
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const network = env('NETWORK');

// Each settle names itself with an Idempotency-Key, as the caddy-x402
// facilitator asks of a keyed merchant.
let settles = 0;
const facilitator = new HTTPFacilitatorClient({
  url: env('FACILITATOR_URL'),
  timeoutMs: 60_000,
  createAuthHeaders: async () => ({
    verify: {}, supported: {},
    settle: { Authorization: `Bearer ${env('SETTLE_KEY')}`, 'Idempotency-Key': `express-${process.pid}-${++settles}` },
  }),
});
const server = new x402ResourceServer(facilitator).register(network, new ExactEvmScheme());

const app = express();
app.use(paymentMiddleware({
  'GET /paid': {
    accepts: {
      scheme: 'exact',
      network,
      payTo: env('PAY_TO'),
      // The devnet token is no asset upstream knows: the price names it.
      price: { amount: env('AMOUNT'), asset: env('ASSET'), extra: { name: env('TOKEN_NAME'), version: env('TOKEN_VERSION') } },
      maxTimeoutSeconds: 60,
    },
    description: 'interop: a report paid through @x402/express',
    mimeType: 'application/json',
  },
}, server));
app.get('/paid', (req, res) => res.json({ report: 'paid through @x402/express' }));

const listener = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${listener.address().port}` }));
});
process.stdin.resume();
process.stdin.on('end', () => { listener.close(); process.exit(0); });
