import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { MainErrorFallback } from '../../components/errors/main-error-fallback';

/** The router catches errors thrown while rendering a route; they get the same fallback as the rest. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    console.error('Rendering failed', error);
  }, [error]);
  return <MainErrorFallback />;
}
