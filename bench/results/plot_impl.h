/* plot_impl.h — what plot.c (accuracy, cost and success plots, running gnuplot) and plot_profile.c (the
 * Dolan-More performance profile) share: the series of a run, the look (colours, points, dashes), and
 * the frame of every gnuplot script (a header saying how to re-make it, one PNG and one SVG output).
 * Scripts and data files live together in RUN_DIR/plots/ and name each other relatively, so
 * `cd RUN_DIR/plots && gnuplot NAME.gp` re-makes NAME.png and NAME.svg. */
#ifndef CB_PLOT_IMPL_H
#define CB_PLOT_IMPL_H

#include "rundir.h"

#include <stdio.h>

/* The series of a run: rows grouped by the "series" axes (one series "all" when there are none). */
struct plot_series {
  struct rundir_groups *g;
  char **label; /* "v1 / v2" per series, its axis values */
  char *title;  /* "formulation / solver": what a series is */
};

int plot_series_make(const struct rundir *r, struct plot_series *ps);
void plot_series_free(struct plot_series *ps);

/* Line colour (as a gnuplot rgb string), point type and dash type of series k. */
const char *plot_color(int k);
int plot_point(int k);
int plot_dash(int k);
int plot_point_hollow(int k); /* the open twin of plot_point(k): for a series identical to an earlier one */
long plot_color_int(int k);   /* plot_color(k) as 0xRRGGBB, for "lc rgb variable" */
double plot_width(int k, int n); /* line width of series k of n */
/* A string safe inside gnuplot single quotes (quotes doubled) into buf. */
void plot_quote(const char *s, char *buf, size_t n);

/* Opens plots_dir/name.gp and writes its header: what it shows, how to re-make it, reset and the common
 * settings. NULL (with a message) when it cannot be written. */
FILE *plot_script_open(const char *plots_dir, const char *name, const char *what);
/* Before the settings of the plot itself: opens the loop that makes the PNG and then the SVG (1000x700, or
 * the size given) from the same commands. */
void plot_script_png(FILE *fp, const char *name);
void plot_script_png_size(FILE *fp, const char *name, int width, int height);
/* After the plot command(s): closes the loop and fp. 0 on success. */
int plot_script_close(FILE *fp, const char *name);
/* Opens plots_dir/name for the data (NULL with a message on failure). */
FILE *plot_data_open(const char *plots_dir, const char *name);

/* The performance profile of one cost column (plot_profile.c): writes profile_<cost>.gp/.dat; 0 on
 * success, 1 when there is nothing to plot (fewer than two series), 2 on a write error. */
int plot_profile(const struct rundir *r, const struct plot_series *ps, const char *plots_dir,
                 const char *cost);

/* What bench_plot may change (NULL or 0: experiment.txt's choice). */
struct plot_options {
  const char *x;      /* the x column ("none": one x, all tasks) */
  const char *series; /* comma-separated series columns ("none": one series) */
  const char *facet;  /* one panel per value of this column */
  const char *where;  /* name=value,...: only the matching tasks (items on the same name: either) */
  const char *out;    /* the plots directory; default RUN_DIR/plots of the first run */
};
/* The plots of dirs[0], or with n_dirs > 1 of dirs[0] (baseline) overlaid with the others (variant...):
 * a "run" series axis in front. 0 done, 1 plots failed, 2 a run or an option is bad (message printed). */
int plot_runs(int n_dirs, const char *const *dirs, const struct plot_options *o);

#endif
