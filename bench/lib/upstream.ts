/**
 * The upstream service for the bench, in its own process: a `createServiceApp` app (so x-identity is
 * verified as in every real service) with two routes under the referrals prefix. With BENCH_UPSTREAM_SOCKET
 * it also listens on that Unix socket (`listenOnSocket`, as `npm start`'s services for the gateway).
 */
import { createServiceApp, listenOnSocket } from '@app/kit';
import type { FastifyRequest } from 'fastify';

const internalSecret = process.env.INTERNAL_SECRET;
if (!internalSecret) throw new Error('INTERNAL_SECRET is required');

const app = createServiceApp({ name: 'bench-upstream', internalSecret });

/** ~100 bytes, serialised per request, echoing the identity the service verified. */
const echo = async (request: FastifyRequest) => ({
  identified: request.identity !== null,
  userId: request.identity?.userId ?? null,
  service: 'referrals',
  // How the call arrived (the sanity checks look): over TCP or the Unix socket.
  via: request.socket.remoteAddress ? 'tcp' : 'uds',
});
app.get('/api/referrals/bench-small', echo);
/** A public operation of the contract (the demo request), for the anonymous sanity checks. */
app.post('/api/demo-request', echo);

/** ~20 KB, serialised once; only the identity flag in front changes. */
const items = Array.from({ length: 100 }, (_, i) => ({
  id: `ref_${String(i).padStart(6, '0')}`,
  referrerName: `Referrer number ${i}`,
  candidateEmail: `candidate${i}@example.com`,
  programId: `prog_${i % 7}`,
  status: ['pending', 'accepted', 'rejected'][i % 3],
  createdAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
  note: 'x'.repeat(24),
}));
const largeTail = `,"items":${JSON.stringify(items)}}`;
app.get('/api/referrals/bench-large', async (request, reply) =>
  reply.type('application/json; charset=utf-8').send(`{"identified":${request.identity !== null}${largeTail}`),
);

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address() as { port: number };
const socket = process.env.BENCH_UPSTREAM_SOCKET ? await listenOnSocket(app, process.env.BENCH_UPSTREAM_SOCKET) : null;
process.send?.({ type: 'ready', port: address.port });
process.on('message', (message: { type?: string }) => {
  if (message?.type === 'close') void Promise.all([socket?.close(), app.close()]).then(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
