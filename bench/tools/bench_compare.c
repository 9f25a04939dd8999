/* NAME    bench_compare — regression verdicts: a new run directory against a baseline (design.md contract
 * 10). PURPOSE for every group of the baseline: coverage (a group the new run lacks is a regression), the
 * success rate with its status changes (a drop made of time_limit tasks only is verdict time_limit, which
 * fails only with -fail_time_limit), shares (0/1 columns) by the Newcombe interval of their difference,
 * accuracy medians against tolerances and noise floors, counts
 * (iterations) by ratio, and timings by ratio of medians AND a one-sided Wilcoxon rank-sum / Mann-Whitney U
 * test — verdicts only for runs timed interleaved (-interleaved, as bench/ab runs them), evidence
 * ("slower?") otherwise. Metrics, counts and timings use the tasks both runs solved. Rules in compare.h.
 * USAGE   bench_compare BASELINE_DIR NEW_DIR [-map new=base,...] [-tol_rel r] [-tol_abs a]
 *         [-metric_tol name=r,...] [-count_ratio x] [-time_ratio x] [-alpha p] [-min_repeats n]
 *         [-interleaved] [-fail_time_limit] [-all] [-options_file F] (flags take no value)
 * EXIT    0 pass, 1 regression, 2 could not compare (missing or corrupt files, different experiments or
 *         columns, no common group, unknown options). */
#include "compare.h"
#include "option_table.h"
#include "program.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "bench_compare BASELINE_DIR NEW_DIR [options]: regression verdicts of a run against a baseline.\n"
    "  -map new=base,...     judge the new run's group value 'new' against the baseline's 'base' (a variant\n"
    "                        against what it replaces, e.g. -map pgs_relax=pgs); the same run on both sides\n"
    "                        judges one value of an axis against another (-map 64=8 over -lemke_block 8,64)\n"
    "  -tol_rel r            accuracy: a median may rise by r * |baseline| (default 0.01); a share column\n"
    "                        (0/1 per task) regresses when the Newcombe 95% interval of its change excludes "
    "0\n"
    "  -tol_abs a            ... or by a, or by the column's noise floor, whichever is larger (default 0)\n"
    "  -metric_tol m=r,...   tol_rel for particular metrics\n"
    "  -count_ratio x        counts (iterations): median ratio above x (and by more than 1) is a regression\n"
    "                        (default 1.2)\n"
    "  -time_ratio x         timings: median(new) / median(baseline) above x may be a change (default 1.2)\n"
    "  -alpha p              timings: level of the one-sided rank-sum test (default 0.05)\n"
    "  -spread_factor x      trajectory outcomes: a group median may move x times the largest spread the\n"
    "                        baseline measured for its tasks (BASELINE_DIR/spread.csv) (default 3)\n"
    "  -shift_alpha p        trajectory outcomes: family-wise level of the paired signed-rank tests over a\n"
    "                        group's instances, Bonferroni over the tests (default 0.01)\n"
    "  -min_repeats n        timings: task pairs both runs solved needed in a group (default 5)\n"
    "  -interleaved          the runs were timed interleaved (bench/ab): a timing beyond the A-vs-A spread\n"
    "                        and significant is a verdict (otherwise only evidence: slower? / faster?)\n"
    "  -fail_time_limit      a success-rate drop made of time_limit tasks fails (default: reported only)\n"
    "  -all                  print every comparison (default: those that moved beyond a noise floor)\n"
    "  -sort_mb n            memory of the sorts that bring each group's tasks together, MB (default 64;\n"
    "                        beyond it they spill to $TMPDIR), and of a group pair held while it is judged\n"
    "                        (a larger one is judged from the sorted stream): the tables are never held\n"
    "-interleaved, -fail_time_limit and -all take no value (a word after them is a run directory).\n"
    "Exit status: 0 pass, 1 regression, 2 could not compare (missing or corrupt files, different\n"
    "experiments or columns, no common group, bad options).\n";

static void format_value(const struct compare_row *c, double v, int n, char *buf, size_t len)
{
  if (c->kind == COMPARE_COVERAGE && isnan(v))
    snprintf(buf, len, "missing");
  else if (c->kind == COMPARE_COVERAGE)
    snprintf(buf, len, "%d tasks", n);
  else if (isnan(v))
    snprintf(buf, len, "-");
  else if (c->kind == COMPARE_SUCCESS || c->share)
    snprintf(buf, len, "%.1f%% (%d)", 100.0 * v, n);
  else
    snprintf(buf, len, "%.4g", v);
}

