/* plot_trace.h — plots of a task's per-step trace (-trace DIR, sweep_observers.h): a driver declares what
 * to draw against time (struct trace_plot: stacked panels of curves, each a trace column, simulated solid
 * and reference/analytic dashed), and the engine draws them for every task of the run that left a trace,
 * after the sweep, unless -no_plots: DIR/EXPERIMENT_taskID_NAME.gp and .png next to DIR/EXPERIMENT_taskID.csv
 * (`cd DIR && gnuplot EXPERIMENT_taskID_NAME.gp` re-makes it). PNG only: a trace holds one row per step
 * (1e5 rows at h = 1e-5), too many points for an SVG, and subsampling would drop one-step events such
 * as an impact impulse. */
#ifndef CB_PLOT_TRACE_H
#define CB_PLOT_TRACE_H

enum { TRACE_MAX_CURVES = 6, TRACE_MAX_PANELS = 4 };

/* One curve: trace column `column` against t (minus column `minus` when set: a difference against a
 * reference), keyed `title`; reference = 1 draws it dashed over the simulated curves (an analytic answer). */
struct trace_curve {
  const char *column, *title;
  int reference;
  const char *minus;
};

/* One panel: its y label (with the unit) and its curves, up to the first with column NULL; yrange NULL
 * (autoscaled) or a gnuplot range such as "[-0.5:3.5]", for a quantity that is zero but for rare events,
 * whose autoscaled axis would magnify the solver's round-off between them. */
struct trace_panel {
  const char *ylabel;
  struct trace_curve curve[TRACE_MAX_CURVES];
  const char *yrange;
};

/* One plot: the file suffix NAME, the title (the paper's figure it redraws) and the panels stacked over a
 * shared time axis, up to the first with ylabel NULL. */
struct trace_plot {
  const char *name, *title;
  struct trace_panel panel[TRACE_MAX_PANELS];
};

/* Writes dir/stem_NAME.gp for the trace dir/stem.csv and runs gnuplot on it in dir (dir/stem_NAME.png);
 * subtitle: a second title line (the task's axis values). 0 done; 1 gnuplot failed (a message names the
 * script; gnuplot's own output is in dir/gnuplot.log); 2 the script could not be written (named). */
int plot_trace(const char *dir, const char *stem, const char *subtitle, const struct trace_plot *p);

#endif
