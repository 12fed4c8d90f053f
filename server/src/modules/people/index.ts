/**
 * How a person is named, for every module: `memberName` for what the team reads (activity,
 * notifications, member lists, comments), `listenerName` for what a link listener or the public
 * reads (never any part of an address).
 */
export { listenerName, memberName, UNKNOWN_PERSON, type PersonNameParts } from './person';
