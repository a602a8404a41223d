import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { KeyRing, loadKeyRing } from './key-ring';
import { SecretsRotation } from './secrets-rotation';
import { Secrets } from './secrets.service';
import { WrappedKeyHolders } from './wrapped-key-holders';

/** Encryption at rest for every module (see Secrets). The master keys are read once, at start. */
@Global()
@Module({
  providers: [
    { provide: KeyRing, inject: [AppConfig], useFactory: loadKeyRing },
    Secrets,
    WrappedKeyHolders,
    SecretsRotation,
  ],
  exports: [Secrets, WrappedKeyHolders, SecretsRotation],
})
export class SecretsModule {}
