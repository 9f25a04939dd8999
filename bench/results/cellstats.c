/* cellstats.c — see cellstats.h. While the values fit the budget they are held per (cell, column) and sorted
 * in memory (gsl_sort, then GSL's median and quantiles: the cost the summary always had); the first value
 * past it moves them all to the external sort, and every later one goes there. A sorted line is EEEEEEEE CCCC
 * VVVVVVVVVVVVVVVV in hex: the cell, the column and the value's bits mapped so that their unsigned order is
 * the order of the doubles (a positive value's sign bit set, a negative value's bits all flipped), so strcmp
 * orders the lines by (cell, column, value). The values of one (cell, column) come back together in ascending
 * order and their count is known from the feeding, so the median and quartiles need only the values at their
 * indices. */
#include "cellstats.h"

#include "extsort.h"
#include "share.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CELL_HEX = 8, COL_HEX = 4, VALUE_HEX = 16, LINE_LEN = CELL_HEX + COL_HEX + VALUE_HEX };

int cellstats_init(struct cellstats *c, int n_cols, const unsigned char *kind, size_t budget)
{
  memset(c, 0, sizeof *c);
  c->n_cols = n_cols, c->budget = budget;
  c->kind = calloc((size_t)n_cols + 1, 1);
  c->sort = extsort_create(budget / 2); /* half: while the held values move in, both are there */
  if (!c->kind || !c->sort) return 1;
  if (kind) memcpy(c->kind, kind, (size_t)n_cols);
  return 0;
}

/* *p grown from old to cap elements of size, the new ones zero. */
static int grow(void *p, size_t size, int old, int cap)
{
  char *b = realloc(*(void **)p, (size_t)cap * size + 1);
  if (!b) return 1;
  memset(b + (size_t)old * size, 0, (size_t)(cap - old) * size);
  *(void **)p = b;
  return 0;
}

/* Room for cell: the arrays grown (doubling) and the new cells' statistics NAN. */
static int cell_room(struct cellstats *c, int cell)
{
  if (cell < c->cap) return 0;
  int cap = c->cap ? c->cap : 16, old = c->cap;
  while (cap <= cell)
    cap *= 2;
  size_t nc = (size_t)c->n_cols;
  if (grow(&c->count, nc * sizeof *c->count, old, cap) || grow(&c->ones, nc * sizeof *c->ones, old, cap) ||
      grow(&c->q, 3 * nc * sizeof *c->q, old, cap) || grow(&c->held, nc * sizeof *c->held, old, cap) ||
      grow(&c->tasks, sizeof *c->tasks, old, cap) || grow(&c->failed, sizeof *c->failed, old, cap) ||
      grow(&c->applicable, sizeof *c->applicable, old, cap) ||
      grow(&c->success, sizeof *c->success, old, cap))
    return 1;
  for (size_t k = 3 * nc * (size_t)old; k < 3 * nc * (size_t)cap; k++)
    c->q[k] = NAN;
  c->cap = cap;
  return 0;
}

void cellstats_put_hex(char *s, uint64_t v, int width)
{
  for (int k = width - 1; k >= 0; k--, v >>= 4)
    s[k] = "0123456789abcdef"[v & 15];
}

uint64_t cellstats_get_hex(const char *s, int width)
{
  uint64_t v = 0;
  for (int k = 0; k < width; k++)
    v = v << 4 | (uint64_t)(s[k] <= '9' ? s[k] - '0' : s[k] - 'a' + 10);
  return v;
}

