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
#include "program.h"
#include "run_files.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define MAX_RUNS 17

static const char usage[] = "RUN_DIR [-no_plots]\n"
                            "       bench_plot RUN_DIR [RUN_DIR2 ... -overlay] [-x COL] [-series COL,...] "
                            "[-facet COL]\n"
                            "                  [-where COL=VALUE,...] [-out DIR] [-force]";

struct plot_flags {
  int no_plots, overlay, force;
};

static const struct option_decl plot_flag_options[] = {
    {"no_plots", OPT_BOOL, offsetof(struct plot_flags, no_plots), "0", NULL,
     "rewrite the summary only, no plots (a flag: takes no value)"},
    {"overlay", OPT_BOOL, offsetof(struct plot_flags, overlay), "0", NULL,
     "the same metric of every RUN_DIR in one figure (a flag: takes no value)"},
    {"force", OPT_BOOL, offsetof(struct plot_flags, force), "0", NULL,
     "-overlay: overlay runs of different experiments too (refused otherwise; a flag: takes no value)"},
};
#define N_FLAGS ((int)(sizeof plot_flag_options / sizeof plot_flag_options[0]))
/* The view options, for -help; read as text of any length by program_value. */
static const struct option_decl plot_view_options[] = {
    {"x", OPT_STRING, 0, "", NULL, "column on the x axis ('none': one x value)"},
    {"series", OPT_STRING, 0, "", NULL, "columns whose values make the series, a,b ('none': one series)"},
    {"facet", OPT_STRING, 0, "", NULL, "one panel per value of this column"},
    {"where", OPT_STRING, 0, "", NULL, "only the tasks with COL=VALUE,... (items on one column: either)"},
    {"out", OPT_STRING, 0, "", NULL,
     "plots directory (default RUN_DIR/plots; -overlay: RUN_DIR2/plots_overlay)"},
};
static const char *const plot_view_names[] = {"-x", "-series", "-facet", "-where", "-out"};
#define N_VIEW ((int)(sizeof plot_view_names / sizeof plot_view_names[0]))

static int usage_error(void)
{
  fprintf(stderr, "usage: bench_plot %s\n", usage);
  return 2;
}

/* Another view of one run, or of several overlaid: only plots; the runs' summaries and plots stay. */
static int plot_view(int n_dirs, const char *const *dirs, struct plot_options *o, int overlay)
{
  char out_buf[SWEEP_PATH_MAX + 32];
  if (overlay && !o->out) {
    if (sweep_path(out_buf, sizeof out_buf, "%s/plots_overlay", dirs[1])) return 2;
    o->out = out_buf;
  }
  int rc = plot_runs(n_dirs, dirs, o);
  if (rc) {
    fprintf(stderr, "bench_plot: the plots failed\n");
    return rc;
  }
  printf("bench_plot: %s/\n", o->out ? o->out : dirs[0]);
  return 0;
}

static int plot(const struct program *prog)
{
  struct plot_options o = {0};
  const char **view[N_VIEW] = {&o.x, &o.series, &o.facet, &o.where, &o.out};
  struct plot_flags f;
  char msg[512];
  if (prog->help) {
    printf("bench_plot %s\nre-make a run directory's summary and plots, or other views of its tasks.\n",
           usage);
    option_print(stdout, plot_flag_options, N_FLAGS, NULL);
    option_print(stdout, plot_view_options, N_VIEW, NULL);
    return 0;
  }
  if (option_read(plot_flag_options, N_FLAGS, prog->options, NULL, &f, msg, sizeof msg)) {
    fprintf(stderr, "error: %s\n", msg);
    return 2;
  }
  int view_set = f.overlay, n_dirs = prog->n_positional;
  for (int k = 0; k < N_VIEW; k++)
    view_set |= (*view[k] = program_value(prog, plot_view_names[k])) != NULL;
  if (program_report_unused(prog, plot_flag_options, N_FLAGS, plot_view_names, N_VIEW, NULL)) return 2;
  const char *const *dirs = (const char *const *)prog->positional;
  o.force = f.force;
  if ((n_dirs > 1 && !f.overlay) || (f.overlay && n_dirs < 2) || (view_set && f.no_plots) ||
      (f.force && !f.overlay))
    return usage_error();
  if (view_set) return plot_view(n_dirs, dirs, &o, f.overlay);
  int rc = sweep_summarize(dirs[0]);
  if (rc) return rc;
  if (!f.no_plots && sweep_plot(dirs[0])) {
    fprintf(stderr, "bench_plot: the plots failed (summary.csv and summary.md are written)\n");
    return 1;
  }
  printf("bench_plot: %s/summary.csv, summary.md%s\n", dirs[0], f.no_plots ? "" : ", plots/");
  return 0;
}

int main(int argc, char **argv)
{
  static const char *const flags[] = {"-no_plots", "-overlay", "-force", NULL};
  static const struct program_spec spec = {.name = "bench_plot",
                                           .usage = usage,
                                           .positional_min = 1,
                                           .positional_max = MAX_RUNS,
                                           .flags = flags,
                                           .no_mpi = 1};
  return program_main(&spec, argc, argv, plot);
}
