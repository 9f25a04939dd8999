/* plot_common.c — the pieces every plot shares (plot_impl.h): series, colours, quoting, and the frame of
 * a gnuplot script. The look is fixed here so all plots agree: the Okabe-Ito palette (safe for the common
 * colour-vision deficiencies), and beside the colour a point type and a dash pattern per series on cycles
 * of 8 colours, 9 points and 5 dashes, so no two of the first 72 series share colour and point (what is
 * left of a series drawn with points only) and series stay tellable apart in grey; line widths shrink from
 * the first series to the last, so a series drawn over an identical earlier one leaves that one showing round
 * it; the key below the graph (it never covers data), text without enhanced mode (names hold underscores),
 * PNG and SVG made by one loop over the same commands (a multiplot cannot be replotted). */
#include "plot_impl.h"
#include "results.h"
#include "run_files.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Okabe-Ito, the yellow last (weak on white) */
static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#000000", "#F0E442"};
#define N_PALETTE ((int)(sizeof palette / sizeof palette[0]))
/* filled shapes, then line-only ones and an open pentagon; left out because they mean something else:
 * 2 (x, a failed cell), 10 (open down triangle, a clamped value) and the other open shapes (a series that
 * repeats an earlier one) */
static const int points[] = {7, 5, 9, 11, 13, 15, 1, 3, 14};
/* the open twin of each point type (the line-only ones and the open pentagon stay as they are); the filled
 * down triangle's twin is the open pentagon, not the open down triangle, which marks a clamped value */
static const int hollow[] = {6, 4, 8, 14, 12, 14, 1, 3, 14};
#define N_POINTS ((int)(sizeof points / sizeof points[0]))

const char *plot_color(int k) { return palette[k % N_PALETTE]; }
int plot_point(int k) { return points[k % N_POINTS]; }
int plot_point_hollow(int k) { return hollow[k % N_POINTS]; }
int plot_dash(int k) { return 1 + k % 5; }
double plot_width(int k, int n) { return n > 1 ? 2.8 - 1.6 * k / (n - 1) : 2.0; }
long plot_color_int(int k) { return strtol(palette[k % N_PALETTE] + 1, NULL, 16); }

void plot_quote(const char *s, char *buf, size_t n)
{
  size_t k = 0;
  for (; *s && k + 3 < n; s++) {
    if (*s == '"' || *s == '\\') buf[k++] = '\\';
    buf[k++] = *s;
  }
  buf[k] = '\0';
}

int plot_series_make(const struct rundir *r, struct plot_series *ps)
{
  memset(ps, 0, sizeof *ps);
  if (rundir_group(r, r->series.n, r->series.name, &ps->g)) return 1;
  ps->label = calloc((size_t)ps->g->n + 1, sizeof *ps->label);
  size_t tl = 8;
  for (int k = 0; k < r->series.n; k++)
    tl += strlen(r->series.name[k]) + 3;
  ps->title = malloc(tl);
  if (!ps->label || !ps->title) return 1;
  ps->title[0] = '\0';
  for (int k = 0; k < r->series.n; k++)
    strcat(strcat(ps->title, k ? " / " : ""), r->series.name[k]);
  if (!r->series.n) strcpy(ps->title, "run");
  for (int s = 0; s < ps->g->n; s++) {
    size_t len = sizeof "all tasks"; /* the label when there are no keys (-series none) */
    for (int k = 0; k < ps->g->n_keys; k++)
      len += strlen(table_get(r->tasks, ps->g->first[s], ps->g->key_col[k])) + 3;
    if (!(ps->label[s] = malloc(len))) return 1;
    ps->label[s][0] = '\0';
    for (int k = 0; k < ps->g->n_keys; k++)
      strcat(strcat(ps->label[s], k ? " / " : ""), table_get(r->tasks, ps->g->first[s], ps->g->key_col[k]));
    if (!ps->g->n_keys) strcpy(ps->label[s], "all tasks");
  }
  return 0;
}

void plot_series_free(struct plot_series *ps)
{
  for (int s = 0; ps->label && ps->g && s < ps->g->n; s++)
    free(ps->label[s]);
  free(ps->label);
  free(ps->title);
  rundir_groups_destroy(&ps->g);
  memset(ps, 0, sizeof *ps);
}

static FILE *open_in(const char *dir, const char *name)
{
  char path[SWEEP_PATH_MAX + 300];
  if (sweep_path(path, sizeof path, "%s/%s", dir, name)) return NULL;
  FILE *fp = fopen(path, "w");
  if (!fp) fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
  return fp;
}

int plot_file_close(FILE *fp, const char *plots_dir, const char *name)
{
  errno = 0;
  int bad = ferror(fp) != 0, err = errno;
  if (fclose(fp) != 0) bad = 1, err = errno;
  if (bad)
    fprintf(stderr, "error: cannot write %s/%s: %s\n", plots_dir, name, err ? strerror(err) : "write error");
  return bad;
}

FILE *plot_data_open(const char *plots_dir, const char *name) { return open_in(plots_dir, name); }

struct plot_layout plot_layout_panels(int n)
{
  struct plot_layout l = {1, 1, 1000, 700};
  if (n > 1) {
    l.cols = (int)ceil(sqrt((double)n)), l.rows = (n + l.cols - 1) / l.cols;
    l.width = 620 * l.cols > 1900 ? 1900 : 620 * l.cols, l.height = 520 * l.rows > 1600 ? 1600 : 520 * l.rows;
  }
  return l;
}

