import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/** How long, and how much more, a refused request's body is read after its answer is sent. */
export interface LingerLimits {
  ms: number;
  bytes: number;
}

export const LINGER_LIMITS: LingerLimits = { ms: 5_000, bytes: 32 * 1024 * 1024 };

type ClosingSocket = Socket & { destroySoon(): void };

/**
 * nginx's lingering close, for an answer sent before the request's body was read (a 413): the
 * answer goes out with `Connection: close`, then the rest of the body is read and thrown away until
 * the client has sent it all, `limits.ms` have passed or `limits.bytes` more were read, and only
 * then is the connection closed.
 *
 * Why: the socket is closed at once otherwise — by Node for a `Connection: close` answer, and by
 * @hono/node-server 500 ms after any answer whose request body was not read (its
 * `autoCleanupIncoming`) — both through `socket.destroySoon()`. A client still sending then gets a
 * reset from our kernel, and a client that reads only once it has sent everything (most scripts,
 * a slow upload) loses the 413 it had not read yet. So for this one socket `destroySoon` only ends
 * our side (a FIN after the answer) until the rest of the body is read or the limits are reached.
 *
 * `incoming` is the Node request (`c.env.incoming` under @hono/node-server; undefined elsewhere,
 * e.g. `app.request()` in tests, where there is no socket to keep); `body` reads the request's body
 * (its reader is kept by whoever read part of it already).
 */
export function lingerAfterAnswer(
  incoming: IncomingMessage | undefined,
  body: ReadableStreamDefaultReader<Uint8Array> | undefined,
  limits: LingerLimits = LINGER_LIMITS,
): void {
  const socket = incoming?.socket as ClosingSocket | undefined;
  if (!socket || !body || socket.destroyed || typeof socket.destroySoon !== "function") return;
  const destroySoon = socket.destroySoon;
  let closeAsked = false;
  let bodyEnded = false;
  let done = false;
  socket.destroySoon = () => {
    if (done) return destroySoon.call(socket);
    closeAsked = true;
    // our side is finished: the client reads the answer, then the end of the stream
    if (socket.writable) socket.end();
  };
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    socket.destroySoon = destroySoon;
    // the whole body came in time: close as Node was asked to; else (too long, too much) now
    if (closeAsked || !bodyEnded) destroySoon.call(socket);
  };
  const timer = setTimeout(finish, limits.ms);
  timer.unref();
  void (async () => {
    let read = 0;
    try {
      while (!done) {
        const chunk = await body.read();
        if (chunk.done) {
          bodyEnded = true;
          break;
        }
        read += chunk.value.byteLength;
        if (read > limits.bytes) break;
      }
    } catch {
      // the client went away: nothing left to read
      bodyEnded = true;
    }
    finish();
  })();
}
