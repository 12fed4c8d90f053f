import { ROLE_LABELS, type Role } from '@takes/contract';
import { Badge } from '../../ui/badge';

const ROLE_TONES = {
  owner: 'indigo',
  editor: 'green',
  commenter: 'amber',
  viewer: 'neutral',
} as const;

/** The caller's (or a member's) role: 'Owner', 'Editor', 'Commenter' or 'Viewer'. */
export function RoleBadge({ role }: { role: Role }) {
  return <Badge tone={ROLE_TONES[role]}>{ROLE_LABELS[role]}</Badge>;
}
