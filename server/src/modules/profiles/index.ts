/**
 * The profiles module's public face: a person's display name and avatar, and the URL every
 * other module shows an avatar at.
 */
export { avatarUrl } from './avatar-url';
export { ProfilesService, type Profile } from './profiles.service';
