"""Tools that keep the course honest: bug banks, the demo class, golden traces, mutants, figures, toy courses."""
