/* compare.c — the verdicts of bench_compare (compare.h has the rules): table checks, -map renaming,
 * coverage, success rates with status changes, accuracy medians (a share column's share) against tolerances
 * and noise floors over the task pairs both runs solved, counts by ratio, timings by ratio of medians plus a
 * one-sided Wilcoxon rank-sum test (normal approximation, tie-corrected variance, continuity correction)
 * against the A-vs-A spread when the runs were interleaved. */
#include "compare.h"

#include "compare_impl.h"
#include "compare_load.h"
#include "share.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *compare_verdict_name(enum compare_verdict v)
{
  static const char *const names[] = {"same",        "ok",         "improved", "REGRESSION", "untested",
                                      "under floor", "time_limit", "slower?",  "faster?",    "within spread"};
  return names[v];
}

struct ranked {
  double v;
  int from_y;
};

static int ranked_cmp(const void *a, const void *b)
{
  double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;
  return (x > y) - (x < y);
}

double compare_rank_sum_p(const double *x, int nx, const double *y, int ny)
{
  int n = nx + ny;
  if (nx < 1 || ny < 1) return NAN;
  struct ranked *a = malloc((size_t)n * sizeof *a);
  if (!a) return NAN;
  for (int i = 0; i < nx; i++)
    a[i] = (struct ranked){x[i], 0};
  for (int i = 0; i < ny; i++)
    a[nx + i] = (struct ranked){y[i], 1};
  qsort(a, (size_t)n, sizeof *a, ranked_cmp);
  double rank_sum_y = 0.0, ties = 0.0;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && a[j].v == a[i].v)
      j++;
    double mid = 0.5 * (i + 1 + j), t = j - i; /* ranks i+1..j share their mean */
    ties += t * t * t - t;
    for (int k = i; k < j; k++)
      if (a[k].from_y) rank_sum_y += mid;
    i = j;
  }
  free(a);
  return compare_rank_sum_ranked(rank_sum_y, ties, nx, ny);
}

double compare_rank_sum_ranked(double rank_sum_y, double ties, int nx, int ny)
{
  const int n = nx + ny;
  double u = rank_sum_y - 0.5 * ny * (ny + 1.0), mean = 0.5 * nx * ny;
  double var = nx * (double)ny / 12.0 * ((n + 1.0) - ties / ((double)n * (n - 1.0)));
  if (!(var > 0.0)) return 1.0; /* every value tied: no evidence either way */
  return gsl_cdf_ugaussian_Q((u - mean - 0.5) / sqrt(var));
}

/* P(W+ >= w) over the 2^n equally likely signs of the doubled ranks r2 (integers), by counting the sign
 * patterns per sum: O(n * total) with total <= n (n + 1). */
static double signed_rank_exact(const int *r2, int n, long w2)
{
  long total = 0;
  for (int i = 0; i < n; i++)
    total += r2[i];
  double *ways = calloc((size_t)total + 1, sizeof *ways);
  if (!ways) return NAN;
  ways[0] = 1.0;
  long reach = 0;
  for (int i = 0; i < n; i++) {
    for (long s = reach; s >= 0; s--)
      if (ways[s] != 0.0) ways[s + r2[i]] += ways[s];
    reach += r2[i];
  }
  double tail = 0.0;
  for (long s = w2; s <= total; s++)
    tail += ways[s];
  free(ways);
  return tail / ldexp(1.0, n);
}

double compare_signed_rank_ranked(const int *r2, int m, long w2, double ties)
{
  if (m == 0) return 1.0; /* nothing moved: no evidence either way */
  if (m <= COMPARE_EXACT_MAX) return signed_rank_exact(r2, m, w2);
  double mean = m * (m + 1.0) / 4.0, var = m * (m + 1.0) * (2.0 * m + 1.0) / 24.0 - ties / 48.0;
  return var > 0.0 ? gsl_cdf_ugaussian_Q((0.5 * (double)w2 - mean - 0.5) / sqrt(var)) : 1.0;
}

double compare_signed_rank_p(const double *d, int n)
{
  double *a = malloc(((size_t)n + 1) * sizeof *a);
  size_t *order = malloc(((size_t)n + 1) * sizeof *order);
  int *r2 = malloc(((size_t)n + 1) * sizeof *r2), m = 0;
  double p = NAN;
  if (!a || !order || !r2) goto done;
  for (int i = 0; i < n; i++)
    if (d[i] != 0.0 && isfinite(d[i])) a[m++] = d[i];
  if (m == 0) {
    p = compare_signed_rank_ranked(NULL, 0, 0, 0.0);
    goto done;
  }
  /* calloc, not malloc: with -O1 and the sanitizers (make asan) gcc called gsl_sort_index's read of it
   * maybe-uninitialized, an error under -Werror */
  double *mag = calloc((size_t)m, sizeof *mag);
  if (!mag) goto done;
  for (int i = 0; i < m; i++)
    mag[i] = fabs(a[i]);
  gsl_sort_index(order, mag, 1, (size_t)m);
  long w2 = 0;
  double ties = 0.0;
  for (int i = 0; i < m;) { /* ranks i+1..j share their mean; doubled: i+1+j, an integer */
    int j = i;
    while (j < m && mag[order[j]] == mag[order[i]])
      j++;
    double t = j - i;
    ties += t * t * t - t;
    for (int k = i; k < j; k++) {
      r2[order[k]] = i + 1 + j;
      if (a[order[k]] > 0.0) w2 += i + 1 + j;
    }
    i = j;
  }
  free(mag);
  p = compare_signed_rank_ranked(r2, m, w2, ties);
done:
  free(a);
  free(order);
  free(r2);
  return p;
}

