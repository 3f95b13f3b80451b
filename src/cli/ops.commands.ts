import { corpusSize, DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, loadCorpus } from '../corpus/loader';
import { projectRepository } from '../db/project.repository';
import { searchRepository } from '../db/search.repository';
import { isoTimestamp, optionValue, parseArgs, UsageError, uuidArg, wholeNumber } from './args';
import type { CliContext } from './command';
import { createProgressWriter, progressLine } from './progress';

export const opsCommands: Record<string, (argv: string[], ctx: CliContext) => Promise<void>> = {
  async 'corpus load'(argv, ctx) {
    const args = parseArgs(argv, { values: ['size', 'seed'], flags: ['json'] });
    const size = optionValue(args, 'size') === undefined ? DEFAULT_CORPUS_SIZE : wholeNumber(optionValue(args, 'size')!, 'size', 1);
    const seed = optionValue(args, 'seed') === undefined ? DEFAULT_CORPUS_SEED : wholeNumber(optionValue(args, 'seed')!, 'seed', 0);
    const bar = createProgressWriter();
    const started = Date.now();
    const { inserted } = await loadCorpus(ctx.db, {
      size,
      seed,
      onProgress: (p) => bar.update(progressLine('loading people', p.loaded, p.total, `${p.perSecond}/s`)),
    });
    const seconds = (Date.now() - started) / 1000;
    bar.done(progressLine('loading people', size, size, `${seconds.toFixed(1)} s`));
    const total = await corpusSize(ctx.db);
    ctx.out(
      args.options.json
        ? JSON.stringify({ size, seed, inserted, total, seconds })
        : `Loaded ${inserted} new people (seed ${seed}); the people database holds ${total}.`,
    );
  },

  async 'shares expire'(argv, ctx) {
    const args = parseArgs(argv, { values: ['at'], flags: ['clear', 'json'], positionals: 1 });
    const id = args.positionals[0];
    uuidArg(id, 'project id');
    if (args.options.clear && args.options.at) throw new UsageError('give --at or --clear, not both');
    const at = args.options.clear ? null : optionValue(args, 'at') === undefined ? new Date() : isoTimestamp(optionValue(args, 'at')!, 'at');
    const project = await projectRepository(ctx.db).setShareExpiry(id, at);
    if (!project) throw new UsageError(`no project ${id}`);
    const expiresAt = project.share_expires_at ? new Date(project.share_expires_at).toISOString() : null;
    ctx.out(
      args.options.json
        ? JSON.stringify({ project_id: project.id, share_expires_at: expiresAt })
        : expiresAt
          ? `Share link of ${project.id} expires at ${expiresAt} (410 from then on)`
          : `Share link of ${project.id} no longer expires`,
    );
  },

  async 'searches watch'(argv, ctx) {
    const args = parseArgs(argv, { values: ['interval'], positionals: 1 });
    const id = args.positionals[0];
    uuidArg(id, 'search id');
    const intervalMs = optionValue(args, 'interval') === undefined ? 500 : wholeNumber(optionValue(args, 'interval')!, 'interval', 50);
    const searches = searchRepository(ctx.db);
    const bar = createProgressWriter(process.stdout);
    for (;;) {
      const search = await searches.find(id);
      if (!search) throw new UsageError(`no search ${id}`);
      const line = progressLine(
        `search ${search.status.padEnd(8)}`,
        search.profiles_read,
        search.criteria.read_budget,
        `read · ${search.delivered} scored · ${search.shortlisted}/${search.criteria.target} shortlisted · pass ${search.pass_count}`,
      );
      if (search.status === 'complete' || search.status === 'failed') {
        bar.done(line);
        ctx.out(
          `${search.status}: ${search.outcome ?? 'no outcome'} (${search.stop_reason ?? 'n/a'})${search.failure_reason ? ` — ${search.failure_reason}` : ''}`,
        );
        return;
      }
      bar.update(line);
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  },
};
