/* NAME    bench_merge — build a run directory's tables and plots from its ledgers.
 * PURPOSE after a job array (-slice K/N per element, each writing ledger.K-of-N.csv into one run
 *         directory), merge every ledger*.csv into tasks.csv (sorted by task id; for a task written twice
 *         the last row wins), then write summary.csv/.md and the plots. slurm/merge.sbatch runs it.
 * USAGE   bench_merge RUN_DIR [-no_plots]
 * EXIT    0 done; 2 usage, no ledgers, or ledgers with different columns. */
#include "engine/sweep.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
  int plots = 1;
  const char *dir = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-no_plots") == 0)
      plots = 0;
    else if (argv[i][0] == '-' || dir) {
      fprintf(stderr, "usage: bench_merge RUN_DIR [-no_plots]\n");
      return 2;
    } else
      dir = argv[i];
  }
  if (!dir) {
    fprintf(stderr, "usage: bench_merge RUN_DIR [-no_plots]\n");
    return 2;
  }
  if (sweep_merge(dir)) return 2;
  if (sweep_summarize(dir)) return 1;
  if (plots && sweep_plot(dir)) fprintf(stderr, "bench_merge: the plots failed (the tables are written)\n");
  printf("bench_merge: %s/tasks.csv, summary.csv, summary.md%s\n", dir, plots ? ", plots/" : "");
  return 0;
}
