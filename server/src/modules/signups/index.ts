/**
 * The signups module's public face: who may make an account (the sign-up policy, issue 48) and
 * the pass an opened invite link gives to the sign-up that follows.
 */
export { SignupPolicy, type Newcomer } from './signup-policy';
export { SignupsRepo } from './signups.repo';
export { InviteLinkPass, INVITE_LINK_PASS_COOKIE } from './invite-link-pass';
