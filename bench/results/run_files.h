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

/* What a value becomes in a run's files, for run_text_check: RUN_TEXT_PATH a path (a run directory, a
 * trace folder, an option's value in experiment.txt and meta.json: one line each), RUN_TEXT_FIELD a field
 * of the ledger and tasks.csv (an axis value: CSV without quoting, one row per line), RUN_TEXT_NAME a
 * field that is also one folder name (-run NAME). */
enum run_text { RUN_TEXT_PATH, RUN_TEXT_FIELD, RUN_TEXT_NAME };
/* The one check of text a run writes into its files or paths: 0 when it fits; else 1, and why says which
 * character is refused and where ("a newline at character 3 of 'ok?fail'", control characters shown as
 * '?'): a control character anywhere (a newline would start another row or line), a comma in a field, a
 * '/' in a folder name. */
int run_text_check(const char *text, enum run_text kind, char *why, size_t n);
/* text on one line for a message: control characters as '?', cut with "..." to fit n bytes (n >= 4). */
void run_text_shown(const char *text, char *out, size_t n);

#endif
