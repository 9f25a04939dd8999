/* plot_trace.c — the plots of a per-step trace (plot_trace.h): one gnuplot script per declared plot, its
 * panels stacked in a multiplot over the shared time axis, read straight from the trace's CSV by column
 * name (so a driver that adds trace columns moves no index). The look is plot_common.c's: the same
 * settings, the Okabe-Ito colours in curve order, the key below each panel; a reference (analytic) curve
 * is dashed and drawn after the simulated ones, so where they agree the dashes lie on the solid line. */
#include "plot_trace.h"

#include "plot_impl.h"
#include "run_files.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int n_panels(const struct trace_plot *p)
{
  int n = 0;
  while (n < TRACE_MAX_PANELS && p->panel[n].ylabel)
    n++;
  return n;
}

/* The using-spec of curve c: 't':'col', or 't':(column('col') - column('minus')). */
static void curve_using(FILE *fp, const struct trace_curve *c)
{
  if (c->minus)
    fprintf(fp, "using 't':(column('%s') - column('%s'))", c->column, c->minus);
  else
    fprintf(fp, "using 't':'%s'", c->column);
}

static void write_panel(FILE *fp, const char *csv, const struct trace_panel *pn, int last)
{
  char q[512];
  plot_quote(pn->ylabel, q, sizeof q);
  fprintf(fp, "set ylabel \"%s\"\nset yrange %s\n", q, pn->yrange ? pn->yrange : "[*:*]");
  if (last)
    fprintf(fp, "set xlabel \"time t [s]\"\nset format x\n");
  else
    fprintf(fp, "unset xlabel\nset format x ''\n");
  fprintf(fp, "plot ");
  int k = 0;
  /* the simulated curves first, then the references over them */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < TRACE_MAX_CURVES && pn->curve[i].column; i++) {
      const struct trace_curve *c = &pn->curve[i];
      if ((c->reference != 0) != pass) continue;
      plot_quote(c->title ? c->title : c->column, q, sizeof q);
      fprintf(fp, "%s'%s' ", k++ ? ", \\\n     " : "", csv);
      curve_using(fp, c);
      fprintf(fp, " with lines lw %s dt %d lc rgb '%s' title \"%s\"", pass ? "1.8" : "2.2", pass ? 2 : 1,
              plot_color(i), q);
    }
  fprintf(fp, "\n");
}

int plot_trace(const char *dir, const char *stem, const char *subtitle, const struct trace_plot *p)
{
  char name[600], script[620], csv[620], path[SWEEP_PATH_MAX + 700], title[1024], sub[512];
  snprintf(name, sizeof name, "%s_%s", stem, p->name);
  snprintf(script, sizeof script, "%s.gp", name);
  snprintf(csv, sizeof csv, "%s.csv", stem);
  if (sweep_path(path, sizeof path, "%s/%s", dir, script)) return 1;
  FILE *fp = fopen(path, "w");
  if (!fp) {
    fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
    return 2;
  }
  int np = n_panels(p);
  plot_quote(p->title, title, sizeof title);
  plot_quote(subtitle ? subtitle : "", sub, sizeof sub);
  fprintf(
      fp,
      "# %s — %s.\n"
      "# Made by the sweep engine (bench/results/plot_trace.c) from the per-step trace %s; re-make %s.png\n"
      "# by running `gnuplot %s` in this directory.\n",
      script, p->title, csv, name, script);
  plot_script_settings(fp);
  fprintf(fp,
          "set datafile separator ','\n"
          "set terminal pngcairo size 1000,%d noenhanced font 'sans,11'\n"
          "set output '%s.png'\n"
          "set lmargin 12\nset rmargin 4\nset xrange [0:*]\nset autoscale xfixmax\n"
          "set multiplot layout %d,1 title \"%s\\n%s\"\n",
          160 + 300 * np, name, np, title, sub);
  for (int k = 0; k < np; k++)
    write_panel(fp, csv, &p->panel[k], k == np - 1);
  fprintf(fp, "unset multiplot\nunset output\n");
  if (plot_file_close(fp, dir, script)) return 2;
  int st = plot_gnuplot(dir, script);
  if (st == 127)
    fprintf(stderr, "error: gnuplot is not installed (Debian: gnuplot-nox); the trace plot script is %s\n",
            path);
  else if (st)
    fprintf(stderr, "error: gnuplot failed on %s (see %s/gnuplot.log)\n", path, dir);
  return st != 0;
}