static void format_change(const struct compare_row *c, char *buf, size_t len)
{
  size_t at = 0;
  if (c->group < 0) {
    snprintf(buf, len, "%d worse, %d better beyond tolerance [sign test p=%.2g%s]", c->n_beyond,
             c->n_pairs - c->n_beyond, c->p, c->shift ? ": shift" : "");
    return;
  }
  if (c->kind == COMPARE_COVERAGE)
    snprintf(buf, len, "group missing");
  else if (c->kind == COMPARE_SUCCESS && !isnan(c->base) && !isnan(c->now))
    at = (size_t)snprintf(buf, len, "%+.1f pts", 100.0 * (c->now - c->base));
  else if (c->share && !isnan(c->base) && !isnan(c->now))
    snprintf(buf, len, "%+.1f pts [Newcombe 95%%: %+.1f, %+.1f]", 100.0 * (c->now - c->base),
             100.0 * c->diff_lo, 100.0 * c->diff_hi);
  else if (isnan(c->base) || isnan(c->now))
    snprintf(buf, len, "%s", isnan(c->now) && !isnan(c->base) ? "lost" : "-");
  else if (c->kind == COMPARE_COST && !isnan(c->p) && !isnan(c->spread))
    snprintf(buf, len, "x%.3g (p=%.2g, A/A x%.3g)", c->ratio, c->p, c->spread);
  else if (c->kind == COMPARE_COST && !isnan(c->p))
    snprintf(buf, len, "x%.3g (p=%.2g)", c->ratio, c->p);
  else if (c->kind == COMPARE_COST)
    snprintf(buf, len, "x%.3g (n=%d,%d)", c->now / c->base, c->n_base, c->n_now);
  else if (c->kind == COMPARE_COUNT)
    snprintf(buf, len, "x%.3g", c->ratio);
  else if (c->base != 0.0)
    snprintf(buf, len, "%+.3g%%", 100.0 * (c->now - c->base) / fabs(c->base));
  else
    snprintf(buf, len, "%+.3g", c->now - c->base);
  if (c->kind == COMPARE_SUCCESS && c->note[0] && at < len)
    snprintf(buf + at, len - at, "%sstatus %s", at ? ", " : "", c->note);
  at = strlen(buf);
  if (c->kind == COMPARE_SUCCESS && isfinite(c->allowed) && at < len)
    snprintf(buf + at, len - at, " (perturbed runs flip %.0f)", c->allowed * c->n_base);
  else if ((c->kind == COMPARE_METRIC || c->kind == COMPARE_COUNT) && at < len) {
    if (isfinite(c->allowed))
      at += (size_t)snprintf(buf + at, len - at, " [spread allows %.3g; %d/%d beyond]", c->allowed,
                             c->n_beyond, c->n_pairs);
    if (isfinite(c->p) && at < len)
      snprintf(buf + at, len - at, " [signed-rank p=%.2g, n=%d%s]", c->p, c->n_pairs,
               c->shift ? ": shift" : "");
  }
}

/* Under-floor moves are noise by declaration: listed with -all only, like identical values. */
static int shown(const struct compare_row *c, int all)
{
  if (c->group < 0 && !all) return c->shift || c->p < 0.05; /* the pooled test: shown when it is evidence */
  return all || (c->verdict != COMPARE_SAME && c->verdict != COMPARE_UNTESTED && c->verdict != COMPARE_FLOOR);
}

