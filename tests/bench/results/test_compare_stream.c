/* test_compare_stream.c — bench_compare's verdicts of a group pair judged from the sorted stream
 * (compare_stream.c, a budget of one byte: every group streamed, its sort spilled to disk in many chunks)
 * against the same pair held in memory (compare.c): every row identical to the last bit — medians, shares
 * and their Newcombe intervals, the success rate with its status change and the perturbed runs' flips, the
 * signed-rank p-values of outcomes with tied and zero differences in the exact (up to 50 nonzero) and the
 * normal regime, the spread each allows and the pairs beyond it, counts, timings with the rank-sum test and
 * the A-vs-A halves of interleaved runs, and the pooled sign test. Then a signed-rank p-value and a median
 * against the values recomputed here from the generating formulas. */
#include "check.h"
#include "compare.h"
#include "spread.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static const char experiment[] = "experiment toy\naxes solver,seed\ngroup solver\nmetrics err,resid,hit\n"
                                 "costs iters,cost_seconds\ncounts iters\nper_step resid\nshares hit\n"
                                 "floors resid=1e-8\n";

enum { N_GROUPS = 3 };
static const int group_seeds[N_GROUPS] = {40, 400, 30}; /* a: exact test, b: normal, c: nothing moves */

/* err of a seed (integers: tied magnitudes are exact) and its move in the new run (group c: none). */
static double err_of(int seed) { return 10.0 + seed % 7; }
static double err_move(int g, int seed)
{
  static const double moves[6] = {0.0, 1.0, -1.0, 2.0, 1.0, 0.0};
  return g == 2 ? 0.0 : moves[seed % 6];
}
static const char *status_of(int side, int seed)
{
  if (seed % 11 == 3) return side ? "max_iterations" : "ok";
  if (seed % 13 == 5) return side ? "ok" : "max_iterations";
  return seed % 17 == 8 && side ? "time_limit" : "ok";
}

static void write_file(const char *sub, const char *name, const char *text)
{
  char path[160];
  snprintf(path, sizeof path, "%s/%s/%s", root, sub, name);
  FILE *fp = fopen(path, "w");
  if (fp) {
    fputs(text, fp);
    fclose(fp);
  }
}

/* Appends a formatted line to the growing text *t. */
static void put(char **t, size_t *len, const char *fmt, double a, double b, double c, double d)
{
  char line[256];
  int n = snprintf(line, sizeof line, fmt, a, b, c, d);
  char *x = realloc(*t, *len + (size_t)n + 1);
  if (!x) return;
  memcpy(x + *len, line, (size_t)n + 1);
  *t = x, *len += (size_t)n;
}

static void write_runs(void)
{
  char *text[3] = {NULL, NULL, NULL};
  size_t len[3] = {0, 0, 0};
  for (int side = 0; side < 2; side++)
    put(&text[side], &len[side], "task_id,solver,seed,status,err,resid,hit,iters,cost_seconds\n", 0, 0, 0, 0);
  put(&text[2], &len[2], "task_id,runs,status_flips,err,iters\n", 0, 0, 0, 0);
  int id = 0;
  for (int g = 0; g < N_GROUPS; g++)
    for (int s = 0; s < group_seeds[g]; s++, id++) {
      for (int side = 0; side < 2; side++) {
        char fmt[160];
        snprintf(fmt, sizeof fmt, "%d,%c,%d,%s,%%.17g,%%.17g,%%g,%%g,", id, 'a' + g, s, status_of(side, s));
        double err = err_of(s) + (side ? err_move(g, s) : 0.0), hit = (s * 7 + side * (s % 3 == 0)) % 2;
        put(&text[side], &len[side], fmt, err, 1e-9 * (1 + s % 4), hit, 10 + s % 5 + side * (s % 2));
        /* costs: ties (a set of 9 values), the new run 10 % slower on two seeds of three */
        put(&text[side], &len[side], "%.17g\n", 0.01 * (1 + s % 9) * (side && s % 3 ? 1.1 : 1.0), 0, 0, 0);
      }
      char fmt[80];
      snprintf(fmt, sizeof fmt, "%d,3,%d,%%g,%%g\n", id, s % 19 == 4);
      put(&text[2], &len[2], fmt, 0.25 * (s % 3), 1.0, 0, 0);
    }
  write_file("base", "experiment.txt", experiment);
  write_file("new", "experiment.txt", experiment);
  write_file("base", "tasks.csv", text[0]);
  write_file("new", "tasks.csv", text[1]);
  write_file("base", "spread.csv", text[2]);
  for (int k = 0; k < 3; k++)
    free(text[k]);
}

/* Two doubles the same to the bit (NaN equal to NaN). */
static int same(double a, double b)
{
  uint64_t x, y;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  return (isnan(a) && isnan(b)) || x == y;
}

static int same_row(const struct compare_row *x, const struct compare_row *y)
{
  return x->group == y->group && x->kind == y->kind && strcmp(x->name, y->name) == 0 &&
         same(x->base, y->base) && same(x->now, y->now) && x->n_base == y->n_base && x->n_now == y->n_now &&
         same(x->ratio, y->ratio) && same(x->p, y->p) && same(x->spread, y->spread) &&
         same(x->allowed, y->allowed) && x->n_beyond == y->n_beyond && x->n_pairs == y->n_pairs &&
         x->shift == y->shift && x->share == y->share && same(x->diff_lo, y->diff_lo) &&
         same(x->diff_hi, y->diff_hi) && x->verdict == y->verdict && strcmp(x->note, y->note) == 0;
}

/* The rows' names point into the new run's header: kept until the end (runs). */
static struct rundir *runs[4];
static int n_runs;

