import { CreateUserAttributes } from '../../users/dto/user-attributes.dto';

/** `POST /admin/initial-admin-user` takes plain JSON `{username, email, password}`. */
export class InitialAdminBody extends CreateUserAttributes {}
