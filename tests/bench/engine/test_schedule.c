/* test_schedule.c — the engine's dispatch policy (bench/engine/sweep_schedule.c): chunks are at most
 * -task_chunk tasks and 1/(2 x ranks) of the estimated work left, at least one task, shrink as the list
 * drains, hand out every task exactly once, and follow the cost estimates (heavy tasks go out in small
 * chunks). */
#include "check.h"
#include "sweep_schedule.h"

#include <stdlib.h>

/* Hands out the whole list as the engine does: the number of requests; chunks into out (room for n). */
static long drain(const struct sweep_schedule *p, long *out, long *given)
{
  long next = 0, requests = 0;
  *given = 0;
  for (long k; (k = sweep_schedule_chunk(p, next)) > 0; next += k)
    out[requests++] = k, *given += k;
  return requests;
}

int main(void)
{
  struct sweep_schedule p;
  long chunks[2000], given = 0;
  /* 1000 tasks of one cost on 4 ranks, at most 64 a request: 1000 / 8 = 125 is over the cap */
  CHECK(sweep_schedule_init(&p, NULL, 1000, 4, 64) == 0, "a schedule of 1000 tasks");
  CHECK(sweep_schedule_chunk(&p, 0) == 64, "first chunk: the cap, 64 (got %ld)", sweep_schedule_chunk(&p, 0));
  CHECK(sweep_schedule_chunk(&p, 900) == 12, "100 left on 4 ranks: 100 / 8 -> 12 (got %ld)",
        sweep_schedule_chunk(&p, 900));
  CHECK(sweep_schedule_chunk(&p, 995) == 1, "5 left: one at a time (got %ld)", sweep_schedule_chunk(&p, 995));
  CHECK(sweep_schedule_chunk(&p, 1000) == 0, "none left: 0");
  long n = drain(&p, chunks, &given);
  int shrinking = 1;
  for (long i = 1; i < n; i++)
    shrinking &= chunks[i] <= chunks[i - 1];
  CHECK(given == 1000 && shrinking, "every task handed out once (%ld) in chunks that never grow", given);
  CHECK(n > 1000 / 64 && n < 200, "%ld requests for 1000 tasks (one per task without chunks)", n);
  sweep_schedule_free(&p);
  /* -task_chunk 1: one task per request, as before chunks */
  sweep_schedule_init(&p, NULL, 50, 4, 1);
  n = drain(&p, chunks, &given);
  CHECK(n == 50 && given == 50, "-task_chunk 1: %ld requests for %ld tasks", n, given);
  sweep_schedule_free(&p);
  /* costliest first: 10 tasks of cost 100, then 990 of cost 1 (total 1990) on 4 ranks: a chunk holds at
   * most 1990 / 8 ~ 249 of the work, so the heavy tasks go out two at a time, the light ones in full chunks
   */
  double *w = malloc(1000 * sizeof *w);
  for (int i = 0; i < 1000; i++)
    w[i] = i < 10 ? 100.0 : 1.0;
  sweep_schedule_init(&p, w, 1000, 4, 64);
  CHECK(sweep_schedule_chunk(&p, 0) == 2, "heavy tasks first: 2 of cost 100 in the first chunk (got %ld)",
        sweep_schedule_chunk(&p, 0));
  CHECK(sweep_schedule_chunk(&p, 10) == 64, "then light ones: a full chunk of 64 (got %ld)",
        sweep_schedule_chunk(&p, 10));
  n = drain(&p, chunks, &given);
  CHECK(n > 0 && given == 1000, "weighted: every task handed out once (%ld)", given);
  sweep_schedule_free(&p);
  /* estimates that are all zero count as equal costs */
  for (int i = 0; i < 1000; i++)
    w[i] = 0.0;
  sweep_schedule_init(&p, w, 1000, 4, 64);
  CHECK(sweep_schedule_chunk(&p, 900) == 12, "zero estimates: as equal costs (100 left -> 12, got %ld)",
        sweep_schedule_chunk(&p, 900));
  sweep_schedule_free(&p);
  free(w);
  return check_finish();
}
