// A loopback TCP proxy in a process of its own (so that a busy test process does not slow the
// traffic it carries), for test/tcp-proxy.ts. Usage: node tcp-proxy.mjs <host> <port>.
// Prints {port} once listening; a line `blackhole` on stdin cuts it: from then on no byte
// passes either way, open connections stay open but go silent (what a client sees of a
// partition: requests hang, nothing is refused), new ones are accepted and never forwarded.
// It prints {cut: true} once cut.
import { connect, createServer } from 'node:net';
import { createInterface } from 'node:readline';

const [host, port] = process.argv.slice(2);
const sockets = new Set();
let cut = false;
const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const track = (socket) => {
  sockets.add(socket);
  socket.on('error', () => {});
  socket.on('close', () => sockets.delete(socket));
};
/** Swallows what `socket` receives from now on, and stops forwarding it. */
const silence = (socket) => {
  socket.unpipe();
  socket.removeAllListeners('data');
  socket.on('data', () => {});
};
const server = createServer((client) => {
  track(client);
  if (cut) return silence(client);
  const upstream = connect(Number(port), host);
  track(upstream);
  // A connection that ends on one side ends on the other, unless the proxy is cut.
  client.on('close', () => cut || upstream.destroy());
  upstream.on('close', () => cut || client.destroy());
  client.pipe(upstream);
  upstream.pipe(client);
});
server.listen(0, '127.0.0.1', () => print({ port: server.address().port }));
createInterface({ input: process.stdin })
  .on('line', (line) => {
    if (line !== 'blackhole') return;
    cut = true;
    for (const socket of sockets) silence(socket);
    print({ cut: true });
  })
  .on('close', () => process.exit(0));
