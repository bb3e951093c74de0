// The processes the proxy-latency bench talks to, picked by the first argument:
//   responder   answers each request line with its result at once (a runtime with no work to do)
//   relay CMD…  a bare relay: runs CMD and copies bytes both ways, recording nothing
import { spawn } from 'node:child_process';

const [role, ...rest] = process.argv.slice(2);
if (role === 'responder') {
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const { id } = JSON.parse(pending.slice(0, newline));
      process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":{"messageId":"s-1/m${id}"}}\n`);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  });
} else if (role === 'relay') {
  const child = spawn(rest[0], rest.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  process.stdin.pipe(child.stdin);
  child.stdout.pipe(process.stdout);
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  throw new Error(`unknown role ${role}`);
}
