import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type BlindListenerPage } from '@takes/contract';
import { api, ApiError } from '../../../lib/api';

const blind = routes.blindTests;

export type { BlindListenerPage };

/** While the loudness-matched audio is being made, the page is asked for again this often. */
export const BLIND_PREPARING_POLL_MS = 2000;

export const blindListenerKeys = {
  page: (hash: string) => ['blind-test', hash] as const,
};

/** 4xx are answers (unknown, expired, locked, too many tries), not hiccups worth retrying. */
function retryServerErrors(count: number, error: Error): boolean {
  return !(error instanceof ApiError && error.status < 500) && count < 1;
}

/** The blind test as this listener sees it (the first visit deals the letters: a cookie). */
export function useBlindTest(hash: string) {
  return useQuery({
    queryKey: blindListenerKeys.page(hash),
    queryFn: ({ signal }) => api.call(blind.openBlindTest, { params: { hash }, signal }),
    retry: retryServerErrors,
    refetchInterval: (query) =>
      query.state.data?.status === 'preparing' ? BLIND_PREPARING_POLL_MS : false,
  });
}

/** Sends the password; the server sets the link's cookie, then the test is read again. */
export function useUnlockBlindTest(hash: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      api.call(blind.unlockBlindTest, { params: { hash }, body: { password } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: blindListenerKeys.page(hash) }),
  });
}

/** Each action answers with the listener's page, which replaces the one shown. */
function useBlindAction<Input>(hash: string, send: (input: Input) => Promise<BlindListenerPage>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (page) => queryClient.setQueryData(blindListenerKeys.page(hash), page),
    // Out of step with the server (a trial answered in another tab): read the page again.
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409)
        void queryClient.invalidateQueries({ queryKey: blindListenerKeys.page(hash) });
    },
  });
}

export interface BlindVoteInput {
  name: string;
  option_id: string;
  note: string | null;
}

/** The listener's preference; voting again replaces it. */
export function useBlindVote(hash: string) {
  return useBlindAction(hash, (body: BlindVoteInput) =>
    api.call(blind.voteBlindTest, { params: { hash }, body }),
  );
}

/** Starts the next ABX trial (the server draws X). */
export function useStartBlindTrial(hash: string) {
  return useBlindAction(hash, (name: string) =>
    api.call(blind.startBlindTrial, { params: { hash }, body: { name } }),
  );
}

/** Answers the current trial with A's or B's option id (checked on the server). */
export function useAnswerBlindTrial(hash: string) {
  return useBlindAction(hash, (body: { trial: number; answer: string }) =>
    api.call(blind.answerBlindTrial, { params: { hash }, body }),
  );
}
