/* compare_stream.c — a group pair of bench_compare larger than the sorts' budget, judged as it streams past
 * (compare_impl.h): one pass of the join (compare_rows_join) feeds the success tally, the counts and the
 * outcomes' running evidence (largest spread, pairs beyond it, the pooled sign test's pairs), and one
 * external sort (extsort.h) of three kinds of lines (hex; V the order bits of a double, cellstats.h): D CCCC
 * VVVVVVVVVVVVVVVV S        an outcome's nonzero paired difference: column, |d|, sign (+ or -) P CCCC
 * RRRRRRRR VVVVVVVVVVVVVVVV  an interleaved timing's baseline value, by its data row R V CCCC
 * VVVVVVVVVVVVVVVV S        a value of a pair both runs solved: column, value, side (0 base, 1 new) Read
 * back, D lines come by column and |d|: the ties, midranks and W+ of the signed-rank test (Wilcoxon, as
 * compare_signed_rank_p ranks them) follow one tie group at a time; P lines by column and baseline row: their
 * alternate positions (the A-vs-A halves of compare.h) go to a cellstats of two cells per column; V lines by
 * column and value: each side's median picked at its indices (cellstats_picks), and the rank-sum test's
 * midranks and ties counted over both sides. The same sums in the same order as the in-memory path, so the
 * same p-values to the last bit. Memory: the budget, whatever the groups' sizes. */
#include "cellstats.h"
#include "compare_impl.h"
#include "extsort.h"
#include "share.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COL_HEX = 4, BITS_HEX = 16, ROW_HEX = 8 };

/* The pass over a group pair, then the read-back of its sort. */
struct stream {
  const struct compare_options *o;
  int nv;
  struct compare_col *col; /* nv */
  struct compare_row *row; /* the success row, then nv */
  long *pooled;            /* 2 per column */
  long *moved, *m;         /* per column: outcome pairs that moved; nonzero finite differences */
  struct compare_tally tally;
  struct extsort *sort;
  struct cellstats aa; /* interleaved timings: cells 2 k (1st, 3rd, ...) and 2 k + 1 (2nd, 4th, ...) */
};

/* A line kind, column k, the order bits of v and a last character (tail; 0: none) after an optional row. */
static int add_line(struct stream *st, char kind, int k, long row, double v, char tail)
{
  char line[1 + COL_HEX + ROW_HEX + BITS_HEX + 2];
  int at = 1 + COL_HEX;
  line[0] = kind;
  cellstats_put_hex(line + 1, (uint64_t)k, COL_HEX);
  if (row >= 0) cellstats_put_hex(line + at, (uint64_t)row, ROW_HEX), at += ROW_HEX;
  cellstats_put_hex(line + at, cellstats_order_bits(v), BITS_HEX);
  at += BITS_HEX;
  if (tail) line[at++] = tail;
  line[at] = '\0';
  return extsort_add(st->sort, line);
}

/* Column k of a pair both runs solved. 0, or 1 (the sort failed). */
static int pair_value(struct stream *st, int k, const struct compare_task *b, const struct compare_task *n)
{
  struct compare_col *c = &st->col[k];
  const struct compare_row *row = &st->row[1 + k];
  const double x = b->v[k], y = n->v[k];
  const int values = !c->share || row->kind == COMPARE_COST; /* a share needs its counts only */
  if (isfinite(x)) {
    c->nb++, c->kb += x >= 0.5;
    if (values && add_line(st, 'V', k, -1, x, '0')) return 1;
    if (row->kind == COMPARE_COST && st->o->interleaved && add_line(st, 'P', k, b->row, x, 0)) return 1;
  }
  if (isfinite(y)) {
    c->nn++, c->kn += y >= 0.5;
    if (values && add_line(st, 'V', k, -1, y, '1')) return 1;
  }
  if (!c->outcome || !isfinite(x) || !isfinite(y)) return 0;
  const double s = b->spread ? b->spread[k] : NAN, d = c->higher ? x - y : y - x;
  if (isfinite(s)) {
    c->largest = isnan(c->largest) ? s : fmax(c->largest, s);
    c->n_beyond += fabs(y - x) > st->o->spread_factor * s;
  }
  st->moved[k] += y != x;
  c->n_pairs++;
  if (fabs(y - x) > compare_pair_tolerance(st->o, c, row, x)) st->pooled[2 * k + (d > 0.0 ? 0 : 1)]++;
  if (d == 0.0 || !isfinite(d)) return 0; /* dropped by the signed-rank test */
  st->m[k]++;
  return add_line(st, 'D', k, -1, fabs(d), d > 0.0 ? '+' : '-');
}

