/** A one-line progress bar redrawn in place on a terminal, or plain lines when piped. */
export function progressLine(label: string, done: number, total: number, extra = ''): string {
  const width = 30;
  const filled = total > 0 ? Math.min(width, Math.round((done / total) * width)) : 0;
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${extra ? `  ${extra}` : ''}`;
}

export function createProgressWriter(stream: NodeJS.WriteStream = process.stderr) {
  let lastPlain = 0;
  return {
    update(line: string) {
      if (stream.isTTY) stream.write(`\r${line}\x1b[K`);
      else if (Date.now() - lastPlain > 2000) {
        lastPlain = Date.now();
        stream.write(`${line}\n`);
      }
    },
    done(line: string) {
      stream.write(stream.isTTY ? `\r${line}\x1b[K\n` : `${line}\n`);
    },
  };
}
