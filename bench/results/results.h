/* results.h — aggregation of a run directory that holds tasks.csv and experiment.txt (summary.c, plot.c):
 * run at the end of every sweep, and by bin/bench_merge and bin/bench_plot. Each returns 0 on success. */
#ifndef CB_RESULTS_H
#define CB_RESULTS_H

int sweep_summarize(const char *run_dir);
/* 0; 1 when gnuplot could not draw (missing, or it failed: the scripts and data are written); 2 when the
 * run could not be read or a file could not be written (a message names it). */
int sweep_plot(const char *run_dir);

#endif