static int visit(void *ctx, const struct compare_task *b, const struct compare_task *n)
{
  struct stream *st = ctx;
  if (b) compare_tally_add(&st->tally, 0, b);
  if (n) compare_tally_add(&st->tally, 1, n);
  if (!b || !n || b->outcome != 1 || n->outcome != 1) return 0;
  for (int k = 0; k < st->nv; k++)
    if (pair_value(st, k, b, n)) return 1;
  return 0;
}

/* ---- reading the sort back: one column's lines of one kind at a time ---- */
struct run {
  char kind;
  int k;
  long i, start; /* lines so far; where the current tie group started */
  int count[2];  /* the tie group's lines per side (V: 0 base, 1 new; D: 0 negative, 1 positive) */
  double last;   /* the tie group's value */
  double ties;   /* sum of t^3 - t over the tie groups */
  double rs[2];  /* V: the rank sums of each side */
  long w2, n_r2; /* D: doubled W+; the doubled midranks kept for the exact test */
  int r2[COMPARE_EXACT_MAX];
  struct cellstats_picks pk[2];
  long at[2]; /* V: each side's values so far */
};

/* Closes the tie group that ends at r->i: its midrank (doubled: start + 1 + i) to its members. */
static void close_ties(struct run *r)
{
  const long j = r->i, n = j - r->start;
  if (n <= 0) return;
  const double t = (double)n, mid = 0.5 * (double)(r->start + 1 + j);
  r->ties += t * t * t - t;
  if (r->kind == 'V') { /* one addition per member, as compare_rank_sum_p adds them */
    for (int side = 0; side < 2; side++)
      for (int q = 0; q < r->count[side]; q++)
        r->rs[side] += mid;
  } else {
    r->w2 += (r->start + 1 + j) * (long)r->count[1];
    for (long q = 0; q < n && r->n_r2 < COMPARE_EXACT_MAX; q++)
      r->r2[r->n_r2++] = (int)(r->start + 1 + j);
  }
  r->start = j, r->count[0] = r->count[1] = 0;
}

static void run_start(struct run *r, const struct stream *st, char kind, int k)
{
  memset(r, 0, sizeof *r);
  r->kind = kind, r->k = k;
  if (kind != 'V') return;
  cellstats_picks_start(&r->pk[0], st->col[k].nb);
  cellstats_picks_start(&r->pk[1], st->col[k].nn);
}

/* The column's statistics from its finished run. */
static void run_end(struct run *r, struct stream *st)
{
  struct compare_col *c = &st->col[r->k];
  close_ties(r);
  if (r->kind == 'D') {
    c->p = compare_signed_rank_ranked(r->r2, (int)st->m[r->k], r->w2, r->ties);
  } else if (r->kind == 'V') {
    double q[3];
    if (!(c->share && !c->timed)) { /* medians (a share's share came from its counts) */
      cellstats_picks_result(&r->pk[0], CELLSTATS_QUARTILES, q);
      c->base = c->nb ? q[0] : NAN;
      cellstats_picks_result(&r->pk[1], CELLSTATS_QUARTILES, q);
      c->now = c->nn ? q[0] : NAN;
    }
    if (c->timed) {
      c->up = compare_rank_sum_ranked(r->rs[1], r->ties, c->nb, c->nn);
      c->down = compare_rank_sum_ranked(r->rs[0], r->ties, c->nn, c->nb);
    }
  }
}