void compare_result_destroy(struct compare_result **rp)
{
  if (!rp || !*rp) return;
  for (size_t i = 0; (*rp)->group_key && i < (size_t)(*rp)->n_groups * (size_t)(*rp)->n_keys; i++)
    free((*rp)->group_key[i]);
  free((*rp)->group_key);
  free((*rp)->rows);
  free((*rp)->pooled);
  free(*rp);
  *rp = NULL;
}

int compare_failed(const struct compare_result *res, const struct compare_options *o)
{
  return res->n_regressions > 0 || (o->fail_time_limit && res->n_time_limit > 0);
}

static int same_list(const struct rundir_list *a, const struct rundir_list *b)
{
  if (a->n != b->n) return 0;
  for (int i = 0; i < a->n; i++)
    if (strcmp(a->name[i], b->name[i]) != 0) return 0;
  return 1;
}

static void print_list(const struct rundir_list *l)
{
  for (int i = 0; i < l->n; i++)
    fprintf(stderr, "%s%s", i ? "," : "", l->name[i]);
  if (!l->n) fprintf(stderr, "(none)");
}

int compare_check_table(const struct rundir *r)
{
  struct compare_side side;
  int rc = compare_load(&side, r, 0, NULL, NULL, NULL, NULL, NULL, COMPARE_SORT_BYTES);
  compare_side_free(&side);
  return rc;
}

/* The runs must be the same experiment with the same group columns; the roles are the new run's, and every
 * column they name must be in both tables (a baseline written before a column changed role still
 * compares). */
static int check_compatible(const struct rundir *b, const struct rundir *n, const struct compare_options *o)
{
  if (strcmp(b->experiment, n->experiment) != 0) {
    fprintf(stderr, "error: different experiments: %s holds '%s', %s holds '%s'\n", b->dir, b->experiment,
            n->dir, n->experiment);
    return 2;
  }
  const char *what[] = {"group", "metrics", "costs"};
  const struct rundir_list *lb[] = {&b->group, &b->metrics, &b->costs},
                           *ln[] = {&n->group, &n->metrics, &n->costs};
  for (int k = 0; k < 3; k++) {
    int bad = k == 0 && !same_list(lb[k], ln[k]);
    for (int i = 0; k > 0 && i < ln[k]->n; i++)
      bad |= table_column(b->tasks, ln[k]->name[i]) < 0;
    for (int i = 0; k > 0 && i < lb[k]->n; i++)
      bad |= rundir_list_find(&n->metrics, lb[k]->name[i]) < 0 &&
             rundir_list_find(&n->costs, lb[k]->name[i]) < 0;
    if (bad) {
      fprintf(stderr, "error: mismatched columns: '%s' is ", what[k]);
      print_list(lb[k]);
      fprintf(stderr, " in %s but ", b->dir);
      print_list(ln[k]);
      fprintf(stderr, " in %s\n", n->dir);
      return 2;
    }
  }
  for (int k = 0; k < o->n_metric_tol; k++)
    if (rundir_list_find(&n->metrics, o->metric_tol_name[k]) < 0) {
      fprintf(stderr,
              "error: -metric_tol names '%s', which is not a metric of %s (metrics: ", o->metric_tol_name[k],
              n->experiment);
      print_list(&n->metrics);
      fprintf(stderr, ")\n");
      return 2;
    }
  return 0;
}

static double median_of(const double *v, int n)
{
  return n > 0 ? gsl_stats_median_from_sorted_data(v, 1, (size_t)n) : NAN;
}

