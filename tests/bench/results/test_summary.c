/* test_summary.c — sweep_summarize on a hand-made run directory (bench/engine/summary.c, rundir.c):
 * GSL quartiles of known values (odd and even counts), success rates with not_applicable left out and a
 * group with nothing applicable, NaN / inf / empty metric values skipped, cost medians over successes and
 * totals over every row, groups in order of first appearance (not sorted) with 0.1 and 1e-1 one group,
 * summary.md's failure line and table; rundir_read refusing a missing file or a missing column; and the
 * one-sided rank-sum p-values of bench_compare (compare.c) against hand-computed values; the "floors" and
 * "counts" keys, nan / inf cells accepted as numbers by the corrupt-table check, and a run compared with
 * itself (every group common, nothing regressed, the time_limit row out of the metric medians). */
#include "check.h"
#include "compare.h"
#include "engine/sweep.h"
#include "rundir.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static void write_file(const char *name, const char *text)
{
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "w");
  if (fp) {
    fputs(text, fp);
    fclose(fp);
  }
}

static char *read_all(const char *name)
{
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "r");
  if (!fp) return NULL;
  char *buf = calloc(1 << 16, 1);
  if (buf) buf[fread(buf, 1, (1 << 16) - 1, fp)] = '\0';
  fclose(fp);
  return buf;
}

static const char experiment[] = "experiment toy\n"
                                 "title toy run for the summary test\n"
                                 "axes method,h,seed\n"
                                 "group method,h\n"
                                 "metrics err,resid\n"
                                 "higher_better resid\n"
                                 "costs cost_seconds\n"
                                 "info note\n"
                                 "plot_x h\n"
                                 "series method\n"
                                 "log_x 1\n"
                                 "options -method zeta,alpha -h 0.1,0.2\n"
                                 "units h=s,cost_seconds=s\n";

/* Groups in order of first appearance: (zeta, 0.1), (alpha, 0.1), (zeta, 0.2), (alpha, 0.2).
 * (zeta, 0.1): err 1..5 over successes (one written as h = 1e-1), a not_applicable row (err 100, cost 7);
 * (alpha, 0.1): err 4 1 3 2 (even count), a time_limit row (err 0.5), a success with no err and resid
 *               nan / inf on two successes; (zeta, 0.2): two crashes; (alpha, 0.2): two not_applicable. */
static const char tasks[] =
    "task_id,method,h,seed,status,err,resid,note,cost_seconds,task_seconds,rank,host\n"
    "0,zeta,0.1,0,ok,3,1e-9,,3,0.1,0,vm\n"
    "1,zeta,0.1,1,ok,1,2e-9,,1,0.1,0,vm\n"
    "2,alpha,0.1,0,ok,4,nan,,10,0.1,1,vm\n"
    "3,zeta,1e-1,2,converged,5,3e-9,,5,0.1,0,vm\n"
    "4,alpha,0.1,1,converged,1,inf,,20,0.1,1,vm\n"
    "5,zeta,0.1,3,ok,2,4e-9,,2,0.1,0,vm\n"
    "6,zeta,0.1,4,not_applicable,100,,,7,0.1,0,vm\n"
    "7,alpha,0.1,2,ok,3,5e-9,,30,0.1,1,vm\n"
    "8,alpha,0.1,3,ok,2,6e-9,,40,0.1,1,vm\n"
    "9,alpha,0.1,4,time_limit,0.5,1e-12,,,0.1,1,vm\n"
    "10,alpha,0.1,5,ok,,7e-9,,50,0.1,1,vm\n"
    "11,zeta,0.1,5,ok,4,8e-9,,4,0.1,0,vm\n"
    "12,zeta,0.2,0,crashed,,,,,0.1,0,vm\n"
    "13,alpha,0.2,0,not_applicable,,,,,0.1,0,vm\n"
    "14,zeta,0.2,1,crashed,,,,,0.1,0,vm\n"
    "15,alpha,0.2,1,not_applicable,,,,,0.1,0,vm\n";

static double field(const struct table *t, int row, const char *col)
{
  int j = table_column(t, col);
  return j < 0 ? NAN : table_number(t, row, j);
}

