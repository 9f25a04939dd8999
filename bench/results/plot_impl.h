/* plot_impl.h — what the plot files share (plot.c runs them and gnuplot; plot_axes.c, plot_facets.c,
 * plot_stat.c, plot_success.c, plot_profile.c, plot_view.c): the series of a run, the look (colours, points,
 * dashes), and the frame of every gnuplot script (a header saying how to re-make it, one PNG and one SVG
 * output). Scripts and data files live together in RUN_DIR/plots/ and name each other relatively, so `cd
 * RUN_DIR/plots && gnuplot NAME.gp` re-makes NAME.png and NAME.svg. */
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
/* How many key columns fit across width pixels for these labels (1 to 4). */
int plot_key_cols(const char *const *labels, int n, int width);
/* Breaks the lines of a quoted gnuplot text ("\\n" between lines) longer than max_chars at a space. */
void plot_wrap(char *s, size_t n, int max_chars);
/* The characters of a title line that fit across width pixels (sans 11: 7.6 px a character, and a margin). */
#define PLOT_TITLE_CHARS(width) ((width)*2 / 17)
/* A string safe inside gnuplot single quotes (quotes doubled) into buf. */
void plot_quote(const char *s, char *buf, size_t n);

/* Opens plots_dir/name.gp and writes its header: what it shows, how to re-make it, reset and the common
 * settings. NULL (with a message) when it cannot be written. */
FILE *plot_script_open(const char *plots_dir, const char *name, const char *what);
/* The common settings every script starts with (reset, the key below, grid, border, tics; plot_script_open
 * writes them after its header). */
void plot_script_settings(FILE *fp);
/* Runs gnuplot on dir/script in dir, its output appended to dir/gnuplot.log. 0 success, 127 gnuplot is
 * missing, other nonzero on failure. */
int plot_gnuplot(const char *dir, const char *script);
/* Before the settings of the plot itself: opens the loop that makes the PNG and then the SVG (1000x700, or
 * the size given) from the same commands. */
void plot_script_png(FILE *fp, const char *name);
void plot_script_png_size(FILE *fp, const char *name, int width, int height);
/* After the plot command(s): closes the loop and fp (plots_dir/name.gp). 0 on success; else 1 with a
 * message naming the file and why (plot_file_close). */
int plot_script_close(FILE *fp, const char *plots_dir, const char *name);
/* Opens plots_dir/name for the data (NULL with a message on failure). */
FILE *plot_data_open(const char *plots_dir, const char *name);
/* Closes fp, written as plots_dir/name: 0, or 1 with "error: cannot write DIR/NAME: why" when a write or
 * the close failed (a full disk shows at the last flush). */
int plot_file_close(FILE *fp, const char *plots_dir, const char *name);
/* The picture for n panels: one 1000x700 plot, or a grid of about sqrt(n) columns of 620x520 panels, at
 * most 1900x1600 in all. */
struct plot_layout {
  int rows, cols, width, height;
};
struct plot_layout plot_layout_panels(int n);
/* A grid of n panels whose plot areas all have one size, however many entries a panel's key has: each cell
 * holds the panel's title, its plot area, the x tic labels (tics_px: plot_x_tics_px) and x label, and a key
 * area as tall as key_rows rows (the largest key of the figure, its title line included); header_lines of
 * the figure's title on top. gnuplot's own multiplot layout gives each panel what its key leaves, so a
 * panel with a long key had no height left. */
struct plot_grid {
  int rows, cols, width, height;
  int header, cell_w, cell_h, plot_h, tics, key_top;
  int left; /* pixels left of each plot area: its y tic labels and y label (plot_grid_left) */
};
struct plot_grid plot_grid_make(int n, int header_lines, int tics_px, int key_rows);
/* Panel p's margins and key position ("set lmargin at screen ...", "set key at screen ..."). */
void plot_grid_panel(FILE *gp, const struct plot_grid *g, int p);
/* The left margin of the panels for y tic labels of tic_chars characters: a fixed margin let "0.00035"
 * push the y label off the figure or into the panel on its left. */
int plot_grid_left(int tic_chars);
/* The key rows of n entries in cols columns, plus the key's title line. */
int plot_key_rows(int n_entries, int cols);

/* The x values of a run (plot_axes.c): distinct plot_x values, in ascending order when all are numbers. */
struct plot_x {
  struct rundir_groups *g;
  int numeric;
  int *order; /* order[i]: the x group drawn at position i */
  int *pos;   /* pos[group] = i */
  double *value;
};
int plot_x_make(const struct rundir *r, struct plot_x *x);
void plot_x_free(struct plot_x *x);
/* Text of the x value at position i (as tasks.csv has it). */
const char *plot_x_text(const struct rundir *r, const struct plot_x *x, int i);
/* Whether the x tic labels need turning: many categories, or long ones. */
int plot_x_crowded(const struct rundir *r, const struct plot_x *x);
/* Pixels under a plot area taken by its x tic labels and x label (turned labels take their length). */
int plot_x_tics_px(const struct rundir *r, const struct plot_x *x);
/* The xlabel, range, log scale and tics of x. */
void plot_write_x_axis(FILE *fp, const struct rundir *r, const struct plot_x *x);
/* An axis label of column name: its help text cut to what fits along an axis, and its unit; 1 when cut. */
int plot_axis_label(const struct rundir *r, const char *name, char *buf, size_t n);
/* "AXIS: the whole help text [unit]" of a column whose axis label was cut, for the title; else "". */
void plot_axis_note(const struct rundir *r, const char *axis, const char *name, char *buf, size_t n);
/* "set key title": what the key's entries name (the series axes; one axis with its label, "y: gripper
 * centre above the part's centre", so that a bare "y" is not read as the y axis). Under the x label of a
 * single plot (below = 1) a line is left free above it: gnuplot puts the key's title right on that label. */
