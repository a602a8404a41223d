import 'reflect-metadata';
import { runCluster } from './cluster';
import { exitOnStartupFailure } from './server/startup-failure';

// The primary of a cluster never serves: it loads the application only in the processes that do.
runCluster(() => import('./server').then((server) => server.startServer())).catch(exitOnStartupFailure);
