import { useState } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, useParams } from 'react-router';
import { SiteLayout } from '../components/layout/site-layout';
import { paths } from '../config/paths';
import { AuthRoute } from './routes/auth';
import { HomeRoute } from './routes/home';
import { NotFoundRoute } from './routes/not-found';
import { ResultsRoute } from './routes/results';
import { RouteError } from './routes/route-error';

/** DECISIONS "/reports": the old report links open the results page. */
function ReportRedirect() {
  const { auditId = '' } = useParams();
  return <Navigate to={paths.results.getHref(auditId)} replace />;
}

/** Pages that exist so far; the rest of `paths` (dashboard, share, payment, legal) arrives with its issue. */
export const createAppRouter = () =>
  createBrowserRouter([
    {
      Component: SiteLayout,
      ErrorBoundary: RouteError,
      children: [
        { path: paths.home.path, Component: HomeRoute },
        { path: paths.auth.root.path, element: <Navigate to={paths.auth.login.getHref()} replace /> },
        { path: paths.auth.login.path, Component: AuthRoute },
        { path: paths.results.path, Component: ResultsRoute },
        { path: paths.results.missingIdPath, Component: ResultsRoute },
        { path: paths.reports.path, Component: ReportRedirect },
        { path: '*', Component: NotFoundRoute },
      ],
    },
  ]);

export function AppRouter() {
  const [router] = useState(createAppRouter);
  return <RouterProvider router={router} />;
}
