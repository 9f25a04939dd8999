# bench/lib_help.sh — sourced by the scripts in bench/ and slurm/: `script_help "$@"` prints the script's
# header comment (line 2 up to the first line that is not a comment) and exits 0 when the first argument is
# -h, -help or --help, before the script runs anything.
script_help() {
  case "${1:-}" in -h | -help | --help) ;; *) return 0 ;; esac
  sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
  exit 0
}
