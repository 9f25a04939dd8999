/* NAME    bench_spread — the spread of a baseline's trajectory outcomes under a change that alters nothing
 *         physical (spread.h).
 * PURPOSE bench/regress -baseline runs each quick preset once as it is (the baseline) and again under
 *         -perturb_initial EPS -perturb_seed K for a few K (the perturbed runs); this writes
 *         BASELINE_DIR/spread.csv: per task, how many perturbed runs ended with another status, and for each
 *         outcome (metric or count not declared per-step) the largest |perturbed - baseline|. bench_compare
 *         reads it: a variant's move within spread_factor times that is chaos, not a regression.
 * USAGE   bench_spread BASELINE_DIR PERTURBED_DIR... -perturb_initial EPS
 * EXIT    0 written; 2 usage, unreadable runs, runs of another experiment, or a write that failed. */
#include "program.h"
#include "spread.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct spread_settings {
  double perturb_initial;
};

static const struct option_decl spread_options[] = {
    {"perturb_initial", OPT_REAL, offsetof(struct spread_settings, perturb_initial), "1e-12", "(0,1e-3]",
     "the -perturb_initial the perturbed runs were made with (recorded in spread.csv's first line)"},
};

static int spread(const struct program *prog)
{
  struct spread_settings set;
  char msg[512];
  if (prog->help) {
    printf(
        "bench_spread BASELINE_DIR PERTURBED_DIR... [-perturb_initial EPS]: writes BASELINE_DIR/spread.csv,\n"
        "the largest move of each trajectory outcome of each task over the perturbed runs (spread.h).\n");
    option_print(stdout, spread_options, 1, NULL);
    return 0;
  }
  if (option_read(spread_options, 1, prog->options, NULL, &set, msg, sizeof msg)) {
    fprintf(stderr, "error: %s\n", msg);
    return 2;
  }
  if (program_report_unused(prog, spread_options, 1, NULL, 0, NULL)) return 2;
  int n = prog->n_positional - 1, rc = 2;
  struct rundir *nominal = NULL, **perturbed = calloc((size_t)n, sizeof(struct rundir *));
  if (!perturbed || rundir_read(prog->positional[0], &nominal)) goto done;
  for (int k = 0; k < n; k++)
    if (rundir_read(prog->positional[k + 1], &perturbed[k])) goto done;
  rc = spread_write(nominal, perturbed, n, set.perturb_initial);
  if (!rc) printf("bench_spread: %s/spread.csv from %d perturbed runs\n", prog->positional[0], n);
done:
  for (int k = 0; perturbed && k < n; k++)
    rundir_destroy(&perturbed[k]);
  free(perturbed);
  rundir_destroy(&nominal);
  return rc;
}

int main(int argc, char **argv)
{
  static const struct program_spec spec = {.name = "bench_spread",
                                           .usage = "BASELINE_DIR PERTURBED_DIR... [-perturb_initial EPS]",
                                           .positional_min = 2,
                                           .positional_max = 64,
                                           .no_mpi = 1};
  return program_main(&spec, argc, argv, spread);
}
