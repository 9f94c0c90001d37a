import { lazy, Suspense, useState } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, useParams, type RouteObject } from 'react-router';
import { SiteLayout } from '../components/layout/site-layout';
import { paths } from '../config/paths';
import { handle as homeHandle, HomeRoute } from './routes/home';
import { RouteError } from './routes/route-error';

// Only the landing page is in the first bundle; every other page is its own chunk, loaded on the
// way there (SiteLayout's Suspense shows while a chunk loads for the first time).
const LoginRoute = lazy(() => import('./routes/auth').then((module) => ({ default: module.LoginRoute })));
const SignupRoute = lazy(() => import('./routes/auth').then((module) => ({ default: module.SignupRoute })));
const ResetPasswordRoute = lazy(() => import('./routes/auth').then((module) => ({ default: module.ResetPasswordRoute })));
const SetPasswordRoute = lazy(() => import('./routes/auth').then((module) => ({ default: module.SetPasswordRoute })));
const DashboardRoute = lazy(() => import('./routes/dashboard').then((module) => ({ default: module.DashboardRoute })));
const DashboardSectionRoute = lazy(() => import('./routes/dashboard').then((module) => ({ default: module.DashboardSectionRoute })));
const DashboardAuditRoute = lazy(() => import('./routes/dashboard').then((module) => ({ default: module.DashboardAuditRoute })));
const NotFoundRoute = lazy(() => import('./routes/not-found').then((module) => ({ default: module.NotFoundRoute })));
const PrivacyRoute = lazy(() => import('./routes/privacy').then((module) => ({ default: module.PrivacyRoute })));
const ResultsRoute = lazy(() => import('./routes/results').then((module) => ({ default: module.ResultsRoute })));
const TermsRoute = lazy(() => import('./routes/terms').then((module) => ({ default: module.TermsRoute })));
const ShareRoute = lazy(() => import('./routes/share').then((module) => ({ default: module.ShareRoute })));
const PaymentSuccessRoute = lazy(() => import('./routes/payment-success').then((module) => ({ default: module.PaymentSuccessRoute })));
const SuccessRoute = lazy(() => import('./routes/success').then((module) => ({ default: module.SuccessRoute })));
const VerifyRoute = lazy(() => import('./routes/verify').then((module) => ({ default: module.VerifyRoute })));
const AcceptInvitationRoute = lazy(() => import('./routes/invitations').then((module) => ({ default: module.AcceptInvitationRoute })));
const ScannerRoute = lazy(() => import('./routes/scanner').then((module) => ({ default: module.ScannerRoute })));
const WazuhTestRoute = lazy(() => import('./routes/wazuh-test').then((module) => ({ default: module.WazuhTestRoute })));

/** DECISIONS "/reports": the old report links open the results page. */
function ReportRedirect() {
  const { auditId = '' } = useParams();
  return <Navigate to={paths.results.getHref(auditId)} replace />;
}

/** Every page of the site; pages other than the landing page load as their own chunks. */
export const appRoutes: RouteObject[] = [
  {
    // The dashboard has its own shell (SPEC §2 "Dashboard shell"), not the site's header and footer.
    path: paths.dashboard.root.path,
    ErrorBoundary: RouteError,
    element: (
      <Suspense fallback={null}>
        <DashboardRoute />
      </Suspense>
    ),
    children: [
      { index: true, Component: DashboardSectionRoute },
      { path: paths.dashboard.section.path, Component: DashboardSectionRoute },
      { path: paths.dashboard.audit.path, Component: DashboardAuditRoute },
    ],
  },
  {
    Component: SiteLayout,
    ErrorBoundary: RouteError,
    children: [
      { path: paths.home.path, Component: HomeRoute, handle: homeHandle },
      { path: paths.auth.root.path, element: <Navigate to={paths.auth.login.getHref()} replace /> },
      { path: paths.auth.login.path, Component: LoginRoute },
      { path: paths.auth.signup.path, Component: SignupRoute },
      { path: paths.auth.resetPassword.path, Component: ResetPasswordRoute },
      { path: paths.auth.setPassword.path, Component: SetPasswordRoute },
      { path: paths.results.path, Component: ResultsRoute },
      { path: paths.results.missingIdPath, Component: ResultsRoute },
      { path: paths.reports.path, Component: ReportRedirect },
      { path: paths.share.path, Component: ShareRoute },
      { path: paths.share.missingTokenPath, Component: ShareRoute },
      { path: paths.paymentSuccess.path, Component: PaymentSuccessRoute },
      { path: paths.success.path, Component: SuccessRoute },
      { path: paths.verify.path, Component: VerifyRoute },
      { path: paths.wazuhTest.path, Component: WazuhTestRoute },
      { path: paths.acceptInvitation.path, Component: AcceptInvitationRoute },
      { path: paths.scanner.path, Component: ScannerRoute },
      { path: paths.terms.path, Component: TermsRoute },
      { path: paths.privacy.path, Component: PrivacyRoute },
      { path: '*', Component: NotFoundRoute },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(appRoutes);

export function AppRouter() {
  const [router] = useState(createAppRouter);
  return <RouterProvider router={router} />;
}