static void print_table(const struct compare_result *res, int all)
{
  int n_shown = 0;
  for (int i = 0; i < res->n_rows; i++)
    n_shown += shown(&res->rows[i], all);
  if (!n_shown) {
    printf("(nothing moved: every compared value is identical or under its noise floor; -all lists them)\n");
    return;
  }
  enum { NCOL = 6 };
  const char *head[NCOL] = {"group", "metric", "baseline", "new", "change", "verdict"};
  size_t w[NCOL];
  char cell[NCOL][256];
  for (int j = 0; j < NCOL; j++)
    w[j] = strlen(head[j]);
  for (int pass = 0; pass < 2; pass++) {
    if (pass) {
      printf("%-*s  %-*s  %*s  %*s  %*s  %s\n", (int)w[0], head[0], (int)w[1], head[1], (int)w[2], head[2],
             (int)w[3], head[3], (int)w[4], head[4], head[5]);
    }
    for (int i = 0; i < res->n_rows; i++) {
      const struct compare_row *c = &res->rows[i];
      if (!shown(c, all)) continue;
      compare_group_text(res, c->group, cell[0], sizeof cell[0]);
      snprintf(cell[1], sizeof cell[1], "%s", c->name);
      format_value(c, c->base, c->n_base, cell[2], sizeof cell[2]);
      format_value(c, c->now, c->n_now, cell[3], sizeof cell[3]);
      format_change(c, cell[4], sizeof cell[4]);
      snprintf(cell[5], sizeof cell[5], "%s", compare_verdict_name(c->verdict));
      if (!pass)
        for (int j = 0; j < NCOL; j++)
          if (strlen(cell[j]) > w[j]) w[j] = strlen(cell[j]);
      if (pass)
        printf("%-*s  %-*s  %*s  %*s  %*s  %s\n", (int)w[0], cell[0], (int)w[1], cell[1], (int)w[2], cell[2],
               (int)w[3], cell[3], (int)w[4], cell[4], cell[5]);
    }
  }
}

static int same_names(const struct rundir_list *a, const struct rundir_list *b)
{
  if (a->n != b->n) return 0;
  for (int i = 0; i < a->n; i++)
    if (strcmp(a->name[i], b->name[i]) != 0) return 0;
  return 1;
}

/* Options: -metric_tol "name=r" items. 0 on success, 2 with a message. */
static int parse_metric_tol(struct compare_options *o, char **items, int n)
{
  o->metric_tol_name = calloc((size_t)n + 1, sizeof *o->metric_tol_name);
  o->metric_tol = calloc((size_t)n + 1, sizeof *o->metric_tol);
  if (!o->metric_tol_name || !o->metric_tol) return 2;
  for (int i = 0; i < n; i++) {
    char *eq = strchr(items[i], '='), *end = NULL;
    double v = eq ? strtod(eq + 1, &end) : NAN;
    if (!eq || eq == items[i] || !end || *end || !(v >= 0.0)) {
      fprintf(stderr, "error: -metric_tol item '%s' is not name=r with r >= 0\n", items[i]);
      return 2;
    }
    *eq = '\0';
    o->metric_tol_name[o->n_metric_tol] = items[i];
    o->metric_tol[o->n_metric_tol++] = v;
  }
  return 0;
}

/* Options: -map "new=base" items, split in place into from (new) and to (base). 0, or 2 with a message. */
static int parse_map(char **items, int n, char **from, char **to)
{
  for (int i = 0; i < n; i++) {
    char *eq = strchr(items[i], '=');
    if (!eq || eq == items[i] || !eq[1] || strchr(eq + 1, '=')) {
      fprintf(stderr, "error: -map item '%s' is not new_value=base_value\n", items[i]);
      return 2;
    }
    *eq = '\0';
    from[i] = items[i];
    to[i] = eq + 1;
  }
  return 0;
}

/* The scalar options, declared and read by the one strict reader (a malformed "0.5x" is refused). */
struct compare_settings {
  double tol_rel, tol_abs, time_ratio, count_ratio, alpha, spread_factor, shift_alpha;
  double sort_mb;
  int min_repeats, all, interleaved, fail_time_limit;
};
#define CMP_OPT(name, type, def, range, help)                                                                \
  {                                                                                                          \
#name, type, offsetof(struct compare_settings, name), def, range, help                                   \
  }
static const struct option_decl compare_settings_options[] = {
    CMP_OPT(tol_rel, OPT_REAL, "0.01", "[0,inf)", "relative tolerance of accuracy metrics"),
    CMP_OPT(tol_abs, OPT_REAL, "0", "[0,inf)", "absolute tolerance of accuracy metrics"),
    CMP_OPT(time_ratio, OPT_REAL, "1.2", "[1,inf)", "ratio of medians a timing must exceed"),
    CMP_OPT(count_ratio, OPT_REAL, "1.2", "[1,inf)", "ratio of medians a count (iterations) must exceed"),
    CMP_OPT(alpha, OPT_REAL, "0.05", "(0,1)", "significance level of the rank-sum test"),
    CMP_OPT(spread_factor, OPT_REAL, "3", "[1,inf)",
            "trajectory outcomes: a median may move this many times the baseline's measured spread"),
    CMP_OPT(shift_alpha, OPT_REAL, "0.01", "(0,1)",
            "trajectory outcomes: family-wise level of the paired signed-rank tests (Bonferroni)"),
    CMP_OPT(min_repeats, OPT_INT, "5", "[2,1000000]", "task pairs a timing comparison needs"),
    CMP_OPT(all, OPT_BOOL, "0", NULL, "list every compared value, not only those that moved"),
    CMP_OPT(interleaved, OPT_BOOL, "0", NULL,
            "the runs were timed interleaved (bench/ab): timings are verdicts"),
    CMP_OPT(fail_time_limit, OPT_BOOL, "0", NULL, "a success drop made of time_limit tasks fails too"),
    CMP_OPT(sort_mb, OPT_REAL, "64", "(0,1000000]",
            "memory in MB of the sorts that bring each group's tasks together (spilled to $TMPDIR beyond) "
            "and of a group judged in memory (a larger one is judged from the sorted stream)"),
};

