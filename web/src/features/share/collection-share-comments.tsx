import type { Comment } from '@takes/contract';
import { useMemo, useState } from 'react';
import { sameOriginPath } from '../../lib/same-origin';
import { CommentList } from '../comments/comment-list';
import type { PlayerTrack } from '../player/use-audio-player';
import {
  useAddCollectionItemComment,
  useCollectionItemComments,
  type SharedCollectionPageItem,
} from './collection-share-api';
import { VisitorCommenting } from './visitor-commenting';
import type { useVisitorName } from './visitor-name';

/** The comments this link shows on one item, and the visitor's own (name first). */
export function ItemComments({
  hash,
  item,
  track,
  onSeek,
  visitor,
  suggestedName,
}: {
  hash: string;
  item: SharedCollectionPageItem;
  track: PlayerTrack | null;
  onSeek: (seconds: number) => void;
  visitor: ReturnType<typeof useVisitorName>;
  suggestedName: string | null;
}) {
  const comments = useCollectionItemComments(hash, item.id);
  const addComment = useAddCollectionItemComment(hash, item.id);
  const [replyingTo, setReplyingTo] = useState<Comment | null>(null);
  // Avatars come from this site only, like everything else on the page.
  const shown = useMemo(
    () =>
      comments.data?.map((comment) =>
        comment.avatar_url !== null && sameOriginPath(comment.avatar_url) === null
          ? { ...comment, avatar_url: null }
          : comment,
      ),
    [comments.data],
  );

  return (
    <section
      id="collection-comments"
      aria-labelledby="collection-comments-heading"
      className="mt-8 max-w-2xl"
    >
      <h2 id="collection-comments-heading" className="text-lg font-semibold">
        Comments on “{item.title}”
      </h2>
      <div className="mt-3">
        <CommentList
          comments={shown}
          isPending={comments.isPending}
          error={comments.error}
          onSeek={onSeek}
          onReply={setReplyingTo}
        />
      </div>
      <div className="mt-6">
        <VisitorCommenting
          track={track}
          visitor={visitor}
          suggestedName={suggestedName}
          onPost={(body) => addComment.mutateAsync(body)}
          pending={addComment.isPending}
          error={addComment.error}
          replyingTo={replyingTo}
          onCancelReply={() => setReplyingTo(null)}
        />
      </div>
    </section>
  );
}
