import { z } from 'zod';

/** Lines up two versions in time; `from` onto `to` (see AlignmentService.run). */
export const alignVersionsJob = {
  name: 'alignment.align',
  payload: z.object({ fromVersionId: z.string().min(1), toVersionId: z.string().min(1) }),
};
