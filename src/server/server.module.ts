import { Global, Module } from '@nestjs/common';
import { HttpDrain } from './http-drain';

@Global()
@Module({
  providers: [HttpDrain],
  exports: [HttpDrain],
})
export class ServerModule {}
