/* NAME    bench_merge — build a run directory's tables and plots from its ledgers.
 * PURPOSE after a job array (-slice K/N per element, each writing ledger.K-of-N.csv into one run
 *         directory), merge every ledger*.csv into tasks.csv (sorted by task id; for a task written twice
 *         the last row wins), then write summary.csv/.md and the plots. slurm/merge.sbatch runs it.
 *         It also writes the run's meta.json (tasks present, missing, failed; the slices it came from).
 * USAGE   bench_merge RUN_DIR [-no_plots] [-options_file F]; -help lists the options
 * EXIT    0 done; 1 tables written but tasks are missing (their ids and slices are named: re-run those
 *         slices with -resume) or a table could not be written; 2 usage, no ledgers, or ledgers with
 * different columns. */
#include "engine/sweep.h"
#include "program.h"
#include "run_files.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct merge_settings {
  int no_plots;
};

static const struct option_decl merge_options[] = {
    {"no_plots", OPT_BOOL, offsetof(struct merge_settings, no_plots), "0", NULL,
     "tables and meta.json only, no plots (a flag: takes no value)"},
};

static int merge(const struct program *prog)
{
  struct merge_settings set;
  char msg[512];
  if (prog->help) {
    printf("bench_merge RUN_DIR [-no_plots]: merge the ledgers of RUN_DIR into tasks.csv, then write\n"
           "summary.csv/.md, meta.json and the plots.\n");
    option_print(stdout, merge_options, 1, NULL);
    printf("Exit status: 0 done; 1 tasks missing (named) or a table not written; 2 usage, no ledgers, or\n"
           "ledgers with different columns.\n");
    return 0;
  }
  if (option_read(merge_options, 1, prog->options, NULL, &set, msg, sizeof msg)) {
    fprintf(stderr, "error: %s\n", msg);
    return 2;
  }
  if (program_report_unused(prog, merge_options, 1, NULL, 0, NULL)) return 2;
  const char *dir = prog->positional[0];
  int plots = !set.no_plots;
  long missing = 0;
  if (sweep_merge(dir, &missing)) return 2;
  if (sweep_summarize(dir)) return 1;
  if (sweep_write_merged_meta(dir)) {
    char tmp[SWEEP_PATH_MAX +
             32]; /* the writer's temporary file, so that a full disk leaves no meta.json.tmp */
    sweep_path(tmp, sizeof tmp, "%s/meta.json.tmp", dir);
    unlink(tmp);
    fprintf(stderr, "bench_merge: cannot write %s/meta.json\n", dir);
    return 1;
  }
  int plotted = plots ? sweep_plot(dir) : 0;
  if (plotted == 2) return 1; /* a plot's file could not be written (named above) */
  if (plotted) fprintf(stderr, "bench_merge: gnuplot could not draw the plots (the tables are written)\n");
  if (missing > 0) { /* the tables hold what is there; the run is not complete, and a script must know */
    fprintf(stderr,
            "bench_merge: %s is incomplete: %ld tasks missing (listed above); tables written from the rows "
            "present\n",
            dir, missing);
    return 1;
  }
  printf("bench_merge: %s/tasks.csv, summary.csv, summary.md, meta.json%s\n", dir, plots ? ", plots/" : "");
  return 0;
}

int main(int argc, char **argv)
{
  static const char *const flags[] = {"-no_plots", NULL};
  static const struct program_spec spec = {.name = "bench_merge",
                                           .usage = "RUN_DIR [-no_plots]",
                                           .positional_min = 1,
                                           .positional_max = 1,
                                           .flags = flags,
                                           .no_mpi = 1};
  return program_main(&spec, argc, argv, merge);
}