/* The lines above the table: what was compared, and by which rules. */
static void print_header(const char *dir_b, const char *dir_n, const struct rundir *b, const struct rundir *n,
                         const struct compare_options *o, int n_maps, char **map_from, char **map_to)
{
  printf("# bench_compare %s (baseline) vs %s (new): experiment %s, group = ", dir_b, dir_n, b->experiment);
  for (int k = 0; k < b->group.n; k++)
    printf("%s%s", k ? "," : "", b->group.name[k]);
  if (!b->group.n) printf("(none: one group)");
  for (int k = 0; k < n_maps; k++)
    printf("%s%s judged as %s", k ? ", " : "\n# map: the new run's ", map_from[k], map_to[k]);
  printf("\n# values over the tasks both runs solved; a baseline group missing from the new run is a "
         "regression\n# accuracy: lower is better");
  for (int k = 0; k < n->higher_better.n; k++)
    printf("%s%s", k ? "," : " except for ", n->higher_better.name[k]);
  printf(", tolerance max(%g, %g |baseline|, noise floor); both values under the floor: no verdict\n",
         o->tol_abs, o->tol_rel);
  if (n->per_step.n) {
    printf("# per-step quantities (floors: the baseline's solve tolerance): ");
    for (int k = 0; k < n->per_step.n; k++)
      printf("%s%s", k ? "," : "", n->per_step.name[k]);
    printf("\n");
  }
  printf(
      "# trajectory outcomes (the other metrics and counts): %s; and a one-sided paired Wilcoxon signed-rank "
      "test over the instances of a group, p < %g / (number of tests)\n",
      o->spread ? "the tolerance or the baseline's spread under -perturb_initial (spread.csv) times the "
                  "factor, whichever is larger"
                : "no spread.csv beside the baseline: the tolerances",
      o->shift_alpha);
  if (o->spread) printf("#   spread factor %g\n", o->spread_factor);
  printf("# success rate: a drop is a regression, one made of time_limit tasks (wall-clock) is verdict "
         "time_limit%s\n",
         o->fail_time_limit ? " and fails (-fail_time_limit)" : ", which does not fail (-fail_time_limit)");
  if (n->counts.n) {
    printf("# counts (deterministic cost): ");
    for (int k = 0; k < n->counts.n; k++)
      printf("%s%s", k ? "," : "", n->counts.name[k]);
    printf(", ratio of medians beyond %g\n", o->count_ratio);
  }
  printf("# timings: ratio of medians > %s%g%s and one-sided Wilcoxon rank-sum (Mann-Whitney U, normal\n"
         "# approximation, tie-corrected) p < %g, with >= %d task pairs; %s\n",
         o->interleaved ? "max(A-vs-A spread, " : "", o->time_ratio, o->interleaved ? ")" : "", o->alpha,
         o->min_repeats,
         o->interleaved
             ? "the runs were timed interleaved (-interleaved): these are verdicts"
             : "runs made at different times: evidence only (slower?/faster?), confirm with bench/ab");
  if (!same_names(&b->higher_better, &n->higher_better))
    printf("# note: the baseline's higher_better list differs; the new run's is used\n");
  if (!same_names(&b->metrics, &n->metrics) || !same_names(&b->costs, &n->costs))
    printf("# note: the baseline's column roles differ; the new run's are used\n");
  if (strcmp(b->options, n->options) != 0)
    printf("# note: the option strings differ:\n#   baseline: %s\n#   new:      %s\n", b->options,
           n->options);
}

