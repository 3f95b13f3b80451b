import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ApiError } from './api';
import { Layout } from './layout';
import { BillingPage } from './pages/billing';
import { CampaignsPage } from './pages/campaigns';
import { CredentialsPage } from './pages/credentials';
import { NotFoundPage } from './pages/not-found';
import { ProjectPage } from './pages/project';
import { ProjectsPage } from './pages/projects';
import { SearchPage } from './pages/search';
import { UsagePage } from './pages/usage';
import { WebhookPage, WebhooksPage } from './pages/webhooks';
import './styles.css';

// A 401 anywhere means the session ended: re-ask /api/me, which brings the sign-in form back.
const onError = (err: unknown) => {
  if (err instanceof ApiError && err.signedOut) void client.invalidateQueries({ queryKey: ['me'] });
};
const client: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    // 4xx answers do not change on a retry; 5xx and network failures get two more tries.
    queries: { retry: (count, err) => count < 2 && (!(err instanceof ApiError) || err.status >= 500 || err.status === 0), staleTime: 5_000 },
  },
});

const router = createBrowserRouter(
  [
    {
      element: <Layout />,
      children: [
        { index: true, element: <ProjectsPage /> },
        { path: 'projects/:projectId', element: <ProjectPage /> },
        { path: 'searches/:searchId', element: <SearchPage /> },
        { path: 'campaigns', element: <CampaignsPage /> },
        { path: 'webhooks', element: <WebhooksPage /> },
        { path: 'webhooks/:webhookId', element: <WebhookPage /> },
        { path: 'credentials', element: <CredentialsPage /> },
        { path: 'billing', element: <BillingPage /> },
        { path: 'usage', element: <UsagePage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: '/app' },
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
