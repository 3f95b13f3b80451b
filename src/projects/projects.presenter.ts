import type { z } from 'zod';
import type { Project } from '../db/project.repository';
import type { project } from './projects.schemas';

export const projectResource = (p: Project): z.input<typeof project> => ({ id: p.id, name: p.name, created_at: p.created_at.toISOString() });
