/* compare.c — the verdicts of bench_compare (compare.h has the rules): table checks, -map renaming,
 * coverage, success rates with status changes, accuracy medians (a share column's share) against tolerances
 * and noise floors over the task pairs both runs solved, counts by ratio, timings by ratio of medians plus a
 * one-sided Wilcoxon rank-sum test (normal approximation, tie-corrected variance, continuity correction)
 * against the A-vs-A spread when the runs were interleaved. */
#include "compare.h"

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

double compare_signed_rank_p(const double *d, int n)
{
  enum { EXACT_MAX = 50 };
  double *a = malloc(((size_t)n + 1) * sizeof *a);
  size_t *order = malloc(((size_t)n + 1) * sizeof *order);
  int *r2 = malloc(((size_t)n + 1) * sizeof *r2), m = 0;
  double p = NAN;
  if (!a || !order || !r2) goto done;
  for (int i = 0; i < n; i++)
    if (d[i] != 0.0 && isfinite(d[i])) a[m++] = d[i];
  if (m == 0) {
    p = 1.0; /* nothing moved: no evidence either way */
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
  if (m <= EXACT_MAX) {
    p = signed_rank_exact(r2, m, w2);
  } else {
    double mean = m * (m + 1.0) / 4.0, var = m * (m + 1.0) * (2.0 * m + 1.0) / 24.0 - ties / 48.0;
    p = var > 0.0 ? gsl_cdf_ugaussian_Q((0.5 * (double)w2 - mean - 0.5) / sqrt(var)) : 1.0;
  }
done:
  free(a);
  free(order);
  free(r2);
  return p;
}

void compare_result_destroy(struct compare_result **rp)
{
  if (!rp || !*rp) return;
  rundir_groups_destroy(&(*rp)->gb);
  rundir_groups_destroy(&(*rp)->gn);
  free((*rp)->rows);
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

/* Duplicate rows: a task_id twice, or two rows with the same values of every axis. */
static int check_duplicates(const struct rundir *r, const char *what, int n_keys, char *const *keys)
{
  struct rundir_groups *g = NULL;
  if (rundir_group(r, n_keys, keys, &g)) return 2;
  int rc = 0;
  for (int k = 0; k < g->n && !rc; k++)
    if (g->start[k + 1] - g->start[k] > 1) {
      int i = g->rows[g->start[k]], j = g->rows[g->start[k] + 1];
      fprintf(stderr, "error: corrupt table %s/tasks.csv: data rows %d and %d have the same %s", r->dir,
              i + 1, j + 1, what);
      for (int c = 0; c < n_keys; c++)
        fprintf(stderr, "%s%s=%s", c ? "," : " (", keys[c], table_get(r->tasks, i, g->key_col[c]));
      fprintf(stderr, "%s\n", n_keys ? ")" : "");
      rc = 2;
    }
  rundir_groups_destroy(&g);
  return rc;
}

static int check_numbers(const struct rundir *r, const struct rundir_list *l)
{
  const struct table *t = r->tasks;
  int tid = table_column(t, "task_id");
  for (int k = 0; k < l->n; k++) {
    int col = table_column(t, l->name[k]);
    for (int i = 0; col >= 0 && i < t->nrow; i++) {
      const char *s = table_get(t, i, col);
      char *end = NULL;
      if (!s[0]) continue; /* unset: no value */
      (void)strtod(s, &end);
      if (*end) {
        fprintf(stderr,
                "error: corrupt table %s/tasks.csv: data row %d (task_id %s): column '%s' holds '%s', not a "
                "number\n",
                r->dir, i + 1, tid >= 0 ? table_get(t, i, tid) : "?", l->name[k], s);
        return 2;
      }
    }
  }
  return 0;
}

int compare_check_table(const struct rundir *r)
{
  char tid_name[] = "task_id";
  char *tid[] = {tid_name};
  if (table_column(r->tasks, "task_id") >= 0 && check_duplicates(r, "task_id", 1, tid)) return 2;
  if (r->axes.n && check_duplicates(r, "axis values", r->axes.n, r->axes.name)) return 2;
  if (check_numbers(r, &r->metrics) || check_numbers(r, &r->costs)) return 2;
  return 0;
}

/* One value of an axis against another within one run (an option axis: -map 64=8 over -lemke_block 8,64):
 * the new run's rows of the base value and the baseline's rows of the variant's value are left out, so
 * each side keeps one method and nothing is merged. */
static int drop_other_value(struct rundir *r, const char *column, const char *value, const char *side)
{
  int col = table_column(r->tasks, column), n = col < 0 ? 0 : table_drop_rows(r->tasks, col, value);
  if (n)
    fprintf(stderr, "# -map: %d rows of %s %s = %s left out of the %s side\n", n, r->dir, column, value,
            side);
  return n;
}

int compare_map_values(struct rundir *b, struct rundir *r, int n, char *const *from, char *const *to)
{
  struct table *t = r->tasks;
  for (int k = 0; k < n; k++) {
    int found = 0;
    for (int c = 0; c < r->group.n; c++) {
      int col = table_column(t, r->group.name[c]), has_from = 0;
      for (int i = 0; col >= 0 && i < t->nrow; i++)
        has_from |= strcmp(table_get(t, i, col), from[k]) == 0;
      if (!has_from) continue;
      drop_other_value(r, r->group.name[c], to[k], "new");
      drop_other_value(b, r->group.name[c], from[k], "baseline");
      found = 1;
      for (int i = 0; i < t->nrow; i++) {
        if (strcmp(table_get(t, i, col), from[k]) != 0) continue;
        if (table_set(t, i, col, to[k])) {
          fprintf(stderr, "error: out of memory mapping %s\n", r->dir);
          return 2;
        }
      }
    }
    if (!found) {
      fprintf(stderr, "error: -map %s=%s: no group column of %s holds '%s'\n", from[k], to[k], r->dir,
              from[k]);
      return 2;
    }
  }
  return 0;
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
static double share_of(const double *v, int n)
{
  double q[3];
  share_of_values(v, n, q);
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

/* What the comparison of one group works with: the task pairs (base row, new row) matched by the axes that
 * are not group keys, and scratch arrays. */
struct pairing {
  int n_cols;
  int *col_b, *col_n; /* the pairing axes in each table */
  int n;              /* pairs in the current group */
  int *pb, *pn;
  double *vb, *vn;
  /* the rows' pairing keys as labels (rundir_key_labels), and a group's new rows sorted by label: pairing
   * is then a lookup per row, not a scan of the group (quadratic in a group of 10^5 seeds) */
  int *lab_b, *lab_n, *sorted, *next, *epoch_of;
  int epoch;
};

static void pairing_free(struct pairing *p)
{
  free(p->col_b);
  free(p->col_n);
  free(p->pb);
  free(p->pn);
  free(p->vb);
  free(p->vn);
  free(p->lab_b);
  free(p->lab_n);
  free(p->sorted);
  free(p->next);
  free(p->epoch_of);
}

static int pairing_init(struct pairing *p, const struct rundir *b, const struct rundir *n)
{
  memset(p, 0, sizeof *p);
  size_t rows = (size_t)b->tasks->nrow + (size_t)n->tasks->nrow + 1;
  p->col_b = calloc((size_t)b->axes.n + 1, sizeof *p->col_b);
  p->col_n = calloc((size_t)b->axes.n + 1, sizeof *p->col_n);
  p->pb = calloc(rows, sizeof *p->pb);
  p->pn = calloc(rows, sizeof *p->pn);
  p->vb = calloc(rows, sizeof *p->vb);
  p->vn = calloc(rows, sizeof *p->vn);
  p->lab_b = calloc(rows, sizeof *p->lab_b);
  p->lab_n = calloc(rows, sizeof *p->lab_n);
  p->sorted = calloc(rows, sizeof *p->sorted);
  if (!p->col_b || !p->col_n || !p->pb || !p->pn || !p->vb || !p->vn || !p->lab_b || !p->lab_n || !p->sorted)
    return 1;
  for (int k = 0; k < b->axes.n; k++) {
    const char *a = b->axes.name[k];
    int cb = table_column(b->tasks, a), cn = table_column(n->tasks, a);
    if (rundir_list_find(&b->group, a) >= 0 || cb < 0 || cn < 0) continue;
    p->col_b[p->n_cols] = cb;
    p->col_n[p->n_cols++] = cn;
  }
  int labels = rundir_key_labels(b->tasks, p->col_b, n->tasks, p->col_n, p->n_cols, p->lab_b, p->lab_n);
  if (labels < 0) return 1;
  p->next = calloc((size_t)labels + 1, sizeof *p->next);
  p->epoch_of = calloc((size_t)labels + 1, sizeof *p->epoch_of);
  return !p->next || !p->epoch_of;
}

static const int *label_order; /* qsort's context: the labels of the new run's rows */

static int by_label_then_row(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  if (label_order[x] != label_order[y]) return label_order[x] < label_order[y] ? -1 : 1;
  return (x > y) - (x < y);
}

/* Pairs the rows of baseline group g with those of new group m that have the same pairing keys: each
 * baseline row, in table order, with the first new row of its keys (in table order) not paired yet. */
static void pair_group(struct pairing *p, const struct rundir_groups *gb, int g,
                       const struct rundir_groups *gn, int m)
{
  int nn = gn->start[m + 1] - gn->start[m];
  memcpy(p->sorted, gn->rows + gn->start[m], (size_t)nn * sizeof *p->sorted);
  label_order = p->lab_n;
  qsort(p->sorted, (size_t)nn, sizeof *p->sorted, by_label_then_row);
  p->epoch++;
  for (int k = 0; k < nn; k++) { /* where each label's rows start in sorted */
    int l = p->lab_n[p->sorted[k]];
    if (p->epoch_of[l] != p->epoch) p->epoch_of[l] = p->epoch, p->next[l] = k;
  }
  p->n = 0;
  for (int k = gb->start[g]; k < gb->start[g + 1]; k++) {
    int i = gb->rows[k], l = p->lab_b[i];
    if (p->epoch_of[l] != p->epoch) continue; /* no new row has its keys */
    int at = p->next[l];
    if (at >= nn || p->lab_n[p->sorted[at]] != l) continue; /* every one is paired already */
    p->next[l]++;
    p->pb[p->n] = i;
    p->pn[p->n++] = p->sorted[at];
  }
}

/* The finite values of a column over the pairs both runs solved, in pair order; counts in *nb, *nn. */
static void pair_values(struct pairing *p, const struct rundir *b, const struct rundir *n, const char *name,
                        int *nb, int *nn)
{
  int cb = table_column(b->tasks, name), cn = table_column(n->tasks, name);
  *nb = *nn = 0;
  for (int k = 0; k < p->n; k++) {
    if (rundir_outcome(b, p->pb[k]) != 1 || rundir_outcome(n, p->pn[k]) != 1) continue;
    double x = table_number(b->tasks, p->pb[k], cb), y = table_number(n->tasks, p->pn[k], cn);
    if (isfinite(x)) p->vb[(*nb)++] = x;
    if (isfinite(y)) p->vn[(*nn)++] = y;
  }
}

struct status_count {
  const char *status;
  int nb, nn;
};

/* Success rate of a group pair, and the status change in words ("converged -> time_limit (1)"). */
static void judge_success(const struct rundir *b, const struct rundir_groups *gb, int g,
                          const struct rundir *n, const struct rundir_groups *gn, int m,
                          struct compare_row *row)
{
  enum { MAX_STATUS = 16 };
  struct status_count sc[MAX_STATUS];
  int n_sc = 0, ab = 0, sb = 0, tb = 0, an = 0, sn = 0, tn = 0;
  for (int side = 0; side < 2; side++) {
    const struct rundir *r = side ? n : b;
    const struct rundir_groups *gr = side ? gn : gb;
    int grp = side ? m : g;
    for (int k = gr->start[grp]; k < gr->start[grp + 1]; k++) {
      int i = gr->rows[k], o = rundir_outcome(r, i);
      const char *s = table_get(r->tasks, i, r->status_col);
      int tl = strcmp(s, "time_limit") == 0;
      *(side ? &an : &ab) += o >= 0;
      *(side ? &sn : &sb) += o == 1;
      *(side ? &tn : &tb) += tl;
      int j = 0;
      while (j < n_sc && strcmp(sc[j].status, s) != 0)
        j++;
      if (j == n_sc && n_sc < MAX_STATUS) sc[n_sc++] = (struct status_count){s, 0, 0};
      if (j < n_sc) *(side ? &sc[j].nn : &sc[j].nb) += 1;
    }
  }
  row->base = ab ? (double)sb / ab : NAN;
  row->now = an ? (double)sn / an : NAN;
  row->n_base = ab;
  row->n_now = an;
  size_t at = 0;
  int moved = 0;
  for (int pass = 0; pass < 2; pass++) { /* statuses that lost tasks, then those that gained */
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
  if (!ab || !an) return;
  if ((long)sn * ab < (long)sb * an) { /* fewer successes: wall-clock failures alone are time_limit */
    long other_b = ab - sb - tb, other_n = an - sn - tn;
    row->verdict = other_n * ab <= other_b * an && tn > tb ? COMPARE_TIME_LIMIT : COMPARE_REGRESSION;
  } else if ((long)sn * ab > (long)sb * an) {
    row->verdict = COMPARE_IMPROVED;
  } else {
    row->verdict = row->note[0] ? COMPARE_OK : COMPARE_SAME;
  }
}

/* A move beyond the tolerances that the measured spread allows (row->allowed) is "within spread". */
static void within_spread(struct compare_row *row)
{
  int moved = row->verdict == COMPARE_REGRESSION || row->verdict == COMPARE_IMPROVED;
  if (moved && isfinite(row->allowed) && fabs(row->now - row->base) <= row->allowed)
    row->verdict = COMPARE_SPREAD;
}

/* Trajectory outcomes over the pairs both runs solved: the move the measured spread allows the group's
 * median (spread_factor x the largest spread of its tasks), the pairs that moved beyond their own
 * allowance, and the one-sided signed-rank p-value of the differences for the worse (NAN when none
 * differs). */
static void outcome_evidence(const struct pairing *p, const struct rundir *b, const struct rundir *n,
                             const struct compare_options *o, double *scratch, struct compare_row *row)
{
  int cb = table_column(b->tasks, row->name), cn = table_column(n->tasks, row->name);
  int id = table_column(b->tasks, "task_id"), higher = rundir_list_find(&n->higher_better, row->name) >= 0;
  double largest = NAN;
  int m = 0, moved = 0;
  for (int k = 0; k < p->n; k++) {
    if (rundir_outcome(b, p->pb[k]) != 1 || rundir_outcome(n, p->pn[k]) != 1) continue;
    double x = table_number(b->tasks, p->pb[k], cb), y = table_number(n->tasks, p->pn[k], cn);
    if (!isfinite(x) || !isfinite(y)) continue;
    double s =
        o->spread && id >= 0 ? spread_of(o->spread, table_get(b->tasks, p->pb[k], id), row->name) : NAN;
    if (isfinite(s)) {
      largest = isnan(largest) ? s : fmax(largest, s);
      row->n_beyond += fabs(y - x) > o->spread_factor * s;
    }
    moved += y != x;
    scratch[m++] = higher ? x - y : y - x;
  }
  row->n_pairs = m;
  row->allowed = o->spread_factor * largest;
  row->p = moved ? compare_signed_rank_p(scratch, m) : NAN;
}

static void judge_metric(const struct rundir *n, const struct compare_options *o, struct compare_row *row,
                         double floor_v)
{
  double tol_rel = o->tol_rel;
  for (int j = 0; j < o->n_metric_tol; j++)
    if (strcmp(o->metric_tol_name[j], row->name) == 0) tol_rel = o->metric_tol[j];
  double b = row->base, v = row->now;
  if (floor_v > 0.0 && fabs(b) <= floor_v && fabs(v) <= floor_v) { /* noise: never a verdict */
    row->verdict = b == v ? COMPARE_SAME : COMPARE_FLOOR;
    return;
  }
  double tol = fmax(fmax(o->tol_abs, tol_rel * fabs(b)), floor_v);
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

/* Timings. vb holds the baseline's values in pair order (for the A-vs-A split), vn the new ones. */
static void judge_timing(const struct compare_options *o, double *vb, int nb, double *vn, int nn,
                         double *scratch, struct compare_row *row)
{
  double thr = o->time_ratio;
  if (o->interleaved) { /* A vs A: alternate baseline pairs against each other */
    int ne = 0, no = 0;
    for (int k = 0; k < nb; k++)
      if (k % 2 == 0) scratch[ne++] = vb[k];
    for (int k = 0; k < nb; k++)
      if (k % 2 == 1) scratch[ne + no++] = vb[k];
    sort_values(scratch, ne);
    sort_values(scratch + ne, no);
    double r = median_of(scratch, ne) / median_of(scratch + ne, no);
    row->spread = r >= 1.0 ? r : 1.0 / r;
    if (isfinite(row->spread) && row->spread > thr) thr = row->spread;
  }
  sort_values(vb, nb);
  sort_values(vn, nn);
  row->base = median_of(vb, nb);
  row->now = median_of(vn, nn);
  row->ratio = row->now / row->base;
  if (row->now == row->base) {
    row->verdict = COMPARE_SAME;
    return;
  }
  double up = compare_rank_sum_p(vb, nb, vn, nn), down = compare_rank_sum_p(vn, nn, vb, nb);
  row->verdict = COMPARE_OK;
  row->p = row->ratio >= 1.0 ? up : down;
  if (row->ratio > thr && up < o->alpha)
    row->verdict = o->interleaved ? COMPARE_REGRESSION : COMPARE_SLOWER;
  else if (row->ratio * thr < 1.0 && down < o->alpha)
    row->verdict = o->interleaved ? COMPARE_IMPROVED : COMPARE_FASTER;
}

/* The first group of the new run with the keys of baseline group g and not matched yet, or -1. */
static int match_group(const struct rundir *b, const struct rundir_groups *gb, int g, const struct rundir *n,
                       const struct rundir_groups *gn, const char *matched)
{
  for (int k = 0; k < gn->n; k++)
    if (!matched[k] && rundir_same_keys(b->tasks, gb->first[g], gb->key_col, n->tasks, gn->first[k],
                                        gn->key_col, gb->n_keys))
      return k;
  return -1;
}

/* 1 when every key value of baseline group g lies in the new run's sweep of that axis. */
static int group_in_sweep(const struct rundir *b, const struct rundir_groups *gb, int g,
                          const struct rundir *n)
{
  for (int k = 0; k < gb->n_keys; k++)
    if (!rundir_in_sweep(n, b->group.name[k], table_get(b->tasks, gb->first[g], gb->key_col[k]))) return 0;
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
                              .verdict = COMPARE_UNTESTED};
  return row;
}

/* The row of column name over the pairs of the current group: a metric against its tolerance and noise
 * floor, a count by ratio, a timing by ratio and rank-sum test (untested with fewer than min_repeats
 * values on a side). */
static void judge_value(struct compare_result *res, struct pairing *p, const struct rundir *b,
                        const struct rundir *n, const struct compare_options *o, double *scratch,
                        struct compare_row *row)
{
  const char *name = row->name;
  int nb, nn;
  pair_values(p, b, n, name, &nb, &nn);
  row->n_base = nb, row->n_now = nn;
  if (row->kind == COMPARE_COST && nb >= o->min_repeats && nn >= o->min_repeats) {
    judge_timing(o, p->vb, nb, p->vn, nn, scratch, row);
    return;
  }
  sort_values(p->vb, nb);
  sort_values(p->vn, nn);
  /* a share column (0/1 per task) is compared by its share: the median of 0s and 1s ignores any change
   * short of half the group */
  const int share = rundir_list_find(&n->shares, name) >= 0;
  row->base = share ? share_of(p->vb, nb) : median_of(p->vb, nb);
  row->now = share ? share_of(p->vn, nn) : median_of(p->vn, nn);
  if (row->kind != COMPARE_COST && spread_is_outcome(n, name)) outcome_evidence(p, b, n, o, scratch, row);
  if (row->kind == COMPARE_COST)
    res->n_untested_costs++;
  else if (row->kind == COMPARE_COUNT)
    judge_count(o, row);
  else /* the baseline's floor: a variant's looser solve tolerance does not loosen its own verdict */
    judge_metric(n, o, row, rundir_floor(b->floors.n ? b : n, name));
}

/* A success-rate drop no larger than the number of the group's tasks whose status the baseline's perturbed
 * runs changed: the outcome is as chaotic as the trajectory ("within spread"). */
static void success_within_spread(const struct rundir *b, const struct rundir_groups *gb, int g,
                                  const struct spread *sp, struct compare_row *row)
{
  int id = table_column(b->tasks, "task_id"), flips = 0;
  if (!sp || id < 0 || row->verdict != COMPARE_REGRESSION || row->n_base != row->n_now) return;
  for (int k = gb->start[g]; k < gb->start[g + 1]; k++)
    flips += spread_status_flips(sp, table_get(b->tasks, gb->rows[k], id)) > 0;
  double lost = (row->base - row->now) * row->n_base;
  row->allowed = flips / (double)row->n_base;
  if (lost <= flips + 1e-9) row->verdict = COMPARE_SPREAD;
}

/* The rows of baseline group g against the new run's group m: the success rate, then a row per metric and
 * cost. */
static void compare_group(struct compare_result *res, struct pairing *p, const struct rundir *b,
                          const struct rundir *n, const struct compare_options *o, double *scratch, int g,
                          int m)
{
  struct compare_row *row = new_row(res, g, m, "success_rate");
  row->kind = COMPARE_SUCCESS;
  judge_success(b, res->gb, g, n, res->gn, m, row);
  success_within_spread(b, res->gb, g, o->spread, row);
  pair_group(p, res->gb, g, res->gn, m);
  for (int k = 0; k < n->metrics.n + n->costs.n; k++) {
    int is_metric = k < n->metrics.n;
    row = new_row(res, g, m, is_metric ? n->metrics.name[k] : n->costs.name[k - n->metrics.n]);
    row->kind = is_metric                                      ? COMPARE_METRIC
                : rundir_list_find(&n->counts, row->name) >= 0 ? COMPARE_COUNT
                                                               : COMPARE_COST;
    judge_value(res, p, b, n, o, scratch, row);
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

int compare_runs(const struct rundir *b, const struct rundir *n, const struct compare_options *o,
                 struct compare_result **out)
{
  *out = NULL;
  if (check_compatible(b, n, o)) return 2;
  struct compare_result *res = calloc(1, sizeof *res);
  struct pairing p;
  char *matched = NULL;
  double *scratch = malloc(((size_t)b->tasks->nrow + 1) * sizeof *scratch);
  int rc = 2;
  if (pairing_init(&p, b, n) || !res || !scratch) goto oom;
  if (rundir_group(b, b->group.n, b->group.name, &res->gb) ||
      rundir_group(n, n->group.n, n->group.name, &res->gn))
    goto cleanup;
  struct rundir_groups *gb = res->gb, *gn = res->gn;
  int per_group = 1 + n->metrics.n + n->costs.n;
  res->rows = calloc((size_t)gb->n * per_group + 1, sizeof *res->rows);
  matched = calloc((size_t)gn->n + 1, 1);
  if (!res->rows || !matched) goto oom;
  for (int g = 0; g < gb->n; g++) {
    int m = match_group(b, gb, g, n, gn, matched);
    if (m < 0 && !group_in_sweep(b, gb, g, n)) { /* not asked for: a run of a few solvers, say */
      res->outside_sweep++;
      continue;
    }
    if (m < 0) { /* the new run lost this group: coverage */
      struct compare_row *row = new_row(res, g, m, "coverage");
      res->only_base++;
      row->kind = COMPARE_COVERAGE;
      row->base = 1.0;
      row->now = NAN;
      row->n_base = gb->start[g + 1] - gb->start[g];
      row->verdict = COMPARE_REGRESSION;
      continue;
    }
    matched[m] = 1;
    res->n_common++;
    compare_group(res, &p, b, n, o, scratch, g, m);
  }
  for (int k = 0; k < gn->n; k++)
    res->only_new += !matched[k];
  judge_shifts(res, o);
  count_verdicts(res);
  if (!res->n_common) {
    fprintf(stderr,
            "error: %s and %s have no group in common (group by %s: the sweeps cover different values; "
            "-map NEW_VALUE=BASE_VALUE judges a variant against what it replaces)\n",
            b->dir, n->dir, b->group.n ? "the axes in experiment.txt 'group'" : "nothing");
    goto cleanup;
  }
  *out = res;
  res = NULL;
  rc = 0;
  goto cleanup;
oom:
  fprintf(stderr, "error: out of memory comparing %s and %s\n", b->dir, n->dir);
cleanup:
  compare_result_destroy(&res);
  pairing_free(&p);
  free(matched);
  free(scratch);
  return rc;
}
