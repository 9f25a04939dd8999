/* sweep_schedule.c — see sweep_schedule.h. Guided self-scheduling (Polychronopoulos and Kuck 1987) by
 * estimated work rather than task count: with costliest-first order a chunk of equal count would hand the
 * heaviest tasks to one rank. */
#include "sweep_schedule.h"

#include <stdlib.h>

int sweep_schedule_init(struct sweep_schedule *p, const double *weight, long n, int ranks, long chunk_max)
{
  p->n = n;
  p->ranks = ranks > 0 ? ranks : 1;
  p->chunk_max = chunk_max > 0 ? chunk_max : 1;
  if (!(p->prefix = malloc(((size_t)n + 1) * sizeof *p->prefix))) return 1;
  double total = 0.0;
  for (long i = 0; weight && i < n; i++)
    total += weight[i] > 0.0 ? weight[i] : 0.0;
  const int uniform = !weight || !(total > 0.0); /* no estimates, or none above zero: all the same */
  p->prefix[0] = 0.0;
  for (long i = 0; i < n; i++)
    p->prefix[i + 1] = p->prefix[i] + (uniform ? 1.0 : weight[i] > 0.0 ? weight[i] : 0.0);
  return 0;
}

long sweep_schedule_chunk(const struct sweep_schedule *p, long next)
{
  long left = p->n - next;
  if (left <= 0) return 0;
  long most = left < p->chunk_max ? left : p->chunk_max;
  double share = (p->prefix[p->n] - p->prefix[next]) / (2.0 * p->ranks);
  long lo = 1, hi = most; /* the largest k whose work is within the share (at least 1) */
  while (lo < hi) {
    long mid = lo + (hi - lo + 1) / 2;
    if (p->prefix[next + mid] - p->prefix[next] <= share)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

void sweep_schedule_free(struct sweep_schedule *p)
{
  free(p->prefix);
  p->prefix = NULL;
}
