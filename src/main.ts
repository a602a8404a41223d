import 'reflect-metadata';
import { runCluster } from './cluster';
import { startServer } from './server';

void runCluster(() => startServer());
