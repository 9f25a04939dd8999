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
double plot_width(int k, int n); /* line width of series k of n */
/* A string safe inside gnuplot single quotes (quotes doubled) into buf. */
void plot_quote(const char *s, char *buf, size_t n);

/* Opens plots_dir/name.gp and writes its header: what it shows, how to re-make it, reset and the common
 * settings. NULL (with a message) when it cannot be written. */
FILE *plot_script_open(const char *plots_dir, const char *name, const char *what);
/* Before the plot command: the PNG terminal and output. */
void plot_script_png(FILE *fp, const char *name);
/* After the plot command: the same plot as SVG; closes fp. 0 on success. */
int plot_script_close(FILE *fp, const char *name);
/* Opens plots_dir/name for the data (NULL with a message on failure). */
FILE *plot_data_open(const char *plots_dir, const char *name);

/* The performance profile of one cost column (plot_profile.c): writes profile_<cost>.gp/.dat; 0 on
 * success, 1 when there is nothing to plot (fewer than two series), 2 on a write error. */
int plot_profile(const struct rundir *r, const struct plot_series *ps, const char *plots_dir,
                 const char *cost);

#endif
