import 'reflect-metadata';
import { runCluster } from './cluster';

// The primary of a cluster never serves: it loads the application only in the processes that do.
void runCluster(() => import('./server').then((server) => server.startServer()));
