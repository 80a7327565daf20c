/* Compiled only by diagnostics("*") through compile_commands.json: one error, one warning. */
int demo(void) {
  int unused;
  return missing_name;
}
