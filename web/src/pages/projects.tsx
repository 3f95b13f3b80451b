import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { v1, v1Page, type Schemas } from '../api';
import { useCan } from '../layout';
import { ErrorNotice, Loading, PageTitle, when } from '../ui';
import { ScanList } from './scans';

export function ProjectsPage() {
  const canCreate = useCan('operator');
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => v1Page<Schemas['Project']>('/projects') });
  return (
    <>
      <PageTitle>Projects</PageTitle>
      {canCreate && <NewProject />}
      {projects.isPending ? (
        <Loading what="projects" />
      ) : projects.isError ? (
        <ErrorNotice error={projects.error} retry={() => void projects.refetch()} />
      ) : projects.data.items.length === 0 ? (
        <p className="muted">No projects yet.</p>
      ) : (
        <ul className="cards" aria-label="Projects">
          {projects.data.items.map((p) => (
            <li key={p.id}>
              <Link to={`/projects/${p.id}`}>{p.name}</Link>
              <span className="muted"> · created {when(p.created_at)}</span>
            </li>
          ))}
        </ul>
      )}
      <h2>Recent searches</h2>
      <ScanList />
    </>
  );
}

function NewProject() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => v1<Schemas['Project']>('POST', '/projects', { name }),
    onSuccess: async (project) => {
      await qc.invalidateQueries({ queryKey: ['projects'] });
      await navigate(`/projects/${project.id}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="inline" onSubmit={submit}>
      <label>
        New project name
        <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit" disabled={create.isPending}>
        Create project
      </button>
      {create.isError && <ErrorNotice error={create.error} />}
    </form>
  );
}
