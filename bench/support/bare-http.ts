import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { jsonClient } from './sift.ts';

/**
 * The HTTP floor: a bare `node:http` server in a process of its own, answering every request with
 * a constant 401 once its body is read. Nothing of Sift's design is in it (no framework, no key
 * check, no thread hand-off), so its p50 is the least an HTTP round trip costs on this machine
 * with the client Sift is measured with.
 */
const SERVER = `
const http = require('node:http');
const answer = '{"detail":"Missing API key."}';
const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(401, { 'content-type': 'application/json', 'content-length': answer.length });
    response.end(answer);
  });
});
server.keepAliveTimeout = 72000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

export interface BareHttpServer {
  /** One POST to /v1 + path, answered with 401 (anything else rejects). */
  post(path: string, body: unknown): Promise<void>;
  stop(): Promise<void>;
}

export async function startBareHttpServer(): Promise<BareHttpServer> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit').then(() => {
    throw new Error('the bare HTTP server exited before it listened');
  });
  const [line] = (await Promise.race([once(child.stdout!, 'data'), exited])) as [Buffer];
  exited.catch(() => {}); // it exits when stopped, later
  const client = jsonClient(`http://127.0.0.1:${Number(line.toString().trim())}`);
  return {
    post: async (path, body) => {
      await client.post(path, body, null).catch((error: { status?: number }) => {
        if (error.status !== 401) throw error;
      });
    },
    async stop() {
      client.close();
      child.kill();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}
