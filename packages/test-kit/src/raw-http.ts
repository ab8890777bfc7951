/**
 * Requests written byte for byte to a socket, for what fetch refuses to send (a Content-Length of -1,
 * two Content-Lengths, control characters in a header, raw non-ASCII in the path), and the answer
 * parsed back: status line, headers and body as the server wrote them.
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `request` (a whole HTTP/1.1 message) and reads until the server closes the connection. The
 * socket is not half-closed: Node's server drops requests in flight when the client sends FIN, so the
 * message should ask for `Connection: close` (a parser refusal closes anyway). Gives up after 15 s
 * without a byte, answering status 0, so a request the server waits on cannot hang a test. Not less: on
 * a loaded CI machine a refusal that is answered at once in thousands of local tries came back once
 * as status 0 under the earlier 5 s limit (most likely the test's process, which often runs the
 * server too, stalled past it: timers fire before the waiting answer is read).
 */
export function rawRequest(baseUrl: string, request: string | Buffer): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.setTimeout(15_000, () => socket.destroy());
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = (split === -1 ? text : text.slice(0, split)).split('\r\n');
      const headers = Object.fromEntries(
        head.slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(head[0]?.split(' ')[1] ?? 0), headers, body: split === -1 ? '' : text.slice(split + 4) });
    });
    socket.write(request);
  });
}
