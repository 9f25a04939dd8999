/* lemke_cycle.c — cycle detection and the way out for the float Lemke run (lemke.c).
 * With the lexicographic rule in exact arithmetic, Lemke's method never visits a basis twice (Cottle-Pang-
 * Stone Sec. 4.9: the lexicographically perturbed problem is nondegenerate, and its almost-complementary
 * path cannot close on itself). The float rule decides ties between rows whose basic values are zero up to
 * rounding by thresholds (lemke_ratio.c), and on heavily degenerate contact LCPs a wrong decision can turn
 * the path back onto itself: the 210-disc Stewart-Trinkle pile's first LCP (n = 2360) cycled with period 6
 * from pivot 2749 (one BLAS thread, block 32) to the 119,000-pivot limit. A repeated basis is detected at
 * once from a hash set of the bases visited. Perturbing the basic values where the cycle was found does not
 * help: the 210-disc pile's LCP0 (Anitescu-Hart Table 1, mu = 0.1) then went round a loop of four bases
 * with positive steps, a closed component of the almost-complementary graph that a wrong tie had led onto
 * and that a small perturbation keeps. The run starts again cold on q + xi, xi random and small (the
 * numerical stand-in for the lexicographic rule's symbolic perturbation: no ties are left to decide), and
 * the answer is recomputed from the unperturbed data at the end (lemke.c). */
#include "lemke.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

/* The key of a variable: SplitMix64's finalizer (Steele-Lea-Flood 2014) of its index, a bijection on 64-bit
 * words whose outputs behave as independent random keys for hashing. */
static unsigned long long lemke_key(int var)
{
  unsigned long long z = (unsigned long long)var + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void lemke_visits_free(struct lemke_visits *v)
{
  free(v->slot);
  memset(v, 0, sizeof *v);
}

/* 1 if h was in the set, else inserts it; -1 if out of memory. Grows at half load. */
static int lemke_visits_insert(struct lemke_visits *v, unsigned long long h)
{
  if (h == 0) h = 1; /* 0 marks an empty slot */
  if (2 * (v->count + 1) > v->cap) {
    size_t cap = v->cap ? 2 * v->cap : 1024;
    unsigned long long *slot = calloc(cap, sizeof *slot);
    if (!slot) return -1;
    for (size_t k = 0; k < v->cap; k++)
      if (v->slot[k]) {
        size_t j = (size_t)v->slot[k] & (cap - 1);
        while (slot[j])
          j = (j + 1) & (cap - 1);
        slot[j] = v->slot[k];
      }
    free(v->slot);
    v->slot = slot;
    v->cap = cap;
  }
  size_t j = (size_t)h & (v->cap - 1);
  while (v->slot[j]) {
    if (v->slot[j] == h) return 1;
    j = (j + 1) & (v->cap - 1);
  }
  v->slot[j] = h;
  v->count++;
  return 0;
}

int lemke_visits_reset(struct lemke_visits *v, const struct lemke_tableau *t)
{
  if (v->slot) memset(v->slot, 0, v->cap * sizeof *v->slot);
  v->count = 0;
  v->hash = 0;
  for (int r = 0; r < t->n; r++)
    v->hash ^= lemke_key(t->basic[r]);
  return lemke_visits_insert(v, v->hash) < 0;
}

int lemke_visits_pivot(struct lemke_visits *v, int leaving, int entering)
{
  v->hash ^= lemke_key(leaving) ^ lemke_key(entering);
  return lemke_visits_insert(v, v->hash);
}

int lemke_perturb_q(struct lemke_work *w, const double *q, int n, double size)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!rng) return 1;
  gsl_rng_set(rng, (unsigned long)w->perturbs + 1UL);
  for (int i = 0; i < n; i++)
    w->qpert[i] = q[i] + size * (1.0 + gsl_rng_uniform(rng));
  gsl_rng_free(rng);
  return 0;
}