uint64_t cellstats_order_bits(double x)
{
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

double cellstats_from_order_bits(uint64_t u)
{
  u = u >> 63 ? u & ~((uint64_t)1 << 63) : ~u;
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* The sort's line of value v of (cell, col) into line. */
static void sort_line(char *line, int cell, int col, double v)
{
  cellstats_put_hex(line, (uint64_t)cell, CELL_HEX);
  cellstats_put_hex(line + CELL_HEX, (uint64_t)col, COL_HEX);
  cellstats_put_hex(line + CELL_HEX + COL_HEX, cellstats_order_bits(v), VALUE_HEX);
  line[LINE_LEN] = '\0';
}

/* Past the budget: every held value into the sort, the memory freed. 0, or 1. */
static int spill(struct cellstats *c)
{
  char line[LINE_LEN + 1];
  for (size_t at = 0; at < (size_t)c->n_cells * (size_t)c->n_cols; at++) {
    struct cellstats_values *h = &c->held[at];
    for (size_t i = 0; i < h->n; i++) {
      sort_line(line, (int)(at / (size_t)c->n_cols), (int)(at % (size_t)c->n_cols), h->v[i]);
      if (extsort_add(c->sort, line)) return 1;
    }
    free(h->v);
    memset(h, 0, sizeof *h);
  }
  c->spilled = 1, c->held_bytes = 0;
  return 0;
}

/* Value v of (cell, col) held in memory, or past the budget into the sort. 0, or 1. */
static int take_value(struct cellstats *c, int cell, int col, double v)
{
  struct cellstats_values *h = &c->held[(size_t)cell * (size_t)c->n_cols + (size_t)col];
  if (!c->spilled && h->n == h->cap) {
    size_t cap = h->cap ? 2 * h->cap : 16;
    if (c->held_bytes + (cap - h->cap) * sizeof *h->v > c->budget) {
      if (spill(c)) return 1;
    } else {
      double *b = realloc(h->v, cap * sizeof *b);
      if (!b) return 1;
      c->held_bytes += (cap - h->cap) * sizeof *b;
      h->v = b, h->cap = cap;
    }
  }
  if (!c->spilled) {
    h->v[h->n++] = v;
    return 0;
  }
  char line[LINE_LEN + 1];
  sort_line(line, cell, col, v);
  return extsort_add(c->sort, line);
}

int cellstats_reserve(struct cellstats *c, int n)
{
  if (n > 0 && cell_room(c, n - 1)) return 1;
  if (n > c->n_cells) c->n_cells = n;
  return 0;
}

int cellstats_add(struct cellstats *c, int cell, int outcome, const double *v)
{
  if (cell_room(c, cell)) {
    fprintf(stderr, "error: out of memory gathering statistics\n");
    return 1;
  }
  if (cell >= c->n_cells) c->n_cells = cell + 1;
  c->tasks[cell]++;
  c->failed[cell] += outcome == 0;
  c->applicable[cell] += outcome >= 0;
  c->success[cell] += outcome == 1;
  for (int k = 0; k < c->n_cols; k++) {
    if (!isfinite(v[k]) || (outcome != 1 && c->kind[k] != CELLSTATS_TOTAL)) continue;
    size_t at = (size_t)cell * (size_t)c->n_cols + (size_t)k;
    c->count[at]++;
    if (c->kind[k] == CELLSTATS_SHARE) {
      c->ones[at] += v[k] >= 0.5;
      continue;
    }
    if (take_value(c, cell, k, v[k])) return 1;
  }
  return 0;
}

void cellstats_picks_start(struct cellstats_picks *p, long n)
{
  static const double f[2] = {0.25, 0.75};
  p->n = n, p->sum = 0.0;
  p->at[0] = (n - 1) / 2, p->at[1] = n / 2;
  for (int j = 0; j < 2; j++) {
    const double index = f[j] * (double)(n - 1);
    const long lhs = (int)index; /* GSL: (int)index, and delta = index - lhs */
    p->delta[j] = index - (double)lhs;
    p->at[2 + 2 * j] = lhs, p->at[3 + 2 * j] = lhs + 1 < n ? lhs + 1 : lhs;
  }
}

void cellstats_picks_take(struct cellstats_picks *p, long i, double v)
{
  p->sum += v;
  for (int k = 0; k < 6; k++)
    if (p->at[k] == i) p->got[k] = v;
}

void cellstats_picks_result(const struct cellstats_picks *p, int kind, double q[3])
{
  if (kind == CELLSTATS_TOTAL) {
    q[0] = p->sum;
    return;
  }
  q[0] = p->at[0] == p->at[1] ? p->got[0] : (p->got[0] + p->got[1]) / 2.0;
  for (int j = 0; j < 2; j++) {
    const long lhs = p->at[2 + 2 * j];
    const double d = p->delta[j];
    q[1 + j] = lhs == p->n - 1 ? p->got[2 + 2 * j] : (1 - d) * p->got[2 + 2 * j] + d * p->got[3 + 2 * j];
  }
}

/* The statistics of the values held in memory (nothing went to the sort). */
static void held_results(struct cellstats *c)
{
  for (size_t at = 0; at < (size_t)c->n_cells * (size_t)c->n_cols; at++) {
    struct cellstats_values *h = &c->held[at];
    double *q = c->q + 3 * at;
    if (!h->n) continue;
    gsl_sort(h->v, 1, h->n);
    if (c->kind[at % (size_t)c->n_cols] == CELLSTATS_TOTAL) {
      q[0] = 0.0;
      for (size_t i = 0; i < h->n; i++)
        q[0] += h->v[i];
      continue;
    }
    q[0] = gsl_stats_median_from_sorted_data(h->v, 1, h->n);
    q[1] = gsl_stats_quantile_from_sorted_data(h->v, 1, h->n, 0.25);
    q[2] = gsl_stats_quantile_from_sorted_data(h->v, 1, h->n, 0.75);
  }
}

int cellstats_finish(struct cellstats *c)
{
  size_t nc = (size_t)c->n_cols;
  for (size_t at = 0; at < (size_t)c->n_cells * nc; at++) /* shares: from their counts */
    if (c->kind[at % nc] == CELLSTATS_SHARE && c->count[at])
      share_of_counts(c->ones[at], c->count[at], c->q + 3 * at);
  if (!c->spilled) {
    held_results(c);
    return 0;
  }
  if (extsort_finish(c->sort)) return 1;
  struct cellstats_picks p = {0};
  long i = 0, group = -1;
  for (const char *line; (line = extsort_next(c->sort));) {
    long g = (long)(cellstats_get_hex(line, CELL_HEX) * nc + cellstats_get_hex(line + CELL_HEX, COL_HEX));
    if (g != group) {
      if (group >= 0) cellstats_picks_result(&p, c->kind[group % (long)nc], c->q + 3 * group);
      group = g, i = 0;
      cellstats_picks_start(&p, c->count[g]);
    }
    cellstats_picks_take(&p, i++,
                         cellstats_from_order_bits(cellstats_get_hex(line + CELL_HEX + COL_HEX, VALUE_HEX)));
  }
  if (group >= 0) cellstats_picks_result(&p, c->kind[group % (long)nc], c->q + 3 * group);
  return extsort_failed(c->sort);
}

void cellstats_free(struct cellstats *c)
{
  for (size_t at = 0; c->held && at < (size_t)c->cap * (size_t)c->n_cols; at++)
    free(c->held[at].v);
  free(c->held);
  free(c->kind);
  free(c->count);
  free(c->ones);
  free(c->q);
  free(c->tasks);
  free(c->failed);
  free(c->applicable);
  free(c->success);
  extsort_destroy(&c->sort);
  memset(c, 0, sizeof *c);
}