static int compare_with(size_t budget, struct compare_result **res)
{
  char pb[128], pn[128];
  snprintf(pb, sizeof pb, "%s/base", root);
  snprintf(pn, sizeof pn, "%s/new", root);
  struct rundir *b = NULL, *n = NULL;
  struct spread *sp = NULL;
  struct compare_options o = {.tol_rel = 0.01,
                              .time_ratio = 1.05,
                              .alpha = 0.05,
                              .min_repeats = 5,
                              .count_ratio = 1.05,
                              .interleaved = 1,
                              .spread_factor = 3,
                              .shift_alpha = 0.01,
                              .sort_bytes = budget};
  int rc = rundir_read_header(pb, &b) || rundir_read_header(pn, &n) || spread_read(pb, &sp) != 0;
  o.spread = sp;
  if (!rc) rc = compare_runs(b, n, &o, res);
  spread_destroy(&sp);
  runs[n_runs++] = b, runs[n_runs++] = n;
  return rc;
}

static const struct compare_row *find(const struct compare_result *r, int g, const char *name)
{
  for (int i = 0; i < r->n_rows; i++)
    if (r->rows[i].group == g && strcmp(r->rows[i].name, name) == 0) return &r->rows[i];
  return NULL;
}

/* The paired differences of err in group g over the seeds both runs solved, and their median in the base. */
static double err_p(int g)
{
  double d[512];
  int m = 0;
  for (int s = 0; s < group_seeds[g]; s++)
    if (strcmp(status_of(0, s), "ok") == 0 && strcmp(status_of(1, s), "ok") == 0) d[m++] = err_move(g, s);
  return compare_signed_rank_p(d, m);
}

static void test_streamed_equals_held(void)
{
  struct compare_result *held = NULL, *streamed = NULL;
  if (!CHECK(compare_with((size_t)1 << 30, &held) == 0 && compare_with(1, &streamed) == 0 && held && streamed,
             "compared in memory and streamed") ||
      !held || !streamed)
    goto done;
  CHECK(held->n_rows == streamed->n_rows && held->n_rows == N_GROUPS * 6 + 2,
        "the same number of rows: %d and %d (6 per group and 2 pooled)", held->n_rows, streamed->n_rows);
  int differ = 0;
  for (int i = 0; i < held->n_rows && i < streamed->n_rows; i++)
    if (!same_row(&held->rows[i], &streamed->rows[i])) {
      differ++;
      CHECK(0, "row %d (group %d, %s) differs: %s p=%.17g vs %s p=%.17g", i, held->rows[i].group,
            held->rows[i].name, compare_verdict_name(held->rows[i].verdict), held->rows[i].p,
            compare_verdict_name(streamed->rows[i].verdict), streamed->rows[i].p);
    }
  CHECK(!differ, "every row identical to the bit");
  CHECK(held->n_regressions == streamed->n_regressions && held->n_improved == streamed->n_improved &&
            held->n_within_spread == streamed->n_within_spread &&
            held->n_shift_tests == streamed->n_shift_tests &&
            held->n_untested_costs == streamed->n_untested_costs &&
            held->n_time_limit == streamed->n_time_limit,
        "the same tallies (%d regressions, %d within spread, %d paired tests)", streamed->n_regressions,
        streamed->n_within_spread, streamed->n_shift_tests);
  /* what is being compared is not trivial: the paths ran into ties, zeros, both regimes and timings */
  const struct compare_row *ea = find(streamed, 0, "err"), *eb = find(streamed, 1, "err"),
                           *ec = find(streamed, 2, "err"), *cs = find(streamed, 1, "cost_seconds"),
                           *hit = find(streamed, 1, "hit"), *succ = find(streamed, 1, "success_rate");
  if (!CHECK(ea && eb && ec && cs && hit && succ, "rows present") || !ea || !eb || !ec || !cs || !hit ||
      !succ)
    goto done;
  CHECK(same(ea->p, err_p(0)) && ea->n_pairs < 50, "group a (exact test): p %.17g = %.17g recomputed", ea->p,
        err_p(0));
  CHECK(same(eb->p, err_p(1)) && eb->n_pairs > 300,
        "group b (normal approximation, %d pairs): p %.17g = %.17g", eb->n_pairs, eb->p, err_p(1));
  CHECK(isnan(ec->p) && ec->verdict == COMPARE_SAME, "group c: nothing moved, no test (%s)",
        compare_verdict_name(ec->verdict));
  CHECK(isfinite(cs->p) && isfinite(cs->spread) && cs->n_base > 300, "timing with a rank-sum p %g, A/A x%g",
        cs->p, cs->spread);
  CHECK(hit->share && isfinite(hit->diff_lo), "share column by its Newcombe interval");
  CHECK(succ->note[0] && isfinite(succ->allowed), "success rate with status change '%s' and flips",
        succ->note);
  CHECK(find(streamed, -1, "err") != NULL, "the pooled sign test over the groups");
done:
  compare_result_destroy(&held);
  compare_result_destroy(&streamed);
  while (n_runs > 0)
    rundir_destroy(&runs[--n_runs]);
}

int main(void)
{
  snprintf(root, sizeof root, "/tmp/cb_test_compare_stream.XXXXXX");
  if (!mkdtemp(root)) return 1;
  char sub[128];
  const char *subs[] = {"base", "new"};
  for (int k = 0; k < 2; k++) {
    snprintf(sub, sizeof sub, "%s/%s", root, subs[k]);
    mkdir(sub, 0700);
  }
  write_runs();
  test_streamed_equals_held();
  const char *files[] = {"base/experiment.txt",
                         "base/tasks.csv",
                         "base/spread.csv",
                         "new/experiment.txt",
                         "new/tasks.csv",
                         "base",
                         "new",
                         ""};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(sub, sizeof sub, "%s/%s", root, files[i]);
    remove(sub);
  }
  return check_finish();
}