/* The share of 1s among n 0/1 values (share.h), NAN when n = 0. */
static double share_of(long k, int n)
{
  double q[3];
  share_of_counts(k, n, q);
  return q[0];
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void sort_values(double *v, int n)
{
  if (n > 1) qsort(v, (size_t)n, sizeof *v, cmp_double);
}

/* The verdict of a lower-is-better value moving from b to n with tolerance tol. */
static enum compare_verdict judge(double b, double n, double tol)
{
  if (isnan(b) && isnan(n)) return COMPARE_UNTESTED;
  if (isnan(n)) return COMPARE_REGRESSION; /* lost */
  if (isnan(b)) return COMPARE_OK;         /* new in this run */
  if (b == n) return COMPARE_SAME;
  if (n - b > tol) return COMPARE_REGRESSION;
  if (b - n > tol) return COMPARE_IMPROVED;
  return COMPARE_OK;
}

/* What the comparison of one group works with: its rows in both runs (compare_load.h), the task pairs
 * (baseline row, new row) in the baseline's table order, and scratch arrays. */
struct pairing {
  struct compare_rows b, n;
  int nv;
  long n_pairs, cap;
  int *pb, *pn; /* indices into b and n */
  double *vb, *vn, *scratch;
};

static void pairing_free(struct pairing *p)
{
  compare_rows_free(&p->b);
  compare_rows_free(&p->n);
  free(p->pb);
  free(p->pn);
  free(p->vb);
  free(p->vn);
  free(p->scratch);
}

static const int *pair_rows; /* qsort's context: the baseline rows' data row numbers */

static int by_base_row(const void *a, const void *b)
{
  int x = pair_rows[*(const int *)a], y = pair_rows[*(const int *)b];
  return (x > y) - (x < y);
}

/* Room for a group pair of nb and nn rows. 0, or 1 when out of memory. */
static int pairing_room(struct pairing *p, long nb, long nn)
{
  long need = (nb > nn ? nb : nn) + 1;
  if (need <= p->cap) return 0;
  size_t z = (size_t)need;
  int *pb = realloc(p->pb, z * sizeof *pb);
  if (pb) p->pb = pb;
  int *pn = realloc(p->pn, z * sizeof *pn);
  if (pn) p->pn = pn;
  double *vb = realloc(p->vb, z * sizeof *vb);
  if (vb) p->vb = vb;
  double *vn = realloc(p->vn, z * sizeof *vn);
  if (vn) p->vn = vn;
  double *sc = realloc(p->scratch, z * sizeof *sc);
  if (sc) p->scratch = sc;
  if (!pb || !pn || !vb || !vn || !sc) return 1;
  p->cap = need;
  return 0;
}

/* Reads baseline group g and new group m and lists their pairs in the baseline's table order. 0, or 2 with
 * a message. */
static int pair_group(struct pairing *p, const struct compare_side *sb, int g, const struct compare_side *sn,
                      int m)
{
  if (compare_rows_read(sb, g, sn, m, &p->b, &p->n)) return 2;
  if (pairing_room(p, p->b.n, p->n.n)) {
    fprintf(stderr, "error: out of memory comparing %s and %s\n", sb->r->dir, sn->r->dir);
    return 2;
  }
  p->nv = sb->nv;
  p->n_pairs = 0;
  for (long i = 0; i < p->b.n; i++)
    if (p->b.partner[i] >= 0) p->pb[p->n_pairs++] = (int)i;
  pair_rows = p->b.row;
  qsort(p->pb, (size_t)p->n_pairs, sizeof *p->pb, by_base_row);
  for (long k = 0; k < p->n_pairs; k++)
    p->pn[k] = p->b.partner[p->pb[k]];
  return 0;
}

/* Value column k of pair member i of side r. */
static double value_of(const struct compare_rows *r, int nv, long i, int k)
{
  return r->v[(size_t)i * nv + k];
}

/* The finite values of value column k over the pairs both runs solved, in pair order; counts in *nb, *nn. */
static void pair_values(struct pairing *p, int k, int *nb, int *nn)
{
  *nb = *nn = 0;
  for (long j = 0; j < p->n_pairs; j++) {
    if (p->b.outcome[p->pb[j]] != 1 || p->n.outcome[p->pn[j]] != 1) continue;
    double x = value_of(&p->b, p->nv, p->pb[j], k), y = value_of(&p->n, p->nv, p->pn[j], k);
    if (isfinite(x)) p->vb[(*nb)++] = x;
    if (isfinite(y)) p->vn[(*nn)++] = y;
  }
}

static int by_appearance(const void *a, const void *b)
{
  const struct compare_status_count *x = a, *y = b;
  if (x->side != y->side) return x->side - y->side;
  return (x->row > y->row) - (x->row < y->row);
}

void compare_tally_add(struct compare_tally *t, int side, const struct compare_task *task)
{
  const int o = task->outcome > 0 ? 1 : task->outcome == 0 ? 0 : -1, row = task->row;
  const char *s = compare_status_name(task->status);
  t->applicable[side] += o >= 0;
  t->success[side] += o == 1;
  t->time_limit[side] += strcmp(s, "time_limit") == 0;
  if (side == 0 && t->has_spread) t->flips += task->flips > 0;
  int j = 0;
  while (j < t->n_seen && t->seen[j].status != s)
    j++;
  if (j == t->n_seen && t->n_seen < COMPARE_MAX_SEEN)
    t->seen[t->n_seen++] = (struct compare_status_count){s, 0, 0, side, row};
  if (j == t->n_seen) return;
  *(side ? &t->seen[j].nn : &t->seen[j].nb) += 1;
  if (t->seen[j].side == side && row < t->seen[j].row) t->seen[j].row = row;
}

/* The status change in words ("converged -> time_limit (1)"): the statuses in order of first appearance (at
 * most COMPARE_MAX_STATUS of them) that lost tasks, then those that gained. */
static void status_note(struct compare_tally *t, struct compare_row *row)
{
  struct compare_status_count *sc = t->seen;
  qsort(sc, (size_t)t->n_seen, sizeof *sc, by_appearance);
  const int n_sc = t->n_seen < COMPARE_MAX_STATUS ? t->n_seen : COMPARE_MAX_STATUS;
  size_t at = 0;
  int moved = 0;
  for (int pass = 0; pass < 2; pass++) {
    int first = 1;
    if (pass) at += (size_t)snprintf(row->note + at, sizeof row->note - at, " -> ");
    for (int j = 0; j < n_sc && at < sizeof row->note; j++) {
      int d = sc[j].nn - sc[j].nb;
      if (pass ? d <= 0 : d >= 0) continue;
      if (pass) moved += d;
      at += (size_t)snprintf(row->note + at, sizeof row->note - at, "%s%s", first ? "" : ",", sc[j].status);
      first = 0;
    }
    if (at >= sizeof row->note) break;
  }
  if (moved && at < sizeof row->note)
    snprintf(row->note + at, sizeof row->note - at, " (%d)", moved);
  else if (!moved)
    row->note[0] = '\0';
}

/* A success-rate drop no larger than the number of the group's tasks whose status the baseline's perturbed
 * runs changed: the outcome is as chaotic as the trajectory ("within spread"). */
static void success_within_spread(const struct compare_tally *t, struct compare_row *row)
{
  if (!t->has_spread || row->verdict != COMPARE_REGRESSION || row->n_base != row->n_now) return;
  double lost = (row->base - row->now) * row->n_base;
  row->allowed = (double)t->flips / (double)row->n_base;
  if (lost <= (double)t->flips + 1e-9) row->verdict = COMPARE_SPREAD;
}

void compare_tally_judge(struct compare_tally *t, struct compare_row *row)
{
  const int ab = t->applicable[0], sb = t->success[0], tb = t->time_limit[0];
  const int an = t->applicable[1], sn = t->success[1], tn = t->time_limit[1];
  row->base = ab ? (double)sb / ab : NAN;
  row->now = an ? (double)sn / an : NAN;
  row->n_base = ab;
  row->n_now = an;
  status_note(t, row);
  if (!ab || !an) return;
  if ((long)sn * ab < (long)sb * an) { /* fewer successes: wall-clock failures alone are time_limit */
    long other_b = ab - sb - tb, other_n = an - sn - tn;
    row->verdict = other_n * ab <= other_b * an && tn > tb ? COMPARE_TIME_LIMIT : COMPARE_REGRESSION;
  } else if ((long)sn * ab > (long)sb * an) {
    row->verdict = COMPARE_IMPROVED;
  } else {
    row->verdict = row->note[0] ? COMPARE_OK : COMPARE_SAME;
  }
  success_within_spread(t, row);
}

/* The success rate of the group pair held in p. */
static void judge_success(const struct pairing *p, struct compare_row *row)
{
  struct compare_tally t = {.has_spread = p->b.flips != NULL};
  for (int side = 0; side < 2; side++) {
    const struct compare_rows *r = side ? &p->n : &p->b;
    for (long i = 0; i < r->n; i++) {
      struct compare_task task = {.row = r->row[i], .outcome = r->outcome[i], .status = r->status[i]};
      task.flips = side == 0 && r->flips ? r->flips[i] : 0;
      compare_tally_add(&t, side, &task);
    }
  }
  compare_tally_judge(&t, row);
}

/* A move beyond the tolerances that the measured spread allows (row->allowed) is "within spread". */
static void within_spread(struct compare_row *row)
{
  int moved = row->verdict == COMPARE_REGRESSION || row->verdict == COMPARE_IMPROVED;
  if (moved && isfinite(row->allowed) && fabs(row->now - row->base) <= row->allowed)
    row->verdict = COMPARE_SPREAD;
}

/* A metric's tolerance at the value x: max(tol_abs, tol_rel |x| (its -metric_tol when given), floor_v). */
static double metric_tolerance(const struct compare_options *o, const char *name, double x, double floor_v)
{
  double tol_rel = o->tol_rel;
  for (int j = 0; j < o->n_metric_tol; j++)
    if (strcmp(o->metric_tol_name[j], name) == 0) tol_rel = o->metric_tol[j];
  return fmax(fmax(o->tol_abs, tol_rel * fabs(x)), floor_v);
}

/* The tolerance of one pair's move, as its group's verdict would judge it: a share's 0/1 flip always counts,
 * a count's move by more than one and beyond count_ratio, a metric's beyond max(tol_abs, tol_rel |x|, its
 * noise floor). */
double compare_pair_tolerance(const struct compare_options *o, const struct compare_col *c,
                              const struct compare_row *row, double x)
{
  if (c->share) return 0.0;
  if (row->kind == COMPARE_COUNT) return fmax(1.0, (o->count_ratio - 1.0) * fabs(x));
  return metric_tolerance(o, row->name, x, c->floor_v);
}

/* Trajectory outcomes over the pairs both runs solved: the largest spread of the group's tasks, the pairs
 * that moved beyond their own allowance, and the one-sided signed-rank p-value of the differences for the
 * worse (NAN when none differs). */
static void outcome_evidence(const struct pairing *p, const struct compare_options *o, double *scratch,
                             struct compare_col *c, const struct compare_row *row, long pooled[2])
{
  int m = 0, moved = 0;
  for (long k = 0; k < p->n_pairs; k++) {
    long ib = p->pb[k], in = p->pn[k];
    if (p->b.outcome[ib] != 1 || p->n.outcome[in] != 1) continue;
    double x = value_of(&p->b, p->nv, ib, c->k), y = value_of(&p->n, p->nv, in, c->k);
    if (!isfinite(x) || !isfinite(y)) continue;
    double s = p->b.s ? p->b.s[(size_t)ib * p->nv + c->k] : NAN;
    if (isfinite(s)) {
      c->largest = isnan(c->largest) ? s : fmax(c->largest, s);
      c->n_beyond += fabs(y - x) > o->spread_factor * s;
    }
    moved += y != x;
    scratch[m++] = c->higher ? x - y : y - x;
    if (fabs(y - x) > compare_pair_tolerance(o, c, row, x)) pooled[scratch[m - 1] > 0.0 ? 0 : 1]++;
  }
  c->n_pairs = m;
  c->p = moved ? compare_signed_rank_p(scratch, m) : NAN;
}

/* A share column: the shares differ when the Newcombe 95 % interval of their difference (share.h) excludes
 * 0. A tolerance on the share itself would call one flipped trial of three a regression (1 -> 0.667), which
 * is no evidence of a change; the paired test (outcome_evidence) still judges the shift of the instances. */
static void judge_share(const struct rundir *n, long kb, int nb, long kn, int nn, struct compare_row *row)
{
  share_difference(kb, nb, kn, nn, &row->diff_lo, &row->diff_hi);
  if (isnan(row->base) || isnan(row->now)) {
    row->verdict = isnan(row->now) && !isnan(row->base) ? COMPARE_REGRESSION : COMPARE_UNTESTED;
    return;
  }
  const int higher = rundir_list_find(&n->higher_better, row->name) >= 0;
  const double worse_lo = higher ? -row->diff_hi : row->diff_lo,
               better_hi = higher ? -row->diff_lo : row->diff_hi;
  if (kb * (long)nn == kn * (long)nb)
    row->verdict = COMPARE_SAME;
  else if (worse_lo > 0.0)
    row->verdict = COMPARE_REGRESSION;
  else if (better_hi < 0.0)
    row->verdict = COMPARE_IMPROVED;
  else
    row->verdict = COMPARE_OK;
  within_spread(row);
}

static void judge_metric(const struct rundir *n, const struct compare_options *o, struct compare_row *row,
                         double floor_v)
{
  double b = row->base, v = row->now;
  if (floor_v > 0.0 && fabs(b) <= floor_v && fabs(v) <= floor_v) { /* noise: never a verdict */
    row->verdict = b == v ? COMPARE_SAME : COMPARE_FLOOR;
    return;
  }
  double tol = metric_tolerance(o, row->name, b, floor_v);
  if (rundir_list_find(&n->higher_better, row->name) >= 0) /* higher is better: judge the negated values */
    row->verdict = judge(-b, -v, tol);
  else
    row->verdict = judge(b, v, tol);
  within_spread(row);
}

static void judge_count(const struct compare_options *o, struct compare_row *row)
{
  double b = row->base, v = row->now;
  if (isnan(b) || isnan(v)) return; /* untested */
  row->ratio = b > 0.0 ? v / b : (v > 0.0 ? INFINITY : 1.0);
  if (b == v)
    row->verdict = COMPARE_SAME;
  else if (row->ratio > o->count_ratio && v - b > 1.0) /* one more iteration is not a trend */
    row->verdict = COMPARE_REGRESSION;
  else if (row->ratio * o->count_ratio < 1.0 && b - v > 1.0)
    row->verdict = COMPARE_IMPROVED;
  else
    row->verdict = COMPARE_OK;
  within_spread(row);
}

/* The A-vs-A spread of a timing held in memory: the median of the baseline's 1st, 3rd, ... values (in pair
 * order) over that of its 2nd, 4th, ... */
static double alternate_ratio(const double *vb, int nb, double *scratch)
{
  int ne = 0, no = 0;
  for (int k = 0; k < nb; k++)
    if (k % 2 == 0) scratch[ne++] = vb[k];
  for (int k = 0; k < nb; k++)
    if (k % 2 == 1) scratch[ne + no++] = vb[k];
  sort_values(scratch, ne);
  sort_values(scratch + ne, no);
  return median_of(scratch, ne) / median_of(scratch + ne, no);
}

/* Timings: ratio of medians beyond the threshold (with interleaved runs at least the A-vs-A spread) and the
 * rank-sum test. */
static void judge_timing(const struct compare_options *o, const struct compare_col *c,
                         struct compare_row *row)
{
  double thr = o->time_ratio;
  if (o->interleaved) {
    double r = c->aa;
    row->spread = r >= 1.0 ? r : 1.0 / r;
    if (isfinite(row->spread) && row->spread > thr) thr = row->spread;
  }
  row->base = c->base;
  row->now = c->now;
  row->ratio = row->now / row->base;
  if (row->now == row->base) {
    row->verdict = COMPARE_SAME;
    return;
  }
  row->verdict = COMPARE_OK;
  row->p = row->ratio >= 1.0 ? c->up : c->down;
  if (row->ratio > thr && c->up < o->alpha)
    row->verdict = o->interleaved ? COMPARE_REGRESSION : COMPARE_SLOWER;
  else if (row->ratio * thr < 1.0 && c->down < o->alpha)
    row->verdict = o->interleaved ? COMPARE_IMPROVED : COMPARE_FASTER;
}

/* 1 when group g of a and group m of b have the same key values. */
static int same_keys(const struct compare_side *a, int g, const struct compare_side *b, int m)
{
  for (int k = 0; k < a->n_keys; k++)
    if (!compare_fields_equal(a->key[(size_t)g * a->n_keys + k], b->key[(size_t)m * b->n_keys + k])) return 0;
  return 1;
}

/* The first group of the new run with the keys of baseline group g and not matched yet, or -1. */
static int match_group(const struct compare_side *sb, int g, const struct compare_side *sn,
                       const char *matched)
{
  for (int k = 0; k < sn->n_groups; k++)
    if (!matched[k] && same_keys(sb, g, sn, k)) return k;
  return -1;
}

/* 1 when every key value of baseline group g lies in the new run's sweep of that axis. */
static int group_in_sweep(const struct compare_side *sb, int g, const struct rundir *n)
{
  for (int k = 0; k < sb->n_keys; k++)
    if (!rundir_in_sweep(n, sb->r->group.name[k], sb->key[(size_t)g * sb->n_keys + k])) return 0;
  return 1;
}

/* A fresh row of group pair (g, m): untested, no ratio, p or spread yet. */
static struct compare_row *new_row(struct compare_result *res, int g, int m, const char *name)
{
  struct compare_row *row = &res->rows[res->n_rows++];
  *row = (struct compare_row){.group = g,
                              .new_group = m,
                              .name = name,
                              .ratio = NAN,
                              .p = NAN,
                              .spread = NAN,
                              .allowed = NAN,
                              .diff_lo = NAN,
                              .diff_hi = NAN,
                              .verdict = COMPARE_UNTESTED};
  return row;
}

void compare_col_init(struct compare_col *c, const struct rundir *b, const struct rundir *n, int k)
{
  const int is_metric = k < n->metrics.n;
  const char *name = is_metric ? n->metrics.name[k] : n->costs.name[k - n->metrics.n];
  const int cost = !is_metric && rundir_list_find(&n->counts, name) < 0;
  /* a share column (0/1 per task) is compared by its share: the median of 0s and 1s ignores any change
   * short of half the group */
  *c = (struct compare_col){.k = k,
                            .share = rundir_list_find(&n->shares, name) >= 0,
                            .outcome = !cost && spread_is_outcome(n, name),
                            .higher = rundir_list_find(&n->higher_better, name) >= 0,
                            .floor_v = rundir_floor(b->floors.n ? b : n, name),
                            .base = NAN,
                            .now = NAN,
                            .aa = NAN,
                            .up = NAN,
                            .down = NAN,
                            .largest = NAN,
                            .p = NAN};
}

struct compare_row *compare_group_rows(struct compare_result *res, const struct rundir *n, int g, int m)
{
  struct compare_row *first = new_row(res, g, m, "success_rate");
  first->kind = COMPARE_SUCCESS;
  for (int k = 0; k < n->metrics.n + n->costs.n; k++) {
    int is_metric = k < n->metrics.n;
    struct compare_row *row =
        new_row(res, g, m, is_metric ? n->metrics.name[k] : n->costs.name[k - n->metrics.n]);
    row->kind = is_metric                                      ? COMPARE_METRIC
                : rundir_list_find(&n->counts, row->name) >= 0 ? COMPARE_COUNT
                                                               : COMPARE_COST;
  }
  return first;
}

void compare_judge_column(struct compare_result *res, const struct rundir *n, const struct compare_options *o,
                          const struct compare_col *c, struct compare_row *row)
{
  row->n_base = c->nb, row->n_now = c->nn;
  if (c->timed) {
    judge_timing(o, c, row);
    return;
  }
  row->share = c->share;
  row->base = c->base;
  row->now = c->now;
  if (c->outcome) {
    row->n_pairs = c->n_pairs, row->n_beyond = c->n_beyond, row->p = c->p;
    row->allowed = o->spread_factor * c->largest;
  }
  if (row->kind == COMPARE_COST)
    res->n_untested_costs++;
  else if (c->share)
    judge_share(n, c->kb, c->nb, c->kn, c->nn, row);
  else if (row->kind == COMPARE_COUNT)
    judge_count(o, row);
  else /* the baseline's floor: a variant's looser solve tolerance does not loosen its own verdict */
    judge_metric(n, o, row, c->floor_v);
}

/* Column c's statistics over the pairs held in p: a metric's medians, a share's counts, a timing's medians,
 * A-vs-A spread and rank-sum tests (with min_repeats values a side), an outcome's paired evidence. */
static void column_stats(struct pairing *p, const struct compare_options *o, struct compare_col *c,
                         const struct compare_row *row, long pooled[2])
{
  int nb, nn;
  pair_values(p, c->k, &nb, &nn);
  c->nb = nb, c->nn = nn;
  c->timed = row->kind == COMPARE_COST && nb >= o->min_repeats && nn >= o->min_repeats;
  if (c->timed && o->interleaved) c->aa = alternate_ratio(p->vb, nb, p->scratch);
  sort_values(p->vb, nb);
  sort_values(p->vn, nn);
  c->kb = share_count(p->vb, nb), c->kn = share_count(p->vn, nn);
  c->base = c->share && !c->timed ? share_of(c->kb, nb) : median_of(p->vb, nb);
  c->now = c->share && !c->timed ? share_of(c->kn, nn) : median_of(p->vn, nn);
  if (c->timed) {
    c->up = compare_rank_sum_p(p->vb, nb, p->vn, nn);
    c->down = compare_rank_sum_p(p->vn, nn, p->vb, nb);
  } else if (c->outcome) {
    outcome_evidence(p, o, p->scratch, c, row, pooled);
  }
}

/* The rows of baseline group g against the new run's group m (read into p): the success rate, then a row
 * per metric and cost. */
static void compare_group(struct compare_result *res, struct pairing *p, const struct rundir *b,
                          const struct rundir *n, const struct compare_options *o, int g, int m)
{
  struct compare_row *row = compare_group_rows(res, n, g, m);
  judge_success(p, row);
  for (int k = 0; k < n->metrics.n + n->costs.n; k++) {
    struct compare_col c;
    compare_col_init(&c, b, n, k);
    column_stats(p, o, &c, row + 1 + k, res->pooled + 2 * k);
    compare_judge_column(res, n, o, &c, row + 1 + k);
  }
}

/* One row per trajectory outcome over every group: the pairs that moved beyond their tolerance for the
 * worse against those for the better, by the one-sided sign test (binomial, 1/2): a shift too small for any
 * quick preset's group of 1-4 instances but common to the experiment's groups. Signs only, so groups of
 * different scales pool without weights, and a count per outcome is all the comparison keeps. */
static void pooled_rows(struct compare_result *res, const struct rundir *n)
{
  for (int k = 0; k < n->metrics.n + n->costs.n; k++) {
    const long worse = res->pooled[2 * k], better = res->pooled[2 * k + 1];
    if (worse + better == 0) continue;
    const int is_metric = k < n->metrics.n;
    struct compare_row *row =
        new_row(res, -1, -1, is_metric ? n->metrics.name[k] : n->costs.name[k - n->metrics.n]);
    row->kind = is_metric ? COMPARE_METRIC : COMPARE_COUNT;
    row->base = row->now = NAN;
    row->n_pairs = (int)(worse + better);
    row->n_beyond = (int)worse;
    row->p = worse > 0 ? gsl_cdf_binomial_Q((unsigned)(worse - 1), 0.5, (unsigned)(worse + better)) : 1.0;
    row->verdict = COMPARE_OK;
  }
}

/* The paired tests of the outcomes, at shift_alpha over their number (Bonferroni): a significant shift
 * for the worse fails the row whatever the spread allowed. */
static void judge_shifts(struct compare_result *res, const struct compare_options *o)
{
  for (int i = 0; i < res->n_rows; i++)
    res->n_shift_tests += res->rows[i].kind != COMPARE_COST && isfinite(res->rows[i].p);
  for (int i = 0; i < res->n_rows; i++) {
    struct compare_row *row = &res->rows[i];
    if (row->kind == COMPARE_COST || !isfinite(row->p) || !(row->p < o->shift_alpha / res->n_shift_tests))
      continue;
    row->shift = 1;
    row->verdict = COMPARE_REGRESSION;
  }
}

/* The tallies of the verdicts. */
static void count_verdicts(struct compare_result *res)
{
  for (int i = 0; i < res->n_rows; i++) {
    enum compare_verdict v = res->rows[i].verdict;
    res->n_within_spread += v == COMPARE_SPREAD;
    res->n_regressions += v == COMPARE_REGRESSION;
    res->n_improved += v == COMPARE_IMPROVED;
    res->n_time_limit += v == COMPARE_TIME_LIMIT;
    res->n_timing_evidence += v == COMPARE_SLOWER || v == COMPARE_FASTER;
  }
}

/* The -map lines of the rows left out, in the order the maps act. */
static void map_notes(const struct compare_maps *m, const struct rundir *b, const struct rundir *n)
{
  for (int s = 0; s < m->n * m->n_keys; s++) {
    int k = s / m->n_keys, c = s % m->n_keys;
    if (m->drop_new[s])
      fprintf(stderr, "# -map: %ld rows of %s %s = %s left out of the new side\n", m->drop_new[s], n->dir,
              n->group.name[c], m->to[k]);
    if (m->drop_base[s])
      fprintf(stderr, "# -map: %ld rows of %s %s = %s left out of the baseline side\n", m->drop_base[s],
              b->dir, n->group.name[c], m->from[k]);
  }
}

/* A baseline group the new run lost: coverage. */
static void coverage_row(struct compare_result *res, int g, long size)
{
  struct compare_row *row = new_row(res, g, -1, "coverage");
  res->only_base++;
  row->kind = COMPARE_COVERAGE;
  row->base = 1.0;
  row->now = NAN;
  row->n_base = (int)size;
  row->verdict = COMPARE_REGRESSION;
}

/* 1 when group pair (g, m) is held in memory within budget: its rows (compare_rows: 13 bytes and 8 per value,
 * a spread's 4 and 8 per value more) and the pairing's 32 bytes per pair; larger ones are streamed. */
static int group_fits(const struct compare_side *sb, int g, const struct compare_side *sn, int m,
                      size_t budget)
{
  const double nb = (double)sb->size[g], nn = (double)sn->size[m], nv = sb->nv;
  const double bytes =
      (nb + nn) * (13.0 + 8.0 * nv) + (sb->has_spread ? nb * (4.0 + 8.0 * nv) : 0.0) + fmax(nb, nn) * 32.0;
  return bytes <= (double)budget;
}

/* Every baseline group against its match in the new run: held below the budget, streamed above it. 0, or 2
 * with a message. */
static int compare_groups(struct compare_result *res, const struct compare_side *sb,
                          const struct compare_side *sn, const struct compare_options *o)
{
  const struct rundir *b = sb->r, *n = sn->r;
  struct pairing p = {0};
  char *matched = calloc((size_t)sn->n_groups + 1, 1);
  int per_group = 1 + n->metrics.n + n->costs.n, rc = 2;
  res->rows = calloc((size_t)(sb->n_groups + 1) * per_group + 1, sizeof *res->rows);
  res->pooled = calloc(2 * (size_t)per_group, sizeof *res->pooled);
  if (!res->rows || !res->pooled || !matched) {
    fprintf(stderr, "error: out of memory comparing %s and %s\n", b->dir, n->dir);
    goto cleanup;
  }
  const size_t budget = o->sort_bytes ? o->sort_bytes : COMPARE_SORT_BYTES;
  for (int g = 0; g < sb->n_groups; g++) {
    int m = match_group(sb, g, sn, matched);
    if (m < 0 && !group_in_sweep(sb, g, n)) { /* not asked for: a run of a few solvers, say */
      res->outside_sweep++;
      continue;
    }
    if (m < 0) { /* the new run lost this group */
      coverage_row(res, g, sb->size[g]);
      continue;
    }
    matched[m] = 1;
    res->n_common++;
    if (!group_fits(sb, g, sn, m, budget)) {
      if (compare_group_streamed(res, sb, g, sn, m, o, budget)) goto cleanup;
      continue;
    }
    if (pair_group(&p, sb, g, sn, m)) goto cleanup;
    compare_group(res, &p, b, n, o, g, m);
  }
  for (int k = 0; k < sn->n_groups; k++)
    res->only_new += !matched[k];
  pooled_rows(res, n);
  rc = 0;
cleanup:
  pairing_free(&p);
  free(matched);
  return rc;
}

/* The baseline's group keys, kept for the report (compare_group_text). */
static int keep_keys(struct compare_result *res, struct compare_side *sb)
{
  res->n_keys = sb->n_keys;
  res->n_groups = sb->n_groups;
  res->group_key = sb->key;
  sb->key = NULL;
  return 0;
}

int compare_runs(const struct rundir *b, const struct rundir *n, const struct compare_options *o,
                 struct compare_result **out)
{
  struct compare_side sb = {0}, sn = {0};
  struct compare_maps m = {0};
  struct compare_result *res = NULL;
  size_t budget = o->sort_bytes ? o->sort_bytes : COMPARE_SORT_BYTES;
  int rc = 2;
  *out = NULL;
  compare_status_reset();
  if (check_compatible(b, n, o) || compare_maps_make(n, o, &m)) goto cleanup;
  /* the baseline's rows are paired by its axes, as are the new run's (the columns both tables have) */
  if (compare_load(&sb, b, 0, n, b, n, o->n_map ? &m : NULL, o->spread, budget) ||
      compare_load(&sn, n, 1, n, b, b, o->n_map ? &m : NULL, NULL, budget))
    goto cleanup;
  map_notes(&m, b, n);
  if (!(res = calloc(1, sizeof *res))) goto cleanup;
  if (compare_groups(res, &sb, &sn, o)) goto cleanup;
  judge_shifts(res, o);
  count_verdicts(res);
  if (!res->n_common) {
    fprintf(stderr,
            "error: %s and %s have no group in common (group by %s: the sweeps cover different values; "
            "-map NEW_VALUE=BASE_VALUE judges a variant against what it replaces)\n",
            b->dir, n->dir, b->group.n ? "the axes in experiment.txt 'group'" : "nothing");
    goto cleanup;
  }
  keep_keys(res, &sb);
  *out = res;
  res = NULL;
  rc = 0;
cleanup:
  compare_result_destroy(&res);
  compare_side_free(&sb);
  compare_side_free(&sn);
  compare_maps_free(&m);
  return rc;
}

void compare_group_text(const struct compare_result *res, int g, char *buf, size_t n)
{
  size_t at = 0;
  buf[0] = '\0';
  if (g < 0) {
    snprintf(buf, n, "(all groups, pooled)");
    return;
  }
  for (int k = 0; k < res->n_keys && at < n; k++)
    at +=
        (size_t)snprintf(buf + at, n - at, "%s%s", k ? " " : "", res->group_key[(size_t)g * res->n_keys + k]);
  if (!res->n_keys) snprintf(buf, n, "(all)");
}
