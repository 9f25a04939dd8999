/* plot_success.c — the success rate (successes / applicable tasks) per x value and series: clustered
 * bars labelled with successes/applicable, or a heat map when there are too many bars to read. */
#include "cellstats.h"
#include "plot_impl.h"

#include <stdlib.h>
#include <string.h>

int plot_heat_map_width(int nx)
{
  int w = 260 + 62 * nx;
  return w < 1000 ? 1000 : w > 2200 ? 2200 : w;
}

/* A rate as a heat map (bars for 20 x values times 14 series are unreadable): x along the bottom, series
 * up the side, the rate suc/app as colour and suc/app written in each cell; a cell with no task (app 0) is
 * hatched and says "n/a" (no colour of the palette). The palette is cividis (Nunez, Anderton & Renslow,
 * PLoS ONE 13 (2018) e0199239): sequential dark blue to yellow, designed to read the same with the common
 * colour-vision deficiencies and monotonic in lightness, so it survives grey print; its stops are written
 * into the .gp (gnuplot has no built-in cividis). Writes the rest of the script gp (which it closes). */
int plot_heat_map(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x, FILE *gp,
                  const char *dir, const char *name, const int *app, const int *suc, const char *cblabel)
{
  int ns = ps->g->n, nx = x->g->n;
  char qt[512], lab[256];
  fprintf(gp,
          "unset grid\nset border 15\nset tics nomirror out\nset xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
          "set xtics (",
          nx - 1, ns - 1);
  for (int i = 0; i < nx; i++) {
    plot_quote(plot_x_text(r, x, i), qt, sizeof qt);
    fprintf(gp, "%s\"%s\" %d", i ? ", " : "", qt, i);
  }
  fprintf(gp, ")\n%sset ytics (", plot_x_crowded(r, x) || nx > 6 ? "set xtics rotate by 45 right\n" : "");
  for (int s = 0; s < ns; s++) {
    plot_quote(ps->label[s], qt, sizeof qt);
    fprintf(gp, "%s\"%s\" %d", s ? ", " : "", qt, s);
  }
  if (r->plot_x[0])
    plot_axis_label(r, r->plot_x, lab, sizeof lab);
  else
    snprintf(lab, sizeof lab, "all tasks");
  plot_quote(lab, qt, sizeof qt);
  fprintf(gp, ")\nset xlabel \"%s\"\n", qt);
  plot_quote(ps->title, qt, sizeof qt);
  fprintf(gp, "set ylabel \"%s\"\n", qt);
  plot_quote(cblabel, qt, sizeof qt);
  fprintf(gp,
          "set cblabel \"%s (cividis palette, colour-blind safe)\"\nset "
          "cbrange [0:100]\nunset key\n"
          "# cividis (colour-blind safe, lightness rising with the rate): its quartile colours (viridisLite\n"
          "# cividis(5)), interpolated\n"
          "set palette defined (0 '#00204d', 25 '#414d6b', 50 '#7c7b78', 75 '#bcaf6f', 100 '#ffea46')\n"
          "$cells << EOD\n",
          qt);
  /* the cells inline, so the script stands alone; a NaN cell (no applicable task) is not drawn: the hatched
   * background shows */
  for (int s = 0; s < ns; s++)
    for (int i = 0; i < nx; i++) {
      int c = s * nx + i;
      if (app[c])
        fprintf(gp, "%d %d %.6g \"%d/%d\"\n", i, s, 100.0 * suc[c] / app[c], suc[c], app[c]);
      else
        fprintf(gp, "%d %d NaN \"n/a\"\n", i, s);
    }
  fprintf(gp, "EOD\n");
  int h = 260 + 34 * ns;
  plot_script_png_size(gp, name, plot_heat_map_width(nx), h < 700 ? 700 : h > 1600 ? 1600 : h);
  fprintf(gp, "set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fc rgb '#b0b0b0' fs "
              "pattern 4 transparent\n"
              "plot $cells using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \\\n"
              "  $cells using 1:2:(strcol(4)):($3 < 55 ? 0xffffff : 0x000000) with labels font ',8' tc rgb "
              "variable\n");
  return plot_script_close(gp, dir, name);
}

/* The success rate per x and series as clustered bars, labelled with their percentage (a 0% bar is
 * otherwise invisible). */
