/* lemke_ratio.c — the ratio test of Lemke's method with the lexicographic degeneracy rule (Cottle-Pang-Stone
 * Sec. 4.9): the leaving row is the minimum ratio x_i / c_i over the entries c_i above the pivot tolerance;
 * ties go to z0, then to the lexicographically smallest row of [B^-1 B_0] / c_i. Tie thresholds from
 * ../shared/notes/lemke.md: lexicographic entries below lemke_zero_lex times their row's largest are zero,
 * and two entries are equal when they differ by less than the sum of those thresholds (comparing with a
 * tolerance relative to the entries themselves let rounding decide ties). */
#include "lemke.h"

#include <math.h>

static const double lemke_zero_lex = 1e-11;

/* Row i of B^-1 B_0 (the lexicographic row) divided by c_i into lex (n entries), with the entries below
 * lemke_zero_lex of the row's largest set to zero; trow = T(i, :). Returns the rounding scale of lex. */
static double lemke_lex_row(const struct lemke_tableau *t, int i, const double *trow, double ci, double *lex)
{
  double mx = 0.0;
  for (int k = 0; k < t->n; k++) {
    int where = t->where[t->lex_var[k]];
    lex[k] = where >= 0 ? (where == i ? 1.0 : 0.0) : trow[-1 - where];
    if (fabs(lex[k]) > mx) mx = fabs(lex[k]);
  }
  double zero = lemke_zero_lex * mx;
  for (int k = 0; k < t->n; k++)
    lex[k] = fabs(lex[k]) <= zero ? 0.0 : lex[k] / ci;
  return zero / ci;
}

/* 1 if lexicographic row a is smaller than row b; entries within the sum of their scales are equal. */
static int lemke_lex_less(int n, const double *a, double scale_a, const double *b, double scale_b)
{
  for (int k = 0; k < n; k++)
    if (fabs(a[k] - b[k]) > scale_a + scale_b) return a[k] < b[k];
  return 0; /* rows of a nonsingular B^-1 B_0 differ; reached only through rounding: keep the first */
}

/* Ratio test for the entering column c: the leaving row, or -1 for a ray. Rows with c_i > ptol whose value
 * x_i - theta c_i at the minimum ratio theta is within zx of zero are tied; the row of z0 wins a tie at once,
 * other ties go to the lexicographically smallest row of [B^-1 B_0] / c_i (entries below lemke_zero_lex of
 * their row's largest count as zero). */
int lemke_ratio_test(struct lemke_work *w, const double *c, double ptol, double zx)
{
  struct lemke_tableau *t = w->t;
  const double *x = t->x;
  int n = t->n, ntied = 0, z0_row = t->where[2 * t->n], npos = 0;
  double theta = INFINITY;
  /* Selects, not branches (about half the entries pass c_i > ptol, in no pattern a predictor learns): the
   * minimum ratio, and below one branch that is rarely taken. No fmax: a libm call per entry at -O2. */
  for (int i = 0; i < n; i++) {
    int pos = c[i] > ptol;
    double r = (x[i] > 0.0 ? x[i] : 0.0) / (pos ? c[i] : 1.0);
    r = pos ? r : INFINITY;
    theta = r < theta ? r : theta;
    npos += pos;
  }
  if (npos == 0) return -1;
  for (int i = 0; i < n; i++)
    if ((c[i] > ptol) & ((x[i] > 0.0 ? x[i] : 0.0) - theta * c[i] <= zx)) {
      if (i == z0_row) return i;
      w->tied[ntied++] = i;
    }
  if (ntied == 0) { /* rounding put even the minimiser above zx: the first row of the minimum ratio */
    for (int i = 0; i < n; i++)
      if (c[i] > ptol && (x[i] > 0.0 ? x[i] : 0.0) / c[i] == theta) return i;
    return -1;
  }
  int best = w->tied[0];
  if (ntied == 1) return best;
  /* the lexicographic rows read the columns of B^-1 B_0: every dormant one made current (lemke_lazy.c), and
   * none left out again in this run, whose degeneracy will likely bring more ties */
  lemke_tableau_lazy_off(t);
  /* Each tied row costs ncols x k from the held-back factors; once the ties are many (degenerate problems
   * such as Murty's), applying the updates first (n x ncols x k as one dgemm) is cheaper. */
  if (8 * ntied >= n) lemke_tableau_flush(t);
  lemke_tableau_row(t, best, w->row);
  double scale_best = lemke_lex_row(t, best, w->row, c[best], w->lex_best);
  for (int a = 1; a < ntied; a++) {
    int i = w->tied[a];
    lemke_tableau_row(t, i, w->row);
    double scale = lemke_lex_row(t, i, w->row, c[i], w->lex_cand);
    if (lemke_lex_less(n, w->lex_cand, scale, w->lex_best, scale_best)) {
      double *tmp = w->lex_best;
      w->lex_best = w->lex_cand;
      w->lex_cand = tmp;
      scale_best = scale;
      best = i;
    }
  }
  return best;
}
