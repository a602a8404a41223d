import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'plinth:public';

/** Opts a route out of the global bearer-token guard. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
