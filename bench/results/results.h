/* results.h — aggregation of a run directory that holds tasks.csv and experiment.txt (summary.c, plot.c):
 * run at the end of every sweep, and by bin/bench_merge and bin/bench_plot. Each returns 0 on success. */
#ifndef CB_RESULTS_H
#define CB_RESULTS_H

int sweep_summarize(const char *run_dir);
int sweep_plot(const char *run_dir);

#endif