static void test_summary(void)
{
  write_file("experiment.txt", experiment);
  write_file("tasks.csv", tasks);
  CHECK(sweep_summarize(dir) == 0, "sweep_summarize succeeds");
  char path[128];
  snprintf(path, sizeof path, "%s/summary.csv", dir);
  struct table *s = NULL;
  if (!CHECK(table_read(path, TABLE_STRICT, &s) == 0, "summary.csv reads back")) return;
  const char *want_cols[] = {"method",
                             "h",
                             "count",
                             "applicable",
                             "successes",
                             "success_rate",
                             "err_median",
                             "err_q1",
                             "err_q3",
                             "resid_median",
                             "resid_q1",
                             "resid_q3",
                             "cost_seconds_median",
                             "cost_seconds_total"};
  int cols_ok = s->ncol == 14;
  for (int j = 0; cols_ok && j < 14; j++)
    cols_ok = strcmp(s->col[j], want_cols[j]) == 0;
  CHECK(cols_ok, "summary.csv columns: group, counts, metric quartiles, cost median and total");
  CHECK(s->nrow == 4, "four groups (0.1 and 1e-1 are one)");
  if (s->nrow != 4) goto cleanup;
  const char *order[4][2] = {{"zeta", "0.1"}, {"alpha", "0.1"}, {"zeta", "0.2"}, {"alpha", "0.2"}};
  int order_ok = 1;
  for (int i = 0; i < 4; i++)
    order_ok &= strcmp(table_get(s, i, 0), order[i][0]) == 0 && strcmp(table_get(s, i, 1), order[i][1]) == 0;
  CHECK(order_ok, "groups in order of first appearance (zeta before alpha)");
  /* (zeta, 0.1): 1..5 -> median 3, quartiles 2 and 4 (GSL: linear between order statistics) */
  CHECK_CLOSE(field(s, 0, "count"), 6, 0, "zeta 0.1: 6 rows");
  CHECK_CLOSE(field(s, 0, "applicable"), 5, 0, "zeta 0.1: not_applicable left out");
  CHECK_CLOSE(field(s, 0, "success_rate"), 1.0, 0, "zeta 0.1: success rate 5/5");
  CHECK_CLOSE(field(s, 0, "err_median"), 3.0, 1e-15, "zeta 0.1: err median");
  CHECK_CLOSE(field(s, 0, "err_q1"), 2.0, 1e-15, "zeta 0.1: err q1");
  CHECK_CLOSE(field(s, 0, "err_q3"), 4.0, 1e-15, "zeta 0.1: err q3");
  CHECK_CLOSE(field(s, 0, "resid_median"), 3e-9, 1e-24, "zeta 0.1: resid median");
  CHECK_CLOSE(field(s, 0, "cost_seconds_median"), 3.0, 1e-15, "zeta 0.1: cost median over successes");
  CHECK_CLOSE(field(s, 0, "cost_seconds_total"), 22.0, 1e-15, "zeta 0.1: cost total over all rows (15 + 7)");
  /* (alpha, 0.1): err {1,2,3,4} -> median 2.5, q1 1.75, q3 3.25; time_limit's 0.5 and the empty err ignored
   */
  CHECK_CLOSE(field(s, 1, "success_rate"), 5.0 / 6.0, 1e-15, "alpha 0.1: success rate 5/6");
  CHECK_CLOSE(field(s, 1, "err_median"), 2.5, 1e-15, "alpha 0.1: err median of an even count");
  CHECK_CLOSE(field(s, 1, "err_q1"), 1.75, 1e-15, "alpha 0.1: err q1");
  CHECK_CLOSE(field(s, 1, "err_q3"), 3.25, 1e-15, "alpha 0.1: err q3");
  CHECK_CLOSE(field(s, 1, "resid_median"), 6e-9, 1e-24, "alpha 0.1: nan and inf resid skipped ({5,6,7}e-9)");
  CHECK_CLOSE(field(s, 1, "cost_seconds_median"), 30.0, 1e-15, "alpha 0.1: cost median");
  CHECK_CLOSE(field(s, 1, "cost_seconds_total"), 150.0, 1e-15, "alpha 0.1: cost total (empty cost skipped)");
  /* (zeta, 0.2): all crashed; (alpha, 0.2): nothing applicable */
  CHECK(field(s, 2, "success_rate") == 0.0 && isnan(field(s, 2, "err_median")) &&
            isnan(field(s, 2, "cost_seconds_total")),
        "zeta 0.2: rate 0, no medians, no cost total");
  CHECK(field(s, 3, "applicable") == 0.0 && strcmp(table_get(s, 3, table_column(s, "success_rate")), "") == 0,
        "alpha 0.2: no applicable task, success_rate empty");
  char *md = read_all("summary.md");
  CHECK(md && strstr(md, "# toy run for the summary test"), "summary.md has the title");
  CHECK(md && strstr(md, "Failures: 3 of 13 applicable tasks (1 time_limit, 2 crashed)"),
        "summary.md counts failures by status");
  CHECK(md && strstr(md, "3 not_applicable tasks are left out"), "summary.md counts not_applicable");
  CHECK(md && strstr(md, "| h [s] |") && strstr(md, "cost_seconds [s]"), "summary.md headers carry units");
  CHECK(md && strstr(md, "5/6") && strstr(md, "n/a") && strstr(md, "2.5"), "summary.md rows: 5/6, n/a, 2.5");
  CHECK(md && strstr(md, "Higher is better for resid; lower for the other metrics."),
        "summary.md says which metrics are higher-is-better");
  if (md) {
    const char *z = strstr(md, "| zeta   | 0.1"), *a = strstr(md, "| alpha  | 0.1");
    CHECK(z && a && z < a, "summary.md rows in group order");
  }
  free(md);
cleanup:
  table_destroy(&s);
}

