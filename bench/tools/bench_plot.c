/* NAME    bench_plot — re-make a run directory's summary and plots from its tasks.csv, or other views of it.
 * PURPOSE after editing the aggregation or plots, or on a run made with -no_plots: rewrite summary.csv,
 *         summary.md and plots/ (gnuplot scripts, data, PNG and SVG) from tasks.csv and experiment.txt.
 *         With options, other figures of the same tasks: another x, other series, facets, a subset of the
 *         tasks, or two runs overlaid (the same metric of both in one figure, baseline and variant).
 * USAGE   bench_plot RUN_DIR [-no_plots]
 *         bench_plot RUN_DIR [RUN_DIR2 ... -overlay] [-x COL] [-series COL,...] [-facet COL]
 *                    [-where COL=VALUE,...] [-out DIR]
 *         Without view options it rewrites the summary and RUN_DIR/plots; with any, only the plots, into
 *         -out DIR (default RUN_DIR/plots; for -overlay, RUN_DIR2/plots_overlay). "-x none" and
 *         "-series none": one x value, one series.
 * EXIT    0 done; 1 the tables or plots could not be written (or gnuplot is missing); 2 usage, or RUN_DIR
 *         is not a run directory (missing or malformed tasks.csv / experiment.txt), or an option names a
 *         column tasks.csv does not have. */
#include "engine/sweep.h"
#include "plot_impl.h"
#include "run_files.h"

#include <stdio.h>
#include <string.h>

#define MAX_RUNS 17

static int usage(void)
{
  fprintf(stderr,
          "usage: bench_plot RUN_DIR [-no_plots]\n"
          "       bench_plot RUN_DIR [RUN_DIR2 ... -overlay] [-x COL] [-series COL,...] [-facet COL]\n"
          "                  [-where COL=VALUE,...] [-out DIR]\n");
  return 2;
}

int main(int argc, char **argv)
{
  struct plot_options o = {0};
  const char *dirs[MAX_RUNS];
  const char **opt_val[] = {&o.x, &o.series, &o.facet, &o.where, &o.out};
  const char *const opt_name[] = {"-x", "-series", "-facet", "-where", "-out"};
  int n_dirs = 0, plots = 1, overlay = 0, view = 0;
  char out_buf[SWEEP_PATH_MAX + 32];
  for (int i = 1; i < argc; i++) {
    int known = 0;
    for (size_t k = 0; k < sizeof opt_name / sizeof opt_name[0] && !known; k++)
      if (strcmp(argv[i], opt_name[k]) == 0) {
        if (i + 1 >= argc) return usage();
        *opt_val[k] = argv[++i], known = 1, view = 1;
      }
    if (known) continue;
    if (strcmp(argv[i], "-no_plots") == 0)
      plots = 0;
    else if (strcmp(argv[i], "-overlay") == 0)
      overlay = 1, view = 1;
    else if (argv[i][0] == '-' || n_dirs == MAX_RUNS)
      return usage();
    else
      dirs[n_dirs++] = argv[i];
  }
  if (!n_dirs || (n_dirs > 1 && !overlay) || (overlay && n_dirs < 2) || (view && !plots)) return usage();
  if (view) { /* another view: only plots, the run's own summary and plots stay as they are */
    if (overlay && !o.out) {
      if (sweep_path(out_buf, sizeof out_buf, "%s/plots_overlay", dirs[1])) return 2;
      o.out = out_buf;
    }
    int rc = plot_runs(n_dirs, dirs, &o);
    if (rc) {
      fprintf(stderr, "bench_plot: the plots failed\n");
      return rc;
    }
    printf("bench_plot: %s/\n", o.out ? o.out : dirs[0]);
    return 0;
  }
  int rc = sweep_summarize(dirs[0]);
  if (rc) return rc;
  if (plots && sweep_plot(dirs[0])) {
    fprintf(stderr, "bench_plot: the plots failed (summary.csv and summary.md are written)\n");
    return 1;
  }
  printf("bench_plot: %s/summary.csv, summary.md%s\n", dirs[0], plots ? ", plots/" : "");
  return 0;
}
