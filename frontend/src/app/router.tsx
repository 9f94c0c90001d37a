import { lazy, useState } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, useParams } from 'react-router';
import { SiteLayout } from '../components/layout/site-layout';
import { paths } from '../config/paths';
import { handle as homeHandle, HomeRoute } from './routes/home';
import { RouteError } from './routes/route-error';

// Only the landing page is in the first bundle; every other page is its own chunk, loaded on the
// way there (SiteLayout's Suspense shows while a chunk loads for the first time).
const AuthRoute = lazy(() => import('./routes/auth').then((module) => ({ default: module.AuthRoute })));
const NotFoundRoute = lazy(() => import('./routes/not-found').then((module) => ({ default: module.NotFoundRoute })));
const PrivacyRoute = lazy(() => import('./routes/privacy').then((module) => ({ default: module.PrivacyRoute })));
const ResultsRoute = lazy(() => import('./routes/results').then((module) => ({ default: module.ResultsRoute })));
const TermsRoute = lazy(() => import('./routes/terms').then((module) => ({ default: module.TermsRoute })));
const ShareRoute = lazy(() => import('./routes/share').then((module) => ({ default: module.ShareRoute })));
const PaymentSuccessRoute = lazy(() => import('./routes/payment-success').then((module) => ({ default: module.PaymentSuccessRoute })));
const SuccessRoute = lazy(() => import('./routes/success').then((module) => ({ default: module.SuccessRoute })));

/** DECISIONS "/reports": the old report links open the results page. */
function ReportRedirect() {
  const { auditId = '' } = useParams();
  return <Navigate to={paths.results.getHref(auditId)} replace />;
}

/** Pages that exist so far; the rest of `paths` (dashboard, share, payment) arrives with its issue. */
export const createAppRouter = () =>
  createBrowserRouter([
    {
      Component: SiteLayout,
      ErrorBoundary: RouteError,
      children: [
        { path: paths.home.path, Component: HomeRoute, handle: homeHandle },
        { path: paths.auth.root.path, element: <Navigate to={paths.auth.login.getHref()} replace /> },
        { path: paths.auth.login.path, Component: AuthRoute },
        { path: paths.results.path, Component: ResultsRoute },
        { path: paths.results.missingIdPath, Component: ResultsRoute },
        { path: paths.reports.path, Component: ReportRedirect },
        { path: paths.share.path, Component: ShareRoute },
        { path: paths.share.missingTokenPath, Component: ShareRoute },
        { path: paths.paymentSuccess.path, Component: PaymentSuccessRoute },
        { path: paths.success.path, Component: SuccessRoute },
        { path: paths.terms.path, Component: TermsRoute },
        { path: paths.privacy.path, Component: PrivacyRoute },
        { path: '*', Component: NotFoundRoute },
      ],
    },
  ]);

export function AppRouter() {
  const [router] = useState(createAppRouter);
  return <RouterProvider router={router} />;
}
