/* test_outcomes.c — the verdicts of trajectory outcomes and per-step quantities (compare.c, spread.c):
 * the one-sided Wilcoxon signed-rank p-value against values known by hand (exact counts of sign patterns),
 * against a brute-force enumeration of all 2^12 sign patterns, and in its normal approximation (with and
 * without ties) against the closed form; then two hand-made run directories: an outcome that moves within
 * spread_factor x its baseline's measured spread is "within spread", beyond it a regression; a per-step
 * residual judged against the baseline's floor (a looser floor in the new run does not help it); a group
 * whose solver the new run did not sweep is outside the sweep, not missing; a success-rate drop as large as
 * the status flips of the perturbed runs is within spread; a shift of every instance for the worse fails by
 * the paired test with its p-value; the Newcombe interval of a difference of shares against the paper's own
 * worked example. */
#include "check.h"
#include "compare.h"
#include "share.h"
#include "spread.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static void test_signed_rank_known(void)
{
  double five[] = {1, 2, 3, 4, 5};
  CHECK_CLOSE(compare_signed_rank_p(five, 5), 1.0 / 32.0, 1e-15, "all 5 positive: p = 2^-5");
  double ten[] = {-1, -2, 3, 4, 5, 6, 7, 8, 9, 10};
  CHECK_CLOSE(compare_signed_rank_p(ten, 10), 5.0 / 1024.0, 1e-15,
              "n = 10, W- = 3: subsets of 1..10 summing to <= 3 are 5 of 1024");
  double ties[] = {1, 1, -1, 2};
  CHECK_CLOSE(compare_signed_rank_p(ties, 4), 0.25, 1e-15,
              "ties: midranks 2,2,2,4, W+ = 8: 4 of 16 sign patterns reach it");
  double zeros[] = {0, 0, 1, 2, 3};
  CHECK_CLOSE(compare_signed_rank_p(zeros, 5), 1.0 / 8.0, 1e-15, "zero differences dropped: n = 3");
  double none[] = {0, 0, 0};
  CHECK_CLOSE(compare_signed_rank_p(none, 3), 1.0, 0, "nothing moved: p = 1");
  double down[] = {-1, -2, -3, -4, -5};
  CHECK_CLOSE(compare_signed_rank_p(down, 5), 1.0, 1e-15, "all negative: p = 1 (one-sided, for the worse)");
}

static void test_signed_rank_brute_force(void)
{
  double d[12] = {0.3, -1.2, 2.5, 0.7, -0.1, 1.9, 3.3, -2.2, 0.9, 1.4, -0.6, 2.8};
  double mag[12];
  int rank[12];
  for (int i = 0; i < 12; i++)
    mag[i] = fabs(d[i]);
  for (int i = 0; i < 12; i++) { /* distinct magnitudes: rank = 1 + number smaller */
    rank[i] = 1;
    for (int j = 0; j < 12; j++)
      rank[i] += mag[j] < mag[i];
  }
  int w = 0, reach = 0;
  for (int i = 0; i < 12; i++)
    w += d[i] > 0 ? rank[i] : 0;
  for (int mask = 0; mask < 4096; mask++) {
    int s = 0;
    for (int i = 0; i < 12; i++)
      s += (mask >> i & 1) ? rank[i] : 0;
    reach += s >= w;
  }
  CHECK_CLOSE(compare_signed_rank_p(d, 12), reach / 4096.0, 1e-15, "exact p equals the 2^12 enumeration");
}

static void test_signed_rank_normal(void)
{
  double d[60];
  for (int i = 0; i < 60; i++)
    d[i] = i + 1;
  /* W+ = 1830, mean 915, variance 60 61 121 / 24: z = 914.5 / sqrt(18452.5) */
  double p = compare_signed_rank_p(d, 60);
  CHECK(fabs(p / 8.35664284826328e-12 - 1.0) < 1e-6, "n = 60 all positive: normal approximation %g", p);
  for (int i = 0; i < 60; i++) { /* magnitudes 1..30 twice each, positive above 10: 30 tie pairs */
    int mag = i / 2 + 1;
    d[i] = mag > 10 ? mag : -mag;
  }
  p = compare_signed_rank_p(d, 60);
  CHECK(fabs(p / 1.0698269600155098e-07 - 1.0) < 1e-6, "n = 60 with ties: tie-corrected variance %g", p);
}