static void test_bad_dirs(void)
{
  struct rundir *r = NULL;
  write_file("experiment.txt", experiment);
  char path[128];
  snprintf(path, sizeof path, "%s/tasks.csv", dir);
  remove(path);
  CHECK(rundir_read(dir, &r) == 2 && !r, "missing tasks.csv: status 2");
  CHECK(sweep_summarize(dir) == 2, "sweep_summarize on it: 2");
  write_file("tasks.csv", "task_id,method,h,seed,status,err,note,cost_seconds,task_seconds,rank,host\n");
  CHECK(rundir_read(dir, &r) == 2 && !r, "a metric without its column: status 2");
  write_file("experiment.txt", "experiment toy\naxes method,h,seed\ngroup method,h\nmetrics err\n"
                               "higher_better resid\n");
  write_file("tasks.csv", "task_id,method,h,seed,status,err,resid\n");
  CHECK(rundir_read(dir, &r) == 2 && !r, "higher_better naming a column that is not a metric: status 2");
  write_file("experiment.txt", "title no experiment key\naxes a\n");
  CHECK(rundir_read(dir, &r) == 2 && !r, "experiment.txt without required keys: status 2");
  CHECK(rundir_read("/nonexistent/run", &r) == 2 && !r, "missing directory: status 2");
}

static void test_rank_sum(void)
{
  /* values computed by hand: ranks with midranks for ties, U = R_y - n_y (n_y + 1) / 2,
   * var = n_x n_y / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))), z = (U - n_x n_y / 2 - 1/2) / sqrt(var) */
  double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10};
  CHECK_CLOSE(compare_rank_sum_p(a, 5, b, 5), 0.006092890177672409, 1e-12, "rank sum: separated samples");
  double x[] = {1, 2, 2, 3, 3}, y[] = {2, 3, 3, 4, 5};
  CHECK_CLOSE(compare_rank_sum_p(x, 5, y, 5), 0.06318969380425776, 1e-12,
              "rank sum: ties (U = 20, var 20.97)");
  CHECK_CLOSE(compare_rank_sum_p(y, 5, x, 5), 0.9596725582404355, 1e-12, "rank sum: the other direction");
  double c[] = {1.0, 1.1, 0.9, 1.05, 0.95}, d[] = {1.3, 1.4, 1.2, 1.35, 1.25, 1.5};
  CHECK_CLOSE(compare_rank_sum_p(c, 5, d, 6), 0.004056558632782891, 1e-12, "rank sum: unequal sizes");
  double e[] = {2, 2, 2, 2, 2};
  CHECK_CLOSE(compare_rank_sum_p(e, 5, e, 5), 1.0, 0, "rank sum: all tied -> p = 1");
}

static void test_floors_and_self_compare(void)
{
  char exp_floors[sizeof experiment + 64];
  snprintf(exp_floors, sizeof exp_floors, "%sfloors resid=1e-8,err=0.5\ncounts cost_seconds\n", experiment);
  write_file("experiment.txt", exp_floors);
  write_file("tasks.csv", tasks);
  struct rundir *r = NULL, *r2 = NULL;
  struct compare_result *res = NULL;
  if (!CHECK(rundir_read(dir, &r) == 0 && rundir_read(dir, &r2) == 0, "run with floors and counts reads"))
    goto cleanup;
  CHECK_CLOSE(rundir_floor(r, "resid"), 1e-8, 0, "floor of resid");
  CHECK_CLOSE(rundir_floor(r, "err"), 0.5, 0, "floor of err");
  CHECK_CLOSE(rundir_floor(r, "cost_seconds"), 0.0, 0, "no floor declared: 0");
  CHECK(rundir_list_find(&r->counts, "cost_seconds") == 0, "counts list");
  CHECK(compare_check_table(r) == 0, "nan and inf cells are numbers, empty cells unset: not corrupt");
  struct compare_options o = {
      .tol_rel = 0.01, .time_ratio = 1.2, .alpha = 0.05, .min_repeats = 5, .count_ratio = 1.2};
  if (!CHECK(compare_runs(r, r2, &o, &res) == 0, "a run compared with itself")) goto cleanup;
  CHECK(res->n_common == 4 && res->only_base == 0 && res->only_new == 0, "every group common");
  CHECK(res->n_regressions == 0 && res->n_improved == 0 && !compare_failed(res, &o), "nothing moved");
  int err_n = -1;
  for (int i = 0; i < res->n_rows; i++)
    if (res->rows[i].group == 1 && strcmp(res->rows[i].name, "err") == 0) err_n = res->rows[i].n_base;
  CHECK(err_n == 4, "alpha 0.1: err over the 4 pairs both solved with a value (time_limit row left out)");
cleanup:
  compare_result_destroy(&res);
  rundir_destroy(&r);
  rundir_destroy(&r2);
}

int main(void)
{
  snprintf(dir, sizeof dir, "/tmp/cb_test_summary.XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_summary();
  test_bad_dirs();
  test_rank_sum();
  test_floors_and_self_compare();
  const char *files[] = {"experiment.txt", "tasks.csv", "summary.csv", "summary.md"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    remove(path);
  }
  rmdir(dir);
  return check_finish();
}