void plot_write_key_title(FILE *fp, const struct rundir *r, const char *title, int below);
/* The title's note on the axes a plot aggregates over, and those fixed at one value (plot_axes.c). */
void plot_aggregated_over(const struct rundir *r, char *buf, size_t n);

/* Facets (plot_facets.c): panel[s] is the panel of series s (0.. n_panels-1), panel_label[s] the series'
 * name within its panel (the full label less the facet part). One panel unless there are more than
 * FACET_MIN series or a facet column is asked for: then one panel per value of the facet column (by
 * default the first series axis when there are several, else the family of the one series axis: its
 * values' prefix up to '_', else blocks of six). */
#define FACET_MIN 8
/* More series than this in one panel: no interquartile bands (ten overlapping translucent bands hide each
 * other and the lines; plot_stat.c); a share column with more is drawn as a map of its shares
 * (plot_heat_map); along a numeric x, two or more series axes are split into panels first (plot.c). */
#define BAND_MAX 5
struct plot_facets {
  /* overlay of runs: base_of[s] is the baseline's series that series s repeats for its run (itself for
   * a baseline series; -1 when the baseline has none), drawn in that one's colour, dashed with open points
   * for a variant; NULL outside overlays */
  int *base_of;
  int n;
  int *panel;
  char **name; /* per panel */
  const char **panel_label;
  const char *key_title; /* what the panel labels name: the series axes, the facet's left out */
  int *at;               /* the place of series s among the series of its panel */
  int *in_size;          /* the number of series in the panel of series s */
};
int plot_facets_make(const struct rundir *r, const struct plot_series *ps, const char *facet,
                     struct plot_facets *f);
void plot_facets_free(struct plot_facets *f);
/* The look (colour, point, dash) of series s: its own; in panels that of its place in its panel (the
 * strong colours first in every panel, and a series axis split by a facet keeps its colour across the
 * panels); in an overlay that of the same series of the baseline. */
int plot_look(const struct plot_facets *f, int s);
/* The line width of series s of ns (plot_width, within its panel). */
double plot_look_width(const struct plot_facets *f, int s, int ns);
/* 1 for a series of a variant run in an overlay: dashed with open points. */
int plot_variant(const struct plot_facets *f, int s);

/* The tasks as the plots read them (plot_read.c): r from dir with a skeleton of tasks.csv as its table (one
 * row per distinct cell key; *skeleton = 1), or for a solver benchmark (performance profiles: per-task data)
 * with tasks.csv's role columns (rundir_read_roles; *skeleton = 0). 0, or 2 with a message. */
int plot_read_run(const char *dir, struct rundir **r, int *skeleton);
struct cellstats;
/* The statistics of every (series, x) cell (cellstats.h; columns: r's metrics, then its costs): from the
 * tasks of r's table, or with stream_dir from stream_dir/tasks.csv read again as a stream (r a skeleton).
 * 0, or 2 with a message. */
int plot_cells_make(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
                    const char *stream_dir, struct cellstats *c);

/* The "median and IQR against x" plot of one column (plot_stat.c), column col of the cells:
 * kind_col.gp/.dat; 0 written, 1 nothing to plot, 2 write error. */
int plot_stat(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
              const struct plot_facets *f, const struct cellstats *cells, int col, const char *dir,
              const char *kind, const char *col_name);
/* The success rate per x and series (plot_success.c): bars, or a heat map; 0 written, else 2. */
int plot_success(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
                 const struct cellstats *cells, const char *dir);

/* A rate suc / app per series and x as a heat map (series up the side, x along the bottom, the counts in
 * each cell, cividis colours, hatched where app is 0) under the title already written: the rest of the
 * script gp, which it closes (plots_dir/name.gp, making name.png and .svg). 0, or 1 on a write error. */
int plot_heat_map(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x, FILE *gp,
                  const char *dir, const char *name, const int *app, const int *suc, const char *cblabel);
/* The width of that map for nx x values. */
int plot_heat_map_width(int nx);

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
  int force;          /* overlay runs of different experiments (refused otherwise) */
};
/* bench_plot's options applied to r (plot_view.c): 0, or 2 with a message when an option is bad. */
int plot_apply_options(struct rundir *r, const struct plot_options *o);
/* What the plots leave out of r (after the view options): the rows of tasks that do not apply
 * (not_applicable: a series of nothing but those took a colour, a bar slot, a hatched row of the map and
 * a panel of its own), and the series axes with one value, which repeated it in every key entry ("... /
 * lemke") and are named once in the title's "at ..." note instead; the facet axis stays. 0, or 2. */
int plot_leave_out_idle(struct rundir *r, const char *facet);
/* The tasks of the other runs appended to base's under a first column and series axis "run", whose values
 * name each run's role and folder ("baseline (baseline/incline)", "variant (mine/incline)"). 0 or 2. */
#define PLOT_BASELINE_TAG "baseline"
#define PLOT_TAG_MAX      160
int plot_overlay_runs(struct rundir *base, struct rundir **other, int n_other);
/* The plots of dirs[0], or with n_dirs > 1 of dirs[0] (baseline) overlaid with the others (variant...):
 * a "run" series axis in front. 0 done, 1 gnuplot could not draw (the scripts and data are written), 2 a
 * run or an option is bad, or a file could not be written (message printed). */
int plot_runs(int n_dirs, const char *const *dirs, const struct plot_options *o);

#endif
