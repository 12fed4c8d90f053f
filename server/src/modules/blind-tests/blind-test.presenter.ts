import {
  abxVerdict,
  type BlindTest,
  type BlindTestResults,
  type BlindTestVersion,
} from '@takes/contract';
import type {
  BlindListenersTable,
  BlindTestLinksTable,
  BlindTestOptionsTable,
  BlindTestsTable,
  BlindTrialsTable,
  BlindVotesTable,
} from '../../db/schema';
import type { BlindVersionRow, LinkReceiptRow } from './blind-tests.repo';

/** 'Version 3 · main' */
export function versionLabel(version: Pick<BlindVersionRow, 'version_number' | 'branch_name'>) {
  return `Version ${version.version_number} · ${version.branch_name}`;
}

export function toVersion(version: BlindVersionRow): BlindTestVersion {
  return {
    id: version.id,
    version_number: version.version_number,
    branch_name: version.branch_name,
    label: versionLabel(version),
  };
}

/** A test as its owner and Editors see it, with its links and their receipts. */
export function toBlindTest(
  test: BlindTestsTable,
  options: readonly BlindTestOptionsTable[],
  versions: ReadonlyMap<string, BlindVersionRow>,
  links: readonly BlindTestLinksTable[],
  receipts: readonly LinkReceiptRow[],
  publicUrl: string,
): BlindTest {
  const shown = links.map((link) => {
    const receipt = receipts.find((r) => r.link_id === link.id);
    return {
      id: link.id,
      key: link.hash,
      url: `${publicUrl}/share/${link.hash}`,
      recipient: link.recipient_name
        ? { name: link.recipient_name, email: link.recipient_email }
        : null,
      opened: receipt?.opened ?? 0,
      voted: receipt?.voted ?? 0,
      last_activity_at: receipt?.last_activity_at ?? null,
    };
  });
  return {
    id: test.id,
    project_id: test.project_id,
    name: test.name,
    mode: test.mode,
    trials: test.trials,
    reveal_after_voting: test.reveal_after_voting === 1,
    status: test.status,
    expires_at: test.expires_at,
    has_password: test.password_hash !== null,
    revoked: test.revoked_at !== null,
    created_at: test.created_at,
    versions: options.flatMap((option) => {
      const version = versions.get(option.version_id);
      return version ? [toVersion(version)] : [];
    }),
    url: shown[0]?.url ?? '',
    links: shown,
  };
}

/** Votes per version, ABX scores per listener and overall, and the whole in words. */
export function toResults(
  test: BlindTest,
  rows: {
    listeners: BlindListenersTable[];
    votes: BlindVotesTable[];
    trials: BlindTrialsTable[];
  },
): BlindTestResults {
  const nameOf = (listenerId: string) =>
    rows.listeners.find((l) => l.id === listenerId)?.name ?? 'Anonymous';
  const preference =
    test.mode === 'abx'
      ? null
      : (() => {
          const votes = test.versions.map((version) => {
            const mine = rows.votes.filter((v) => v.version_id === version.id);
            return {
              version,
              count: mine.length,
              voters: mine.map((v) => ({
                name: nameOf(v.listener_id),
                note: v.note,
                voted_at: v.updated_at,
              })),
            };
          });
          const most = Math.max(0, ...votes.map((v) => v.count));
          const leaders = votes.filter((v) => v.count === most);
          return {
            votes,
            total: rows.votes.length,
            winner_version_id:
              most > 0 && leaders.length === 1 ? (leaders[0]?.version.id ?? null) : null,
          };
        })();
  const abx =
    test.mode === 'preference'
      ? null
      : (() => {
          const trials = test.trials ?? 0;
          const listeners = rows.listeners.flatMap((listener) => {
            const answered = rows.trials.filter((t) => t.listener_id === listener.id);
            if (answered.length === 0) return [];
            const correct = answered.filter((t) => t.correct === 1).length;
            return [
              {
                name: listener.name ?? 'Anonymous',
                finished: answered.length >= trials,
                ...abxVerdict(correct, answered.length),
              },
            ];
          });
          const correct = listeners.reduce((sum, l) => sum + l.correct, 0);
          const total = listeners.reduce((sum, l) => sum + l.total, 0);
          return { ...abxVerdict(correct, total), listeners };
        })();
  return { test, preference, abx, summary: summaryOf(preference, abx) };
}

function summaryOf(
  preference: BlindTestResults['preference'],
  abx: BlindTestResults['abx'],
): string {
  const parts: string[] = [];
  if (preference) {
    const winner = preference.votes.find((v) => v.version.id === preference.winner_version_id);
    if (preference.total === 0) parts.push('No preference votes yet.');
    else if (winner)
      parts.push(
        `${winner.version.label} is preferred by ${winner.count} of ${preference.total} ${preference.total === 1 ? 'listener' : 'listeners'}.`,
      );
    else parts.push(`No single favourite: ${preference.total} votes are tied at the top.`);
  }
  if (abx) {
    if (abx.total === 0) parts.push('No ABX trials answered yet.');
    else parts.push(`ABX, all listeners: ${abx.verdict}.`);
  }
  return parts.join(' ');
}
