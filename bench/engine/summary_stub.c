/* summary_stub.c — TEMPORARY: replaced by summary.c / plot.c (in progress on branch post). */
#include "sweep.h"

#include <stdio.h>

int sweep_summarize(const char *run_dir)
{
  (void)run_dir;
  return 0;
}

int sweep_plot(const char *run_dir)
{
  (void)run_dir;
  return 0;
}