/* One line of the current run. 0, or 1 (out of memory). */
static int run_take(struct run *r, struct stream *st, const char *line)
{
  const char *bits = line + 1 + COL_HEX + (r->kind == 'P' ? ROW_HEX : 0);
  const double v = cellstats_from_order_bits(cellstats_get_hex(bits, BITS_HEX));
  if (r->kind == 'P') {
    const double one = v;
    return cellstats_add(&st->aa, 2 * r->k + (int)(r->i++ % 2), 1, &one);
  }
  if (r->i > 0 && v != r->last) close_ties(r); /* equal doubles tie (-0.0 and +0.0 too) */
  const int side = bits[BITS_HEX] == '1' || bits[BITS_HEX] == '+';
  r->last = v, r->count[side]++, r->i++;
  if (r->kind == 'V') cellstats_picks_take(&r->pk[side], r->at[side]++, v);
  return 0;
}

static int read_back(struct stream *st)
{
  struct run *r = calloc(1, sizeof *r);
  const char *line;
  int open = 0, rc = 1;
  if (!r || extsort_finish(st->sort)) goto done;
  while ((line = extsort_next(st->sort))) {
    const int k = (int)cellstats_get_hex(line + 1, COL_HEX);
    if (!open || line[0] != r->kind || k != r->k) {
      if (open) run_end(r, st);
      run_start(r, st, line[0], k), open = 1;
    }
    if (run_take(r, st, line)) goto done;
  }
  if (open) run_end(r, st);
  rc = extsort_failed(st->sort) || cellstats_finish(&st->aa);
done:
  free(r);
  return rc;
}

/* After the pass: timed columns, shares from their counts, outcomes whose differences were all dropped. */
static void after_pass(struct stream *st)
{
  for (int k = 0; k < st->nv; k++) {
    struct compare_col *c = &st->col[k];
    c->timed =
        st->row[1 + k].kind == COMPARE_COST && c->nb >= st->o->min_repeats && c->nn >= st->o->min_repeats;
    if (c->share && !c->timed) {
      double q[3];
      share_of_counts(c->kb, c->nb, q);
      c->base = q[0];
      share_of_counts(c->kn, c->nn, q);
      c->now = q[0];
    }
    if (c->outcome) c->p = st->moved[k] ? compare_signed_rank_ranked(NULL, 0, 0, 0.0) : NAN;
  }
}

int compare_group_streamed(struct compare_result *res, const struct compare_side *sb, int g,
                           const struct compare_side *sn, int m, const struct compare_options *o,
                           size_t budget)
{
  const struct rundir *b = sb->r, *n = sn->r;
  struct stream st = {.o = o, .nv = sb->nv, .pooled = res->pooled};
  int rc = 2;
  st.col = calloc((size_t)st.nv + 1, sizeof *st.col);
  st.moved = calloc((size_t)st.nv + 1, sizeof *st.moved);
  st.m = calloc((size_t)st.nv + 1, sizeof *st.m);
  st.sort = extsort_create(budget / 2);
  if (!st.col || !st.moved || !st.m || !st.sort || cellstats_init(&st.aa, 1, NULL, budget / 4) ||
      cellstats_reserve(&st.aa, 2 * st.nv)) {
    fprintf(stderr, "error: out of memory comparing %s and %s\n", b->dir, n->dir);
    goto cleanup;
  }
  st.row = compare_group_rows(res, n, g, m);
  st.tally.has_spread = sb->has_spread;
  for (int k = 0; k < st.nv; k++)
    compare_col_init(&st.col[k], b, n, k);
  if (compare_rows_join(sb, g, sn, m, visit, &st)) goto cleanup;
  after_pass(&st);
  if (read_back(&st)) {
    fprintf(stderr, "error: the sort of group %d of %s and %s failed\n", g, b->dir, n->dir);
    goto cleanup;
  }
  for (int k = 0; k < st.nv; k++) {
    struct compare_col *c = &st.col[k];
    if (c->timed && o->interleaved)
      c->aa = cellstats_q(&st.aa, 2 * k, 0)[0] / cellstats_q(&st.aa, 2 * k + 1, 0)[0];
    compare_judge_column(res, n, o, c, &st.row[1 + k]);
  }
  compare_tally_judge(&st.tally, st.row);
  rc = 0;
cleanup:
  free(st.col);
  free(st.moved);
  free(st.m);
  extsort_destroy(&st.sort);
  cellstats_free(&st.aa);
  return rc;
}
