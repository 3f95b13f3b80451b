import { Link } from 'react-router';
import { PageTitle } from '../ui';

export function NotFoundPage() {
  return (
    <>
      <PageTitle>Page not found</PageTitle>
      <p>
        <Link to="/">Go to your projects</Link>
      </p>
    </>
  );
}
