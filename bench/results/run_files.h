/* run_files.h — the small vocabulary the sweep runner (bench/engine) and the results tools (bench/results:
 * tables, summaries, plots, compare) share about a run directory, so that neither includes the other's
 * private header. */
#ifndef CB_RUN_FILES_H
#define CB_RUN_FILES_H

#include <stddef.h>

#define SWEEP_PATH_MAX 4096

/* Formats a path into dst; nonzero (with a message) when it does not fit. */
int sweep_path(char *dst, size_t n, const char *fmt, ...);
void sweep_iso_now(char *buf, size_t n); /* UTC time stamp, ISO 8601 */
/* The value of a "key value" line of experiment.txt (malloc'd), or NULL. */
char *sweep_experiment_value(const char *path, const char *key);
/* "ok" and "converged" are successes; "not_applicable" and "corrupt_input" (the input was damaged: no
 * method's failure) are neither success nor failure. */
int sweep_status_is_success(const char *status);
int sweep_status_is_failure(const char *status);

#endif