enum {
  GRID_TOP = 34,
  GRID_PLOT_H = 300,
  GRID_LEFT = 92,
  GRID_RIGHT = 24,
  GRID_LINE = 19,
  GRID_LINE_TITLE = 17
};

struct plot_grid plot_grid_make(int n, int header_lines, int tics_px, int key_rows)
{
  struct plot_grid g = {.cols = (int)ceil(sqrt((double)n))};
  g.rows = (n + g.cols - 1) / g.cols;
  g.cell_w = 620 * g.cols > 1900 ? 1900 / g.cols : 620;
  g.width = g.cell_w * g.cols;
  g.plot_h = GRID_PLOT_H;
  g.left = GRID_LEFT;
  g.tics = tics_px;
  g.key_top = GRID_TOP + g.plot_h + tics_px;
  g.cell_h = g.key_top + key_rows * GRID_LINE + 16;
  g.header = header_lines * GRID_LINE_TITLE + 16;
  g.height = g.header + g.rows * g.cell_h;
  return g;
}

void plot_grid_panel(FILE *gp, const struct plot_grid *g, int p)
{
  int row = p / g->cols, col = p % g->cols;
  double x0 = (double)col * g->cell_w, y0 = g->header + (double)row * g->cell_h;
  double w = g->width, h = g->height;
  fprintf(gp,
          "set lmargin at screen %.5f\nset rmargin at screen %.5f\nset tmargin at screen %.5f\n"
          "set bmargin at screen %.5f\nset key at screen %.5f, screen %.5f center top\n",
          (x0 + g->left) / w, (x0 + g->cell_w - GRID_RIGHT) / w, 1.0 - (y0 + GRID_TOP) / h,
          1.0 - (y0 + GRID_TOP + g->plot_h) / h, (x0 + 0.5 * g->cell_w) / w, 1.0 - (y0 + g->key_top) / h);
}

int plot_grid_left(int tic_chars)
{
  int px = 8 * tic_chars + 50; /* the tic labels, the y label beside them and the gaps */
  return px > GRID_LEFT ? px : GRID_LEFT;
}

int plot_key_rows(int n_entries, int cols) { return (n_entries + cols - 1) / (cols > 0 ? cols : 1) + 1; }

FILE *plot_script_open(const char *plots_dir, const char *name, const char *what)
{
  char file[300];
  snprintf(file, sizeof file, "%s.gp", name);
  FILE *fp = open_in(plots_dir, file);
  if (!fp) return NULL;
  fprintf(fp,
          "# %s.gp — %s.\n"
          "# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make %s.png and %s.svg by\n"
          "# running `gnuplot %s.gp` in this directory (the run directory's plots/).\n",
          name, what, name, name, name);
  plot_script_settings(fp);
  return fp;
}

void plot_script_settings(FILE *fp)
{
  fprintf(fp, "reset\n"
              "set encoding utf8\n"
              "set key below horizontal center maxcols 4 spacing 1.1 samplen 3 noenhanced title \" \"\n"
              "set grid back lt 1 lc rgb '#e4e4e4' lw 1\n"
              "set border 3 lw 1.2\nset tics nomirror out\n"
              "set datafile missing 'NaN'\n"
              "set mxtics default\n");
}

void plot_script_png_size(FILE *fp, const char *name, int width, int height)
{
  fprintf(fp,
          "# the same commands twice: PNG, then SVG\n"
          "do for [cb_svg = 0:1] {\n"
          "if (cb_svg) {\n  set terminal svg size %d,%d noenhanced font 'sans,11' background '#ffffff'\n"
          "  set output '%s.svg'\n} else {\n"
          "  set terminal pngcairo size %d,%d noenhanced font 'sans,11'\n  set output '%s.png'\n}\n",
          width, height, name, width, height, name);
}

int plot_key_cols(const char *const *labels, int n, int width)
{
  size_t longest = 1;
  for (int k = 0; k < n; k++)
    if (labels[k] && strlen(labels[k]) > longest) longest = strlen(labels[k]);
  /* gnuplot's own estimate of a key column is short for sans 11: about 9 pixels a character, and the
   * sample and gaps */
  int cols = width / (9 * (int)longest + 110);
  return cols < 1 ? 1 : cols > 4 ? 4 : cols;
}

/* Breaks each line of a quoted gnuplot text (lines separated by the two characters '\\' 'n') longer than
 * max_chars at its last space before that, so that no title line runs past the figure's edges. */
void plot_wrap(char *s, size_t n, int max_chars)
{
  size_t len = strlen(s), line = 0, last_space = 0;
  int have_space = 0;
  for (size_t k = 0; k < len; k++) {
    if (s[k] == '\\' && s[k + 1] == 'n') { /* a break already: the next line starts after it */
      k++, line = 0, have_space = 0;
      continue;
    }
    if (s[k] == ' ') last_space = k, have_space = 1;
    if (++line <= (size_t)max_chars || !have_space || len + 2 > n) continue;
    memmove(s + last_space + 2, s + last_space + 1, len - last_space); /* the '\0' moves too */
    s[last_space] = '\\', s[last_space + 1] = 'n';
    len++, k++; /* the character just counted moved one place right */
    line = k - last_space - 1, have_space = 0;
  }
}

void plot_script_png(FILE *fp, const char *name) { plot_script_png_size(fp, name, 1000, 700); }

int plot_script_close(FILE *fp, const char *plots_dir, const char *name)
{
  char file[300];
  fprintf(fp, "}\nunset output\n");
  snprintf(file, sizeof file, "%s.gp", name);
  return plot_file_close(fp, plots_dir, file);
}
