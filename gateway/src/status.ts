import type { ServiceName } from '@app/contracts';
import { runChecks, type EventBus } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from './config.ts';
import { sendError, sessionToken, upstreams } from './proxy.ts';
import { UpstreamUnavailableError, type SessionResolver } from './sessions.ts';

type ServiceStatus = {
  status: 'ready' | 'not ready' | 'unreachable';
  version?: string;
  checks?: Record<string, string>;
};

/** One service's /readyz, within 2 s: ready, not ready (with its checks) or unreachable. */
async function serviceStatus(url: string): Promise<ServiceStatus> {
  try {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
    const body = (await response.json()) as { version?: string; checks?: Record<string, string> };
    return {
      status: response.ok ? 'ready' : 'not ready',
      ...(typeof body.version === 'string' ? { version: body.version } : {}),
      ...(body.checks ? { checks: body.checks } : {}),
    };
  } catch {
    return { status: 'unreachable' };
  }
}

/**
 * The gateway's health: `/readyz` is its own (it serves once configured and listening; a service that is
 * down makes only that service's routes answer 503, so probes must not take every gateway out), and
 * `/status` shows the whole system to administrators: each service's readiness (database, events) and
 * version, the gateway's bus (NATS), the
 * gateway's own version. Anyone else gets what an unknown path gets, so it tells outsiders nothing.
 */
export function healthRoutes(
  app: FastifyInstance,
  config: GatewayConfig,
  sessions: SessionResolver,
  bus: EventBus | undefined,
) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => ({ status: 'ready', version: config.APP_VERSION }));

  app.get('/status', async (request, reply) => {
    const token = sessionToken(request.headers.cookie);
    let isAdmin = false;
    try {
      isAdmin = token ? ((await sessions.resolve(token)).identity?.isAdmin ?? false) : false;
    } catch (error) {
      if (!(error instanceof UpstreamUnavailableError)) throw error;
    }
    if (!isAdmin) return sendError(reply, 'NOT_FOUND');
    const [services, events] = await Promise.all([
      Promise.all(
        Object.entries(upstreams(config)).map(async ([name, url]) => [name, await serviceStatus(url)] as const),
      ),
      bus ? runChecks({ events: () => bus.check() }, app.log) : undefined,
    ]);
    const byName = Object.fromEntries(services) as Record<ServiceName, ServiceStatus>;
    const allReady = services.every(([, service]) => service.status === 'ready') && (events?.ready ?? true);
    return reply.header('cache-control', 'no-store').send({
      status: allReady ? 'ok' : 'degraded',
      version: config.APP_VERSION,
      // The gateway's own connection to the bus (NATS between processes; the services report theirs).
      events: events ? { transport: bus!.kind, status: events.checks.events } : undefined,
      services: byName,
      checkedAt: new Date().toISOString(),
    });
  });
}
