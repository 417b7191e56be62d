/**
 * `node bench/round-trip.ts`: what one round trip between two processes costs on this machine, in CPU time,
 * apart from any work done on either side. A request of 100 bytes goes over loopback TCP to an echo process
 * that answers 1 byte, and the next request leaves only once the answer is read, as a query on a database
 * connection, a call to a service or an SMTP command does. It prints the CPU time of each side per round trip
 * (`process.cpuUsage`: user and system), then the same for writes sent without waiting (the floor: one
 * system call), and for a prepared `SELECT 1` on a PostgreSQL connection (`BENCH_PG_URL`, default the
 * machine's): the client's CPU and its server process's (`/proc`), the cost of a statement that does nothing.
 * bench/README.md (pipeline benchmark, "Eighth pass") multiplies it by the round trips of one referral.
 */
import { fork } from 'node:child_process';
import { createServer, connect, type AddressInfo } from 'node:net';
import pg from 'pg';
import { cpuMicros } from './lib/processes.ts';

const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 20_000);
const WRITES = 200_000;

interface Cpu {
  user: number;
  system: number;
}

if (process.argv[2] === 'echo') {
  // The other side: answers each read with one byte, and reports its own CPU time when asked.
  let start: Cpu = process.cpuUsage();
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    socket.on('data', () => socket.write('.'));
    socket.on('error', () => {}); // the sender leaves without reading the last answers
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
  process.on('message', (message: string) => {
    if (message === 'start') start = process.cpuUsage();
    if (message === 'report') process.send!({ cpu: process.cpuUsage(start) });
    if (message === 'exit') process.exit(0);
  });
} else {
  const echo = fork(new URL(import.meta.url).pathname, ['echo']);
  const next = <T>() => new Promise<T>((resolve) => echo.once('message', (message) => resolve(message as T)));
  const { port } = await next<{ port: number }>();
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await new Promise((resolve) => socket.once('connect', resolve));
  const request = Buffer.alloc(100, 'x');

  const pingPong = async (count: number) => {
    let answered = 0;
    await new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        answered += chunk.length;
        if (answered >= count) {
          socket.off('data', onData);
          resolve();
        } else socket.write(request);
      };
      socket.on('data', onData);
      socket.write(request);
    });
  };
  await pingPong(2000); // warm-up

  echo.send('start');
  const mine = process.cpuUsage();
  const started = performance.now();
  await pingPong(ROUND_TRIPS);
  const elapsed = performance.now() - started;
  const sender = process.cpuUsage(mine);
  echo.send('report');
  const { cpu: receiver } = await next<{ cpu: Cpu }>();

  const perTrip = (cpu: Cpu) => (cpu.user + cpu.system) / ROUND_TRIPS;
  const fmt = (value: number) => value.toFixed(1);
  console.log(`${ROUND_TRIPS} round trips over loopback TCP (100 B out, 1 B back), node ${process.version}:`);
  console.log(`  ${fmt((elapsed * 1000) / ROUND_TRIPS)} us each, wall clock`);
  console.log(
    `  CPU per round trip: sender ${fmt(perTrip(sender))} us (system ${fmt(sender.system / ROUND_TRIPS)}), ` +
      `answering side ${fmt(perTrip(receiver))} us (system ${fmt(receiver.system / ROUND_TRIPS)}), ` +
      `both ${fmt(perTrip(sender) + perTrip(receiver))} us`,
  );

  // Writes that do not wait for an answer: each one system call, nobody put to sleep or woken per message.
  const streaming = process.cpuUsage();
  for (let i = 0; i < WRITES; i++) {
    socket.write(request);
    if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
  }
  const written = process.cpuUsage(streaming);
  console.log(
    `  CPU per write sent without waiting: ${fmt((written.user + written.system) / WRITES)} us (system ${fmt(written.system / WRITES)})`,
  );
  socket.destroy();
  echo.send('exit');

  // A statement that does nothing, on a PostgreSQL connection: the database's side of a round trip.
  const client = new pg.Client({
    connectionString: process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  });
  await client.connect();
  const backend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const select = { name: 'round_trip', text: 'SELECT 1' };
  for (let i = 0; i < 2000; i++) await client.query(select);
  const clientStart = process.cpuUsage();
  const backendStart = cpuMicros(backend);
  const queryStart = performance.now();
  for (let i = 0; i < ROUND_TRIPS; i++) await client.query(select);
  const queryElapsed = performance.now() - queryStart;
  const backendCpu = (cpuMicros(backend) - backendStart) / ROUND_TRIPS;
  const clientCpu = process.cpuUsage(clientStart);
  await client.end();
  console.log(`${ROUND_TRIPS} prepared SELECT 1 on one PostgreSQL connection (pg):`);
  console.log(
    `  ${fmt((queryElapsed * 1000) / ROUND_TRIPS)} us each, wall clock; CPU per statement: client ` +
      `${fmt(perTrip(clientCpu))} us, PostgreSQL ${fmt(backendCpu)} us (whole ticks of 10 ms over the run), ` +
      `both ${fmt(perTrip(clientCpu) + backendCpu)} us`,
  );
}
