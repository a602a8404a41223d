import 'reflect-metadata';
import { runCluster } from './cluster';
import { exitOnStartupFailure } from './http/startup-failure';

// The primary of a cluster never serves: it loads the application only in the processes that do.
runCluster(() => import('./start-server').then((server) => server.startServer())).catch(exitOnStartupFailure);
