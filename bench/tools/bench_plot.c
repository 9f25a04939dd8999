/* NAME    bench_plot — re-make a run directory's summary and plots from its tasks.csv.
 * PURPOSE after editing the aggregation or plots, or on a run made with -no_plots: rewrite summary.csv,
 *         summary.md and plots/ (gnuplot scripts, data, PNG and SVG) from tasks.csv and experiment.txt.
 * USAGE   bench_plot RUN_DIR [-no_plots]
 * EXIT    0 done; 1 the tables or plots could not be written (or gnuplot is missing); 2 usage, or RUN_DIR
 *         is not a run directory (missing or malformed tasks.csv / experiment.txt). */
#include "engine/sweep.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
  int plots;
  const char *dir;
  if (sweep_tool_args(argc, argv, "bench_plot", &dir, &plots)) return 2;
  int rc = sweep_summarize(dir);
  if (rc) return rc;
  if (plots && sweep_plot(dir)) {
    fprintf(stderr, "bench_plot: the plots failed (summary.csv and summary.md are written)\n");
    return 1;
  }
  printf("bench_plot: %s/summary.csv, summary.md%s\n", dir, plots ? ", plots/" : "");
  return 0;
}
