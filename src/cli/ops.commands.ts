import { Option } from 'commander';
import { corpusSize, DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, loadCorpus } from '../corpus/loader';
import { DEFAULT_WEB_PAGES } from '../corpus/web-pages';
import { projectRepository } from '../db/project.repository';
import { searchRepository, type SearchRow } from '../db/search.repository';
import { isoTimestamp, UsageError, uuid, wholeNumber } from './args';
import type { RegisterCommands } from './command';
import { createProgressWriter, progressLine } from './progress';

/** What `searches watch --json` prints per progress change: the fields a dashboard plots. */
const watchView = (s: SearchRow) => ({
  id: s.id,
  status: s.status,
  profiles_read: s.profiles_read,
  read_budget: s.criteria.read_budget,
  delivered: s.delivered,
  shortlisted: s.shortlisted,
  target: s.criteria.target,
  pass_count: s.pass_count,
  outcome: s.outcome ?? null,
  stop_reason: s.stop_reason ?? null,
  failure_reason: s.failure_reason ?? null,
});

export const registerOpsCommands: RegisterCommands = (program, host) => {
  program
    .command('corpus')
    .description('the synthetic people database')
    .command('load')
    .description('load synthetic people (deterministic for a seed; existing people are kept)')
    .option('--size <n>', 'people in the corpus', wholeNumber(1), DEFAULT_CORPUS_SIZE)
    .option('--seed <n>', 'generator seed', wholeNumber(0), DEFAULT_CORPUS_SEED)
    .option('--pages <n>', `pages of the built-in web search (default: the size, at most ${DEFAULT_WEB_PAGES})`, wholeNumber(0))
    .addOption(new Option('--json', 'print one JSON object'))
    .action(
      host.action<{ size: number; seed: number; pages?: number; json?: boolean }>(async (ctx, { size, seed, pages, json }) => {
        const bar = createProgressWriter();
        const started = Date.now();
        const { inserted, pages: pagesAdded } = await loadCorpus(ctx.db, {
          size,
          seed,
          pages,
          onProgress: (p) => bar.update(progressLine('loading people', p.loaded, p.total, `${p.perSecond}/s`)),
          onPagesProgress: (p) => bar.update(progressLine('loading web pages', p.loaded, p.total, `${p.perSecond}/s`)),
        });
        const seconds = (Date.now() - started) / 1000;
        bar.done(progressLine('loading people', size, size, `${seconds.toFixed(1)} s`));
        const total = await corpusSize(ctx.db);
        ctx.out(
          json
            ? JSON.stringify({ size, seed, inserted, total, pages_added: pagesAdded, seconds })
            : `Loaded ${inserted} new people (seed ${seed}) and ${pagesAdded} new web pages; the people database holds ${total}.`,
        );
      }),
    );

  program
    .command('shares')
    .description('share links of projects')
    .command('expire')
    .description("expire a project's share link now or at a time (410 from then on), or clear the expiry")
    .argument('<project-id>', 'project id', uuid('project id'))
    .option('--at <iso>', 'expiry time (ISO 8601); default now', isoTimestamp)
    .option('--clear', 'the link no longer expires')
    .addOption(new Option('--json', 'print one JSON object'))
    .action(
      host.action<{ at?: Date; clear?: boolean; json?: boolean }>(async (ctx, opts, [id]) => {
        if (opts.clear && opts.at) throw new UsageError('give --at or --clear, not both');
        const project = await projectRepository(ctx.db).setShareExpiry(id, opts.clear ? null : (opts.at ?? new Date()));
        if (!project) throw new UsageError(`no project ${id}`);
        const expiresAt = project.share_expires_at ? new Date(project.share_expires_at).toISOString() : null;
        ctx.out(
          opts.json
            ? JSON.stringify({ project_id: project.id, share_expires_at: expiresAt })
            : expiresAt
              ? `Share link of ${project.id} expires at ${expiresAt} (410 from then on)`
              : `Share link of ${project.id} no longer expires`,
        );
      }),
    );

  program
    .command('searches')
    .description('follow searches')
    .command('watch')
    .description('follow a search until it completes or fails: a progress bar on a terminal, else one line per change')
    .argument('<search-id>', 'search id', uuid('search id'))
    .option('--interval <ms>', 'poll interval', wholeNumber(50), 500)
    .option('--json', 'one JSON object per progress change (the last one has the outcome)')
    .action(
      host.action<{ interval: number; json?: boolean }>(async (ctx, opts, [id]) => {
        const searches = searchRepository(ctx.db);
        const bar = ctx.tty && !opts.json ? createProgressWriter(process.stdout) : undefined;
        let last = '';
        for (;;) {
          const search = await searches.find(id);
          if (!search) throw new UsageError(`no search ${id}`);
          const finished = search.status === 'complete' || search.status === 'failed';
          const view = watchView(search);
          const changed = JSON.stringify(view) !== last;
          last = JSON.stringify(view);
          if (opts.json) {
            if (changed) ctx.out(last);
          } else {
            const counts = `read · ${search.delivered} scored · ${search.shortlisted}/${search.criteria.target} shortlisted · pass ${search.pass_count}`;
            const label = `search ${search.status.padEnd(8)}`;
            if (bar) bar[finished ? 'done' : 'update'](progressLine(label, search.profiles_read, search.criteria.read_budget, counts));
            else if (changed) ctx.out(`${label} ${search.profiles_read}/${search.criteria.read_budget} ${counts}`);
            if (finished)
              ctx.out(
                `${search.status}: ${search.outcome ?? 'no outcome'} (${search.stop_reason ?? 'n/a'})${search.failure_reason ? ` — ${search.failure_reason}` : ''}`,
              );
          }
          if (finished) return;
          await new Promise((r) => setTimeout(r, opts.interval));
        }
      }),
    );
};
