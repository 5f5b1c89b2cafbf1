import { readdirSync, readFileSync } from 'node:fs';
import { constants, createDeflate } from 'node:zlib';

/**
 * A PDF of one page whose content stream inflates to `inflatedBytes` of zeros (about 1 MB of file
 * for 1 GB), deflated as it is generated: the test never holds the inflated stream.
 */
export async function pdfBomb(inflatedBytes = 1 << 30): Promise<Buffer> {
  // Run-length matching: zeros compress as well as at the slowest setting, several times faster.
  const deflate = createDeflate({ level: 9, strategy: constants.Z_RLE });
  const compressed: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
  const ended = new Promise((resolve) => deflate.once('end', resolve));
  const zeros = Buffer.alloc(1 << 20);
  for (let written = 0; written < inflatedBytes; written += zeros.length) {
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  const stream = Buffer.concat(compressed);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const add = (part: string | Buffer) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    length += bytes.length;
  };
  objects.forEach((body, i) => {
    offsets.push(length);
    if (typeof body === 'string') return add(`${i + 1} 0 obj\n${body}\nendobj\n`);
    add(`${i + 1} 0 obj\n<< /Length ${body.length} /Filter /FlateDecode >>\nstream\n`);
    add(body);
    add('\nendstream\nendobj\n');
  });
  const xref = length;
  add(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`);
  add(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** The processes `ancestor` started, and theirs, and so on (from /proc). */
export function descendants(ancestor: number): Array<{ pid: number; commandLine: string }> {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        // The parent pid is the field after the command's closing parenthesis and the state.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return [{ pid: Number(name), parent, commandLine: readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ') }];
      } catch {
        return []; // ended meanwhile
      }
    });
  const found: typeof all = [];
  for (let parents = new Set([ancestor]); parents.size > 0; ) {
    const children = all.filter((process) => parents.has(process.parent));
    found.push(...children);
    parents = new Set(children.map((process) => process.pid));
  }
  return found.map(({ pid, commandLine }) => ({ pid, commandLine }));
}

/** Resident memory in MB of a process (0 once it has ended). */
export function residentMb(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Resident memory in MB of a process and every process it started: a server and its parsers. */
export function treeResidentMb(pid: number): number {
  return residentMb(pid) + descendants(pid).reduce((total, process) => total + residentMb(process.pid), 0);
}

/** This process's parse processes (parse-pool.ts). */
export const parseProcesses = (pid = process.pid) => descendants(pid).filter((process) => process.commandLine.includes('parse-child.ts'));