/* Newcombe (1998), Table II, example (a): 56/70 against 48/80, method 10 (hybrid score): 0.0524 to 0.3339;
 * 3/3 against 2/3 (one flipped trial of three) spans 0; 3/3 against 0/3 does not. */
static void test_share_difference(void)
{
  double lo, hi;
  share_difference(48, 80, 56, 70, &lo, &hi);
  CHECK(fabs(lo - 0.0524) < 5e-5 && fabs(hi - 0.3339) < 5e-5, "Newcombe's example (a): [%.4f, %.4f]", lo, hi);
  share_difference(3, 3, 2, 3, &lo, &hi);
  CHECK(lo < 0.0 && hi > 0.0, "3/3 -> 2/3: [%.4f, %.4f] contains 0", lo, hi);
  CHECK_CLOSE(lo, -0.7923403991979523, 1e-12, "3/3 -> 2/3: lower end");
  share_difference(3, 3, 0, 3, &lo, &hi);
  CHECK(lo == -1.0 && hi < -0.2, "3/3 -> 0/3: [%.4f, %.4f] below 0", lo, hi);
  share_difference(0, 0, 1, 2, &lo, &hi);
  CHECK(isnan(lo) && isnan(hi), "no trial on one side: no interval");
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

static const char experiment_base[] = "experiment toy\naxes solver,seed\ngroup solver\nmetrics err,resid\n"
                                      "costs rows_mean\ncounts rows_mean\nper_step resid\nfloors resid=1e-8\n"
                                      "values_solver a,b\nvalues_seed 0,1,2,3,4,5,6,7,8,9,10,11\n";
static const char experiment_new[] = "experiment toy\naxes solver,seed\ngroup solver\nmetrics err,resid\n"
                                     "costs rows_mean\ncounts rows_mean\nper_step resid\nfloors resid=1e-4\n"
                                     "values_solver a\nvalues_seed 0,1,2,3,4,5,6,7,8,9,10,11\n";

/* 12 seeds of solver a (ids 0..11) and of solver b (12..23); the new run has solver a only. err moves by
 * err_shift on every seed, rows_mean from 10 to 13 (spread 2), resid from 1e-9 to 1e-6 (above the
 * baseline's floor 1e-8, under the new run's 1e-4); task 0 ends with flip_status. */
static void write_runs(double err_shift, const char *flip_status)
{
  char base[4096] = "task_id,solver,seed,status,err,resid,rows_mean\n", now[4096], spread[4096];
  snprintf(now, sizeof now, "%s", base);
  snprintf(spread, sizeof spread, "task_id,runs,status_flips,err,rows_mean\n");
  for (int id = 0; id < 24; id++) {
    const char *solver = id < 12 ? "a" : "b";
    int seed = id % 12;
    double err = 1.0 + 0.01 * seed;
    size_t at = strlen(base);
    snprintf(base + at, sizeof base - at, "%d,%s,%d,ok,%.17g,1e-9,10\n", id, solver, seed, err);
    at = strlen(spread);
    snprintf(spread + at, sizeof spread - at, "%d,3,%d,0.1,2\n", id, id == 0);
    if (id >= 12) continue;
    at = strlen(now);
    snprintf(now + at, sizeof now - at, "%d,%s,%d,%s,%.17g,1e-6,13\n", id, solver, seed,
             id == 0 ? flip_status : "ok", err + err_shift);
  }
  write_file("base", "experiment.txt", experiment_base);
  write_file("base", "tasks.csv", base);
  write_file("base", "spread.csv", spread);
  write_file("new", "experiment.txt", experiment_new);
  write_file("new", "tasks.csv", now);
}

static void remove_spread(void)
{
  char path[160];
  snprintf(path, sizeof path, "%s/base/spread.csv", root);
  remove(path);
}

static const struct compare_row *row_of(const struct compare_result *res, const char *name)
{
  for (int i = 0; i < res->n_rows; i++)
    if (strcmp(res->rows[i].name, name) == 0) return &res->rows[i];
  return NULL;
}

/* Compares base with new; the rows of err, resid, rows_mean and success_rate into the checks. */
static void compare_case(double err_shift, const char *flip_status, double shift_alpha, int expect_err,
                         int expect_rows)
{
  struct rundir *b = NULL, *n = NULL;
  struct spread *sp = NULL;
  struct compare_result *res = NULL;
  char pb[128], pn[128];
  write_runs(err_shift, flip_status);
  snprintf(pb, sizeof pb, "%s/base", root);
  snprintf(pn, sizeof pn, "%s/new", root);
  if (!CHECK(rundir_read(pb, &b) == 0 && rundir_read(pn, &n) == 0 && spread_read(pb, &sp) == 0, "runs read"))
    goto done;
  struct compare_options o = {.tol_rel = 0.01,
                              .time_ratio = 1.2,
                              .alpha = 0.05,
                              .min_repeats = 5,
                              .count_ratio = 1.05,
                              .spread = sp,
                              .spread_factor = 3,
                              .shift_alpha = shift_alpha};
  if (!CHECK(compare_runs(b, n, &o, &res) == 0, "compared")) goto done;
  CHECK(res->outside_sweep == 1 && res->only_base == 0, "solver b: outside the new run's sweep, not missing");
  const struct compare_row *err = row_of(res, "err"), *resid = row_of(res, "resid");
  const struct compare_row *rows = row_of(res, "rows_mean"), *succ = row_of(res, "success_rate");
  if (!err || !resid || !rows || !succ) {
    CHECK(0, "rows of err, resid, rows_mean and success_rate present");
    goto done;
  }
  CHECK(err->verdict == (enum compare_verdict)expect_err, "err verdict %s",
        compare_verdict_name(err->verdict));
  CHECK_CLOSE(err->allowed, 0.3, 1e-15, "err: allowed move = 3 x the largest spread 0.1");
  CHECK(resid->verdict == COMPARE_REGRESSION, "resid 1e-9 -> 1e-6 against the baseline's floor 1e-8: %s",
        compare_verdict_name(resid->verdict));
  CHECK(rows->verdict == (enum compare_verdict)expect_rows,
        "rows_mean 10 -> 13 (ratio beyond, 3 x 2 allows it): %s", compare_verdict_name(rows->verdict));
  if (strcmp(flip_status, "ok") != 0)
    CHECK(succ->verdict == COMPARE_SPREAD, "one failure where the perturbed runs flipped one status: %s",
          compare_verdict_name(succ->verdict));
done:
  compare_result_destroy(&res);
  spread_destroy(&sp);
  rundir_destroy(&b);
  rundir_destroy(&n);
}

/* Ten groups of two instances, every instance 2 % worse (beyond tol_rel 1 %) and no spread.csv: no group's
 * signed-rank test can say it (p = 1/4 each), the pooled sign test over the 20 pairs does (p = 2^-20), at
 * a family level of 0.01 over the 21 tests. With every other instance better instead, the pooled test is
 * not evidence (p = 0.59). */
static void pooled_case(int alternate)
{
  static const char exp_text[] = "experiment toy\naxes solver,seed\ngroup solver\nmetrics err\n"
                                 "values_solver s0,s1,s2,s3,s4,s5,s6,s7,s8,s9\nvalues_seed 0,1\n";
  char base[2048] = "task_id,solver,seed,status,err\n", now[2048];
  snprintf(now, sizeof now, "%s", base);
  for (int id = 0; id < 20; id++) {
    size_t at = strlen(base);
    snprintf(base + at, sizeof base - at, "%d,s%d,%d,ok,1\n", id, id / 2, id % 2);
    at = strlen(now);
    snprintf(now + at, sizeof now - at, "%d,s%d,%d,ok,%g\n", id, id / 2, id % 2,
             alternate && id % 2 ? 0.98 : 1.02);
  }
  write_file("base", "experiment.txt", exp_text);
  write_file("base", "tasks.csv", base);
  write_file("new", "experiment.txt", exp_text);
  write_file("new", "tasks.csv", now);
  char pb[128], pn[128];
  snprintf(pb, sizeof pb, "%s/base", root);
  snprintf(pn, sizeof pn, "%s/new", root);
  struct rundir *b = NULL, *n = NULL;
  struct compare_result *res = NULL;
  struct compare_options o = {.tol_rel = 0.01,
                              .time_ratio = 1.2,
                              .alpha = 0.05,
                              .min_repeats = 5,
                              .count_ratio = 1.2,
                              .shift_alpha = 0.01};
  if (CHECK(rundir_read(pb, &b) == 0 && rundir_read(pn, &n) == 0 && compare_runs(b, n, &o, &res) == 0,
            "pooled: runs read and compared")) {
    const struct compare_row *pooled = NULL;
    int group_shift = 0;
    for (int i = 0; i < res->n_rows; i++) {
      if (res->rows[i].group < 0)
        pooled = &res->rows[i];
      else
        group_shift |= res->rows[i].shift;
    }
    CHECK(res->n_shift_tests == 11 && !group_shift,
          "pooled: 10 group tests and the pooled one, no group shifts");
    if (CHECK(pooled != NULL, "pooled: a row over every group")) {
      CHECK(pooled->n_pairs == 20 && pooled->n_beyond == (alternate ? 10 : 20),
            "pooled: %d of %d pairs worse", pooled->n_beyond, pooled->n_pairs);
      if (alternate)
        CHECK(!pooled->shift && fabs(pooled->p - 0.5880985260009766) < 1e-12, "pooled: half worse, p = %g",
              pooled->p);
      else
        CHECK(pooled->shift && fabs(pooled->p - 1.0 / 1048576.0) < 1e-18 &&
                  pooled->verdict == COMPARE_REGRESSION,
              "pooled: every pair worse, p = 2^-20, a regression (%s)",
              compare_verdict_name(pooled->verdict));
    }
  }
  compare_result_destroy(&res);
  rundir_destroy(&b);
  rundir_destroy(&n);
}

int main(void)
{
  test_signed_rank_known();
  test_signed_rank_brute_force();
  test_signed_rank_normal();
  test_share_difference();
  snprintf(root, sizeof root, "/tmp/cb_test_outcomes.XXXXXX");
  if (!mkdtemp(root)) return 1;
  char sub[128];
  snprintf(sub, sizeof sub, "%s/base", root);
  mkdir(sub, 0700);
  snprintf(sub, sizeof sub, "%s/new", root);
  mkdir(sub, 0700);
  /* +0.05 on every seed (11 pairs both solved when seed 0 failed): within the spread; the signed-rank
   * p = 2^-11 or 2^-12 does not fail it at a family level of 1e-9, at 0.01 over the 2 tests it does */
  compare_case(0.05, "crashed", 1e-9, COMPARE_SPREAD, COMPARE_SPREAD);
  compare_case(0.05, "ok", 0.01, COMPARE_REGRESSION, COMPARE_REGRESSION);
  compare_case(0.5, "ok", 1e-9, COMPARE_REGRESSION, COMPARE_SPREAD); /* err beyond 3 x the spread */
  compare_case(0.0, "ok", 0.01, COMPARE_SAME, COMPARE_REGRESSION);
  remove_spread();
  pooled_case(0);
  pooled_case(1);
  const char *files[] = {"base/experiment.txt", "base/tasks.csv", "base/spread.csv", "new/experiment.txt",
                         "new/tasks.csv"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[160];
    snprintf(path, sizeof path, "%s/%s", root, files[i]);
    remove(path);
  }
  snprintf(sub, sizeof sub, "%s/base", root);
  rmdir(sub);
  snprintf(sub, sizeof sub, "%s/new", root);
  rmdir(sub);
  rmdir(root);
  return check_finish();
}