/* -metric_tol and -map: comma lists of name=value items, any number. 0, or 2 with a message. */
static int read_lists(const struct program *prog, struct compare_options *o, char ***tols, char ***maps,
                      int *n_maps, char ***from, char ***to)
{
  const char *mt = program_value(prog, "-metric_tol"), *mp = program_value(prog, "-map");
  int n_tols = 0;
  *n_maps = 0;
  if ((mt && !(*tols = program_split_list(mt, &n_tols))) || (mp && !(*maps = program_split_list(mp, n_maps))))
    return 2;
  *from = calloc((size_t)*n_maps + 1, sizeof **from);
  *to = calloc((size_t)*n_maps + 1, sizeof **to);
  if (!*from || !*to) return 2;
  return parse_metric_tol(o, *tols, n_tols) || parse_map(*maps, *n_maps, *from, *to);
}

static int compare(const struct program *prog)
{
  static const char *const lists[] = {"-map", "-metric_tol"};
  const int n_settings = (int)(sizeof compare_settings_options / sizeof compare_settings_options[0]);
  int rc = 2, n_maps = 0;
  struct rundir *b = NULL, *n = NULL;
  struct compare_result *res = NULL;
  struct spread *spread = NULL;
  char **tols = NULL, **maps = NULL, **map_from = NULL, **map_to = NULL, msg[512];
  struct compare_options o = {0};
  struct compare_settings cs;
  if (prog->help) {
    fputs(help, stdout);
    return 0;
  }
  if (option_read(compare_settings_options, n_settings, prog->options, NULL, &cs, msg, sizeof msg)) {
    fprintf(stderr, "error: %s\n", msg);
    goto cleanup;
  }
  o.tol_rel = cs.tol_rel, o.tol_abs = cs.tol_abs, o.time_ratio = cs.time_ratio;
  o.count_ratio = cs.count_ratio, o.alpha = cs.alpha, o.min_repeats = cs.min_repeats;
  o.interleaved = cs.interleaved, o.fail_time_limit = cs.fail_time_limit;
  o.spread_factor = cs.spread_factor, o.shift_alpha = cs.shift_alpha;
  if (read_lists(prog, &o, &tols, &maps, &n_maps, &map_from, &map_to) ||
      program_report_unused(prog, compare_settings_options, n_settings, lists, 2, NULL))
    goto cleanup;
  const char *dir_b = prog->positional[0], *dir_n = prog->positional[1];
  /* the headers only: compare_runs streams the tables (checked, grouped and sorted, never held) */
  if (rundir_read_header(dir_b, &b) || rundir_read_header(dir_n, &n) || spread_read(dir_b, &spread) == 2)
    goto cleanup;
  o.spread = spread;
  o.n_map = n_maps, o.map_from = map_from, o.map_to = map_to;
  o.sort_bytes = (size_t)(cs.sort_mb * 1048576.0);
  if (compare_runs(b, n, &o, &res)) goto cleanup;
  print_header(dir_b, dir_n, b, n, &o, n_maps, map_from, map_to);
  print_table(res, cs.all);
  printf(
      "%d groups compared (%d missing from the new run, %d only in the new run, %d of the baseline outside "
      "the new run's sweep): %d regressions, %d improved, %d within the measured spread, %d time_limit; %d "
      "paired tests; %d timing moves unconfirmed (not interleaved); %d timing comparisons untested (fewer "
      "than %d task pairs)\n",
      res->n_common, res->only_base, res->only_new, res->outside_sweep, res->n_regressions, res->n_improved,
      res->n_within_spread, res->n_time_limit, res->n_shift_tests, res->n_timing_evidence,
      res->n_untested_costs, o.min_repeats);
  rc = compare_failed(res, &o) ? 1 : 0;
  printf("verdict: %s\n", rc ? "REGRESSION" : "pass");
cleanup:
  compare_result_destroy(&res);
  spread_destroy(&spread);
  rundir_destroy(&b);
  rundir_destroy(&n);
  free(o.metric_tol_name);
  free(o.metric_tol);
  free(tols);
  free(maps);
  free(map_from);
  free(map_to);
  return rc;
}

int main(int argc, char **argv)
{
  static const char *const flags[] = {"-all", "-interleaved", "-fail_time_limit", NULL};
  static const struct program_spec spec = {.name = "bench_compare",
                                           .usage = "BASELINE_DIR NEW_DIR [options]",
                                           .positional_min = 2,
                                           .positional_max = 2,
                                           .flags = flags};
  return program_main(&spec, argc, argv, compare);
}
