// facilitator.mjs drives a caddy-x402 facilitator with upstream x402's own
// code: @x402/evm's exact client signs a payment for the devnet token, and
// @x402/core's HTTPFacilitatorClient (which validates every answer with zod)
// calls /supported, /verify and /settle, on success and on failure.
//
// Inputs come from the environment (set by facilitator/interop_test.go). It
// prints one JSON object with what it saw, and exits non-zero on the first
// answer upstream rejects or that is not what it should be.
import { HTTPFacilitatorClient } from '@x402/core/http';
import { VerifyError } from '@x402/core/types';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const url = env('FACILITATOR_URL');
const network = env('NETWORK');
const asset = env('ASSET');
const payTo = env('PAY_TO');
const amount = env('AMOUNT');
const account = privateKeyToAccount(env('PAYER_KEY'));

function check(cond, what, detail) {
  if (!cond) {
    console.error(`interop: ${what}: ${JSON.stringify(detail)}`);
    process.exit(1);
  }
}

const requirements = {
  scheme: 'exact',
  network,
  amount,
  asset,
  payTo,
  maxTimeoutSeconds: 60,
  extra: { name: env('TOKEN_NAME'), version: env('TOKEN_VERSION') },
};
const paymentRequired = {
  x402Version: 2,
  resource: { url: 'http://127.0.0.1/paid/report', description: 'interop', mimeType: 'application/json' },
  accepts: [requirements],
};

const client = new x402Client().register(network, new ExactEvmScheme(account));
client.setSpendControls({ allowedAssets: [{ network, asset, maxAmountPerPayment: amount }] });
const payload = await client.createPaymentPayload(paymentRequired);

const facilitator = new HTTPFacilitatorClient({ url, timeoutMs: 30_000 });
const out = { payer: account.address };

// /supported: zod-validated by getSupported.
const supported = await facilitator.getSupported();
check(supported.kinds.some((k) => k.scheme === 'exact' && k.network === network), 'supported kinds', supported);
out.supported = supported;

// /verify, valid and invalid; both are 200 and pass zod.
const valid = await facilitator.verify(payload, requirements);
check(valid.isValid === true && valid.payer === account.address, 'verify valid', valid);
const wrongAmount = { ...requirements, amount: String(BigInt(amount) + 1n) };
const invalid = await facilitator.verify(payload, wrongAmount);
check(invalid.isValid === false && invalid.invalidReason === 'amount_mismatch', 'verify invalid', invalid);
out.verifyInvalid = invalid;

// A malformed request is a 400 whose body upstream still recognizes as a
// verify response (VerifyError, not a generic error).
try {
  await facilitator.verify({ ...payload, x402Version: 7 }, requirements);
  check(false, 'malformed verify', 'accepted');
} catch (err) {
  check(err instanceof VerifyError && err.statusCode === 400, 'malformed verify error', String(err));
  out.malformed = { status: err.statusCode, reason: err.invalidReason };
}

// /settle needs a credential for a merchant this facilitator does not serve
// itself: without one it is a 401 that upstream reads as a SettleError.
try {
  await facilitator.settle(payload, requirements);
  check(false, 'anonymous settle', 'accepted');
} catch (err) {
  check(err.statusCode === 401 && err.errorReason === 'verify_failed', 'anonymous settle error', String(err));
  out.anonymous = { status: err.statusCode, reason: err.errorReason };
}

// A remote merchant sends its facilitator API key, and an Idempotency-Key
// that names this one settle, through upstream's createAuthHeaders.
const merchantClient = (idempotencyKey) => new HTTPFacilitatorClient({
  url, timeoutMs: 30_000,
  createAuthHeaders: async () => ({
    verify: {}, supported: {},
    settle: { Authorization: `Bearer ${env('SETTLE_KEY')}`, 'Idempotency-Key': idempotencyKey },
  }),
});
const owner = merchantClient('interop-settle-1');

// /settle: success, then the same settle's retry (same receipt), another
// settle of the same payment (replay: one payment, one response), then a
// failure; all pass zod.
const settled = await owner.settle(payload, requirements);
check(settled.success === true && /^0x[0-9a-f]{64}$/.test(settled.transaction) && settled.network === network, 'settle', settled);
out.settled = settled;
const duplicate = await owner.settle(payload, requirements);
check(duplicate.success === true && duplicate.transaction === settled.transaction, 'duplicate settle', duplicate);
const other = await merchantClient('interop-settle-2').settle(payload, requirements);
check(other.success === false && other.errorReason === 'verify_failed' && /replay/.test(other.errorMessage), 'second settle of one payment', other);
out.replay = other;
const failed = await owner.settle(payload, wrongAmount);
check(failed.success === false && failed.errorReason === 'verify_failed' && failed.transaction === '', 'failed settle', failed);
out.failed = failed;

console.log(JSON.stringify(out));
