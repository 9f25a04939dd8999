/* test_program_args.c — the start-up reader (bench/engine/program_args.c) without MPI: nothing dropped (a
 * stray word on the command line, in a file and in PETSC_OPTIONS is named with where it came from), the key
 * rule, options files (comments, pairs sharing a line, quotes, include cycles, special and huge files, NUL
 * bytes), precedence with its notes, same-source conflicts, values of any length, positional and list
 * words, help, and the PETSc features that are refused. Files live in a mkdtemp directory. */
#include "check.h"
#include "program.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[] = "/tmp/test_program_args_XXXXXX";
static char msg[4096];
static struct program_args args;

static const struct program_spec driver = {.name = "bench_x", .usage = "[options]", .h_is_time_step = 1};
static const char *const tool_flags[] = {"-all", NULL};
static const struct program_spec tool = {.name = "tool",
                                         .usage = "BASE NEW [options]",
                                         .positional_min = 2,
                                         .positional_max = 2,
                                         .flags = tool_flags};
static const char *const list_f[] = {"-f", NULL};
static const struct program_spec lister = {
    .name = "lister", .usage = "-f FILE... [options]", .lists = list_f};

/* dir/name (a static buffer per call site would do; four rotate) */
static const char *path(const char *name)
{
  static char buf[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

static void write_file(const char *name, const char *text)
{
  FILE *f = fopen(path(name), "w");
  if (f) fputs(text, f), fclose(f);
}

/* Parses argv (NULL-terminated, argv[0] added) with the given PETSC_OPTIONS and default files. */
static int parse_env(const struct program_spec *sp, const char *env, const char *const *defaults, ...)
{
  char *argv[64] = {"prog"};
  int argc = 1;
  va_list ap;
  va_start(ap, defaults);
  for (char *a; argc < 63 && (a = va_arg(ap, char *));)
    argv[argc++] = a;
  va_end(ap);
  program_args_free(&args);
  struct program_sources src = {env, NULL, defaults};
  return program_args_parse(sp, argc, argv, &src, &args, msg, sizeof msg);
}
#define PARSE(sp, ...) parse_env(sp, NULL, NULL, __VA_ARGS__, (char *)NULL)

static const struct program_pair *pair(const char *name)
{
  for (int i = 0; i < args.n_pairs; i++)
    if (strcmp(args.pairs[i].name, name) == 0) return &args.pairs[i];
  return NULL;
}

static int value_is(const char *name, const char *value)
{
  const struct program_pair *p = pair(name);
  if (!p) return 0;
  return value ? p->value && strcmp(p->value, value) == 0 : p->value == NULL;
}

static int has(const char *text) { return strstr(msg, text) != NULL; }

static void test_stray_words(void)
{
  CHECK(PARSE(&driver, "-theta", "10", "30", "-h", "1e-3") == 2 &&
            has("stray word '30' after -theta 10 (a list is one word: -theta 10,30)"),
        "command line: -theta 10 30 is refused naming '30': %s", msg);
  CHECK(PARSE(&driver, "-h", "1e-3", "2e-3") == 2 && has("stray word '2e-3' after -h 1e-3"),
        "command line: -h 1e-3 2e-3 names '2e-3': %s", msg);
  CHECK(PARSE(&driver, "word") == 2 && has("stray word 'word': bench_x takes no words that are not options"),
        "a bare first word: %s", msg);
  write_file("stray.opts", "# a preset\n-mu 0.3\n-theta 10 30\n");
  CHECK(PARSE(&driver, "-options_file", path("stray.opts")) == 2 && has("stray.opts:3: stray word '30'") &&
            has("after -theta 10"),
        "in a file: FILE:LINE and the word: %s", msg);
  write_file("split.opts", "-theta\n10\n");
  CHECK(PARSE(&driver, "-options_file", path("split.opts")) == 2 && has("split.opts:2: stray word '10'") &&
            has("an options file holds -name value pairs"),
        "a value on the next line is not the option's: %s", msg);
  CHECK(parse_env(&driver, "-a 1 2", NULL, (char *)NULL) == 2 &&
            has("PETSC_OPTIONS: stray word '2' after -a 1"),
        "in PETSC_OPTIONS: %s", msg);
  CHECK(PARSE(&driver, "-no_plots", "1", "2") == 2 && has("stray word '2' after -no_plots 1"),
        "one value per option, whatever the option: %s", msg);
}

static void test_key_rule(void)
{
  CHECK(PARSE(&driver, "-cp_tol", "-1e-3", "-x", "-inf", "-y", "-.5", "-info") == 0 &&
            value_is("-cp_tol", "-1e-3") && value_is("-x", "-inf") && value_is("-y", "-.5") &&
            value_is("-info", NULL),
        "'-1e-3', '-inf' and '-.5' are values, -info is an option");
  CHECK(PARSE(&driver, "-a", "-b", "c") == 0 && value_is("-a", NULL) && value_is("-b", "c"),
        "an option followed by an option has no value");
  CHECK(PARSE(&driver, "--foo", "1") == 2 && has("--foo: options take one dash (-foo)"), "--foo: %s", msg);
  CHECK(PARSE(&driver, "-theta=10") == 2 && has("-theta=10: the value is a word of its own"), "-theta=10: %s",
        msg);
  CHECK(PARSE(&driver, "-options_file") == 2 && has("-options_file needs a file name"), "%s", msg);
}

static void test_file_format(void)
{
  write_file("fmt.opts", "  -a 1 -b \"x y # z\" -c   # comment -d 4\n\t-e\t5\r\n\n# -f 6\n-g \"\"\n");
  CHECK(PARSE(&driver, "-options_file", path("fmt.opts")) == 0 && value_is("-a", "1") &&
            value_is("-b", "x y # z") && value_is("-c", NULL) && !pair("-d") && value_is("-e", "5") &&
            !pair("-f") && value_is("-g", NULL) && args.n_pairs == 5,
        "pairs share a line, '#' comments, quotes hold blanks and '#', CRLF and tabs (%s)", msg);
  write_file("quote.opts", "-a \"open\n");
  CHECK(PARSE(&driver, "-options_file", path("quote.opts")) == 2 && has("quote.opts:1: unterminated quote"),
        "unterminated quote: %s", msg);
  write_file("quote2.opts", "-a x\"y\"\n");
  CHECK(PARSE(&driver, "-options_file", path("quote2.opts")) == 2 && has("quote2.opts:1: a quote inside"),
        "a quote inside a word: %s", msg);
  write_file("keyval.opts", "-where \"-x\"\n");
  CHECK(PARSE(&driver, "-options_file", path("keyval.opts")) == 2 &&
            has("the value '-x' of -where would be read as an option name by PETSc"),
        "a quoted value PETSc would take for an option: %s", msg);
  write_file("alias.opts", "-a 1\nalias -b -a\n");
  CHECK(PARSE(&driver, "-options_file", path("alias.opts")) == 2 &&
            has("alias.opts:2: alias lines are not supported"),
        "alias lines: %s", msg);
  write_file("nul.opts", "-a 1\n-b 2");
  FILE *f = fopen(path("nul.opts"), "a");
  if (f) fputc('\0', f), fclose(f);
  CHECK(PARSE(&driver, "-options_file", path("nul.opts")) == 2 && has("nul.opts:2: binary data"),
        "a NUL byte: %s", msg);
}

static void test_cycles(void)
{
  char text[600];
  snprintf(text, sizeof text, "-a 1\n-options_file %s\n", path("self.opts"));
  write_file("self.opts", text);
  CHECK(PARSE(&driver, "-options_file", path("self.opts")) == 2 && has("self.opts:2: options file cycle: ") &&
            has("self.opts -> ") && strstr(strstr(msg, "->"), "self.opts"),
        "a file that includes itself: %s", msg);
  snprintf(text, sizeof text, "-options_file %s\n", path("mutual_b.opts"));
  write_file("mutual_a.opts", text);
  snprintf(text, sizeof text, "-b 2 -options_file %s\n", path("mutual_a.opts"));
  write_file("mutual_b.opts", text);
  char want[1600];
  snprintf(want, sizeof want, "options file cycle: %s -> %s -> %s", path("mutual_a.opts"),
           path("mutual_b.opts"), path("mutual_a.opts"));
  CHECK(PARSE(&driver, "-options_file", path("mutual_a.opts")) == 2 && has(want),
        "two files that include each other: the chain is named: %s", msg);
  snprintf(text, sizeof text, "-options_file %s\n", path("mutual_a.opts"));
  CHECK(parse_env(&driver, text, NULL, (char *)NULL) == 2 && has(want), "... also from PETSC_OPTIONS");
  /* the same file twice, not nested, is no cycle */
  write_file("twice.opts", "-a 1\n");
  CHECK(PARSE(&driver, "-options_file", path("twice.opts"), "-options_file", path("twice.opts")) == 0 &&
            value_is("-a", "1") && args.n_notes == 0,
        "the same file twice in a row is read twice (%s)", msg);
}

static double seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void test_special_files(void)
{
  CHECK(PARSE(&driver, "-options_file", "/dev/zero") == 2 && has("/dev/zero is a character device"),
        "/dev/zero: %s", msg);
  CHECK(PARSE(&driver, "-options_file", dir) == 2 && has("is a directory"), "a directory: %s", msg);
  const char *fifo = path("fifo");
  if (mkfifo(fifo, 0600) == 0) {
    double t0 = seconds();
    int rc = PARSE(&driver, "-options_file", fifo);
    CHECK(rc == 2 && has("is a FIFO") && seconds() - t0 < 2.0, "a FIFO: refused at once: %s", msg);
  } else {
    check_skip("mkfifo failed in %s", dir);
  }
  int fd = open(path("big.opts"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int sized = fd >= 0 && ftruncate(fd, 17L << 20) == 0;
  if (fd >= 0) close(fd);
  CHECK(sized && PARSE(&driver, "-options_file", path("big.opts")) == 2 && has("is larger than 16 MiB"),
        "a 17 MiB file: %s", msg);
  CHECK(PARSE(&driver, "-options_file", path("missing.opts")) == 2 && has("cannot read the options file") &&
            has("missing.opts: No such file"),
        "a missing file: %s", msg);
  write_file("y.yaml", "a: 1\n");
  CHECK(PARSE(&driver, "-options_file", path("y.yaml")) == 2 && has("YAML options files are not supported"),
        "a .yaml file: %s", msg);
  write_file("yaml.opts", "%YAML 1.2\n---\n");
  CHECK(PARSE(&driver, "-options_file", path("yaml.opts")) == 2 &&
            has("YAML options files are not supported"),
        "a %%YAML file: %s", msg);
}

static void test_refused(void)
{
  static const char *const words[] = {"-prefix_push", "-prefix_pop", "-options_file_yaml",
                                      "-options_string_yaml"};
  for (int i = 0; i < 4; i++)
    CHECK(PARSE(&driver, words[i], "x_") == 2 && has("is not supported"), "%s refused: %s", words[i], msg);
  program_args_free(&args);
  struct program_sources src = {NULL, "a: 1", NULL};
  char *argv[] = {"prog", NULL};
  CHECK(program_args_parse(&driver, 1, argv, &src, &args, msg, sizeof msg) == 2 &&
            has("PETSC_OPTIONS_YAML is not supported"),
        "PETSC_OPTIONS_YAML refused: %s", msg);
  write_file("skip.opts", "-skip_petscrc\n");
  CHECK(PARSE(&driver, "-options_file", path("skip.opts")) == 2 && has("command line only"),
        "-skip_petscrc in a file: %s", msg);
}

static void test_precedence(void)
{
  write_file("petscrc", "-seeds 1 -a d\n");
  write_file("pre.opts", "# preset\n-seeds 3\n-c f\n");
  char rc_path[512], absent[512];
  snprintf(rc_path, sizeof rc_path, "%s", path("petscrc"));
  snprintf(absent, sizeof absent, "%s", path("absent_petscrc"));
  const char *const defaults[] = {rc_path, absent, dir, NULL};
  char want[4][1200];
  snprintf(want[0], sizeof want[0], "-seeds 2 (PETSC_OPTIONS) replaces -seeds 1 (%s:1)", path("petscrc"));
  snprintf(want[1], sizeof want[1], "-seeds 3 (%s:2) replaces -seeds 2 (PETSC_OPTIONS)", path("pre.opts"));
  snprintf(want[2], sizeof want[2], "-seeds 4 (command line) replaces -seeds 3 (%s:2)", path("pre.opts"));
  int rc = parse_env(&driver, "-seeds 2 -b e", defaults, "-seeds", "4", "-options_file", path("pre.opts"),
                     (char *)NULL);
  CHECK(rc == 0 && value_is("-seeds", "4") && value_is("-a", "d") && value_is("-b", "e") &&
            value_is("-c", "f"),
        "defaults < PETSC_OPTIONS < files < command line; absent and directory defaults skipped (%s)", msg);
  CHECK(rc == 0 && args.n_notes == 3 && !strcmp(args.notes[0], want[0]) && !strcmp(args.notes[1], want[1]) &&
            !strcmp(args.notes[2], want[2]),
        "one note per replaced value, in reading order: %s | %s | %s", args.n_notes > 0 ? args.notes[0] : "",
        args.n_notes > 1 ? args.notes[1] : "", args.n_notes > 2 ? args.notes[2] : "");
  const struct program_pair *p = pair("-seeds");
  CHECK(p && !strcmp(p->where, "command line"), "the value in force says where it came from");
  rc = parse_env(&driver, NULL, defaults, "-skip_petscrc", (char *)NULL);
  CHECK(rc == 0 && !pair("-a") && !pair("-skip_petscrc"), "-skip_petscrc: no default file read");
  /* a file included by another counts at its include point */
  char text[600];
  snprintf(text, sizeof text, "-x 1\n-options_file %s\n-y 2\n", path("inner.opts"));
  write_file("outer.opts", text);
  write_file("inner.opts", "-x 5 -y 6\n");
  rc = PARSE(&driver, "-options_file", path("outer.opts"));
  CHECK(rc == 0 && value_is("-x", "5") && value_is("-y", "2") && args.n_notes == 2 &&
            strstr(args.notes[0], "-x 5 (") && strstr(args.notes[1], "-y 2 ("),
        "include point: inner replaces outer's line 1, outer's line 3 replaces inner (%s)", msg);
  rc = PARSE(&driver, "-seeds", "3", "-Seeds", "3", "-a", "1");
  CHECK(rc == 0 && value_is("-seeds", "3") && args.n_notes == 0,
        "the same value twice in one source is fine");
}

static void test_conflicts(void)
{
  CHECK(PARSE(&driver, "-corpus", "A", "-corpus", "B") == 2 &&
            has("-corpus A (command line) and -corpus B (command line): one source gives the option two "
                "values"),
        "-corpus A -corpus B: %s", msg);
  CHECK(PARSE(&driver, "-Corpus", "A", "-corpus", "B") == 2 && has("ambiguous"),
        "names compare case-insensitively: %s", msg);
  write_file("conflict.opts", "-corpus A\n-x 1\n# gap\n-corpus B\n");
  CHECK(PARSE(&driver, "-options_file", path("conflict.opts")) == 2 && has("conflict.opts:1)") &&
            has("conflict.opts:4)"),
        "in one file: both lines named: %s", msg);
  write_file("c1.opts", "-corpus A\n");
  write_file("c2.opts", "-corpus B\n");
  CHECK(PARSE(&driver, "-options_file", path("c1.opts"), "-options_file", path("c2.opts")) == 0 &&
            value_is("-corpus", "B") && args.n_notes == 1,
        "two files: the later replaces, with a note (%s)", msg);
}

static void test_long_values(void)
{
  size_t n = 200000;
  char *big = malloc(n + 1), *text = malloc(n + 16);
  if (!big || !text) {
    CHECK(0, "allocation");
    free(big), free(text);
    return;
  }
  for (size_t i = 0; i < n; i++)
    big[i] = i % 6 == 5 ? ',' : (char)('0' + (int)(i % 10));
  big[n] = '\0';
  CHECK(PARSE(&driver, "-axis", big) == 0 && pair("-axis") && strlen(pair("-axis")->value) == n &&
            !strcmp(pair("-axis")->value, big),
        "a 200 KB value on the command line passes whole");
  snprintf(text, n + 16, "-axis %s\n", big);
  write_file("long.opts", text);
  CHECK(PARSE(&driver, "-options_file", path("long.opts")) == 0 && pair("-axis") &&
            !strcmp(pair("-axis")->value, big),
        "a 200 KB value in a file passes whole");
  int rc = PARSE(&driver, "-options_file", path("long.opts"), "-axis", "1");
  CHECK(rc == 0 && args.n_notes == 1 && strlen(args.notes[0]) < 300 &&
            strstr(args.notes[0], "(200000 characters)"),
        "notes shorten long values: %s", args.n_notes ? args.notes[0] : "");
  free(big);
  free(text);
}

static void test_positional_and_lists(void)
{
  CHECK(PARSE(&tool, "A", "-all", "B", "-tol", "0.1") == 0 && args.n_positional == 2 &&
            !strcmp(args.positional[0], "A") && !strcmp(args.positional[1], "B") && value_is("-all", NULL) &&
            value_is("-tol", "0.1"),
        "a declared flag takes no value: the word after it is positional");
  CHECK(PARSE(&tool, "A", "B", "C") == 2 &&
            has("stray word 'C': tool takes at most 2 words that are not options"),
        "a third word: %s", msg);
  CHECK(PARSE(&tool, "A") == 2 && has("tool needs 2 words that are not options, got 1; usage: tool BASE NEW"),
        "a missing word: %s", msg);
  CHECK(PARSE(&tool, "-help") == 0 && args.help, "help needs no positional words");
  write_file("pos.opts", "A\n");
  CHECK(PARSE(&tool, "A", "B", "-options_file", path("pos.opts")) == 2 && has("pos.opts:1: stray word 'A'"),
        "positional words come from the command line only: %s", msg);
  CHECK(PARSE(&lister, "-f", "a.txt", "b.txt", "c.txt", "-cp_tol", "1e-9") == 0 && pair("-f") &&
            pair("-f")->n_words == 3 && !strcmp(pair("-f")->words[2], "c.txt") && value_is("-cp_tol", "1e-9"),
        "a list option takes every following bare word");
  write_file("list.opts", "-f x.txt y.txt\n-cp_tol 1\n");
  CHECK(PARSE(&lister, "-options_file", path("list.opts")) == 0 && pair("-f")->n_words == 2 &&
            value_is("-cp_tol", "1"),
        "... in a file, up to the end of its line");
  CHECK(PARSE(&lister, "-f", "a", "-f", "b") == 2 && has("-f a (command line) and -f b (command line)"),
        "a list given twice with other words is a conflict: %s", msg);
}

static void test_help(void)
{
  CHECK(PARSE(&driver, "-help") == 0 && args.help && !args.help_petsc, "-help");
  CHECK(PARSE(&driver, "--help") == 0 && args.help, "--help");
  CHECK(PARSE(&driver, "-help", "petsc") == 0 && args.help && args.help_petsc && args.n_pairs == 0,
        "-help petsc");
  CHECK(PARSE(&driver, "-h") == 0 && args.help, "a bare -h is help");
  CHECK(PARSE(&driver, "-h", "-theta", "1") == 0 && args.help && value_is("-theta", "1"),
        "-h followed by an option is help");
  CHECK(PARSE(&driver, "-h", "1e-3,2e-3") == 0 && !args.help && value_is("-h", "1e-3,2e-3"),
        "-h 1e-3,2e-3 is the time-step option of a driver");
  CHECK(PARSE(&lister, "-h", "x") == 2 && has("stray word 'x' after -h (-h takes no value)"),
        "elsewhere -h is help and takes no value: %s", msg);
  CHECK(PARSE(&driver, "-help", "-theta", "10", "30") == 2, "help does not excuse a stray word");
}

int main(void)
{
  if (!mkdtemp(dir)) return CHECK(0, "temporary directory"), check_finish();
  test_stray_words();
  test_key_rule();
  test_file_format();
  test_cycles();
  test_special_files();
  test_refused();
  test_precedence();
  test_conflicts();
  test_long_values();
  test_positional_and_lists();
  test_help();
  program_args_free(&args);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) printf("# could not remove %s\n", dir);
  return check_finish();
}