int plot_success(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
                 const struct cellstats *cells, const char *dir)
{
  int ns = ps->g->n, nx = x->g->n, rc = 2;
  const int *app = cells->applicable, *suc = cells->success;
  char qt[512], over[512];
  FILE *dat = NULL, *gp = NULL;
  if (!(dat = plot_data_open(dir, "success_rate.dat"))) goto cleanup;
  fprintf(dat,
          "# %s: success rate [%%] (successes / applicable tasks) per %s; columns: x, then per %s the "
          "rate (NaN: no applicable task), successes, applicable tasks\n",
          r->title, r->plot_x[0] ? r->plot_x : "run", ps->title);
  for (int i = 0; i < nx; i++) {
    fprintf(dat, "\"%s\"", plot_x_text(r, x, i));
    for (int s = 0; s < ns; s++) {
      int c = s * nx + i;
      if (app[c])
        fprintf(dat, " %.17g %d %d", 100.0 * suc[c] / app[c], suc[c], app[c]);
      else
        fprintf(dat, " NaN 0 0");
    }
    fprintf(dat, "\n");
  }
  int bad = plot_file_close(dat, dir, "success_rate.dat");
  dat = NULL;
  plot_aggregated_over(r, over, sizeof over);
  if (bad || !(gp = plot_script_open(dir, "success_rate", "success rate per x value and series (bars)")))
    goto cleanup;
  plot_quote(r->title, qt, sizeof qt);
  int heat = ns > FACET_MIN || ns * nx > 48; /* too many bars to read: a heat map, x by series */
  /* success is the task's status, what the run of the task came to (the checker's verdict, ok or
   * converged), not an outcome column of the experiment (those have plots of their own) */
  char head[2048], all[96] = "";
  int n_app = 0, n_suc = 0;
  for (int c = 0; c < ns * nx; c++)
    n_app += app[c], n_suc += suc[c];
  if (n_app > 0 && n_suc == n_app) /* a constant: say so, rather than leave a reader hunting for a cell */
    snprintf(all, sizeof all, "\\nevery one of the %d applicable tasks succeeded", n_app);
  snprintf(head, sizeof head,
           "%s\\ntasks whose status is a success (ok, converged) / applicable tasks (not_applicable left "
           "out%s)%s%s%s",
           qt, heat ? "; hatched: no applicable task" : "", over[0] ? "\\n" : "", over, all);
  plot_wrap(head, sizeof head, PLOT_TITLE_CHARS(heat ? plot_heat_map_width(nx) - 200 : 1000));
  fprintf(gp, "set title \"%s\"\n", head);
  if (heat) {
    rc = plot_heat_map(r, ps, x, gp, dir, "success_rate", app, suc, "success rate [%]") ? 2 : 0;
    goto cleanup;
  }
  char lab[256];
  if (r->plot_x[0])
    plot_axis_label(r, r->plot_x, lab, sizeof lab);
  else
    snprintf(lab, sizeof lab, "all tasks");
  plot_quote(lab, qt, sizeof qt);
  fprintf(gp,
          "set xlabel \"%s\"\nset ylabel 'success rate [%%]'\nset yrange [0:115]\nset ytics 0,20,100\n"
          "set style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid 0.85 border -1\nset boxwidth 0.9 relative\nset xrange [-0.5:%d.5]\n",
          qt, nx - 1);
  plot_script_png(gp, "success_rate");
  fprintf(gp, "set key maxcols %d\n", plot_key_cols((const char *const *)ps->label, ns, 1000));
  plot_write_key_title(gp, r, ps->title, 1);
  fprintf(gp, "plot");
  for (int s = 0; s < ns; s++) {
    plot_quote(ps->label[s], qt, sizeof qt);
    fprintf(gp, "%s \\\n  'success_rate.dat' using %d%s lc rgb '%s' title \"%s\"", s ? "," : "", 2 + 3 * s,
            s ? "" : ":xtic(1)", plot_color(s), qt);
  }
  if (ns * nx <=
      48) /* successes/applicable over each bar: bar k of cluster i is at i + (k - (ns-1)/2) / (ns+1) */
    for (int s = 0; s < ns; s++)
      fprintf(gp,
              ", \\\n  'success_rate.dat' using ($0 + (%d - %d / 2.0) / %d.0):(column(%d) + 3):"
              "(sprintf('%%d/%%d', column(%d), column(%d))) with labels font ',8' notitle",
              s, ns - 1, ns + 1, 2 + 3 * s, 3 + 3 * s, 4 + 3 * s);
  fprintf(gp, "\n");
  rc = plot_script_close(gp, dir, "success_rate") ? 2 : 0;
cleanup:
  if (dat) fclose(dat);
  return rc;
}
