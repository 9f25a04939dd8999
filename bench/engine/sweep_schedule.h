/* sweep_schedule.h — the engine's dispatch policy: how many tasks one request gets (guided
 * self-scheduling weighted by the tasks' cost estimates: a chunk holds at most 1/(2 x ranks) of the
 * estimated work left, at least one task and at most -task_chunk tasks, so chunks shrink as the sweep
 * drains and the last tasks go out one by one). The sweep (sweep_run.c) and the scheduling simulator
 * (bench_schedule) both call it, so that the simulator predicts the policy the engine runs. */
#ifndef CB_SWEEP_SCHEDULE_H
#define CB_SWEEP_SCHEDULE_H

struct sweep_schedule {
  long n;         /* tasks, in dispatch order */
  double *prefix; /* n + 1: prefix[i] = estimated work of the first i tasks */
  int ranks;
  long chunk_max; /* -task_chunk */
};

/* weight[i]: the estimated cost of the i-th task in dispatch order (NULL: every task the same). 0, or 1
 * when out of memory. */
int sweep_schedule_init(struct sweep_schedule *p, const double *weight, long n, int ranks, long chunk_max);
/* The number of tasks the request that finds next tasks handed out gets (0 when none are left). */
long sweep_schedule_chunk(const struct sweep_schedule *p, long next);
void sweep_schedule_free(struct sweep_schedule *p);

#endif
